import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Brackets, DataSource, EntityManager, In } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { paginate } from '../platform/pagination/keyset';
import type { Page } from '../platform/pagination/page';
import type { PageQueryDto } from '../platform/pagination/page-query.dto';
import type { ImportRunStatusFilter } from './dto/import-run.dto';
import { ImportRun, type ImportRunStatus } from './entities/import-run.entity';
import { ImportRunPage } from './entities/import-run-page.entity';

/** The filters of listImportRuns, resolved (a site's spaces read by the caller). */
export interface ImportRunFilters {
  space?: string;
  changeRequest?: string;
  /** The site asked for, and the spaces it shows. */
  site?: { id: string; spaceIds: string[] };
  status?: ImportRunStatusFilter;
  /** Pending and running runs last written before this are answered `failed` (stale). */
  staleBefore: Date;
}

type Patch = QueryDeepPartialEntity<ImportRun>;

const ACTIVE: ImportRunStatus[] = ['pending', 'in-progress'];

/** The `import_runs` and `import_run_pages` tables. */
@Injectable()
export class ImportsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async insert(run: ImportRun, manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.insert(ImportRun, run as Patch);
  }

  find(
    organizationId: string,
    id: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<ImportRun | null> {
    return manager.findOne(ImportRun, { where: { organizationId, id } });
  }

  findById(
    id: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<ImportRun | null> {
    return manager.findOne(ImportRun, { where: { id } });
  }

  /** The run, its row locked until the transaction ends. */
  lock(id: string, manager: EntityManager): Promise<ImportRun | null> {
    return manager.findOne(ImportRun, { where: { id }, lock: { mode: 'pessimistic_write' } });
  }

  /** The run's status as it is now (a cancel from another process shows here). */
  async status(
    id: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<string | null> {
    const run = await manager.findOne(ImportRun, {
      where: { id },
      select: { id: true, status: true },
    });
    return run?.status ?? null;
  }

  /** Newest first, with GitBook's filters; stale runs count as failed. */
  page(
    organizationId: string,
    filters: ImportRunFilters,
    query: PageQueryDto,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Page<ImportRun>> {
    const builder = manager
      .getRepository(ImportRun)
      .createQueryBuilder('run')
      .where('run.organization_id = :organizationId', { organizationId });
    if (filters.space !== undefined) builder.andWhere('run.space_id = :space', filters);
    if (filters.changeRequest !== undefined) {
      builder.andWhere('run.change_request_id = :changeRequest', filters);
    }
    if (filters.site !== undefined) {
      const { id, spaceIds } = filters.site;
      builder.andWhere(
        new Brackets((where) => {
          where.where('run.site_id = :siteId', { siteId: id });
          if (spaceIds.length > 0) {
            where.orWhere('run.space_id IN (:...siteSpaceIds)', { siteSpaceIds: spaceIds });
          }
        }),
      );
    }
    const stale = { staleBefore: filters.staleBefore, active: ACTIVE };
    switch (filters.status) {
      case undefined:
        break;
      case 'active':
        builder.andWhere('run.status IN (:...active) AND run.updated_at >= :staleBefore', stale);
        break;
      case 'pending':
      case 'in-progress':
        builder.andWhere('run.status = :status AND run.updated_at >= :staleBefore', {
          ...stale,
          status: filters.status,
        });
        break;
      case 'failed':
        builder.andWhere(
          "(run.status = 'failed' OR (run.status IN (:...active) AND run.updated_at < :staleBefore))",
          stale,
        );
        break;
      default:
        builder.andWhere('run.status = :status', { status: filters.status });
    }
    return paginate(builder, query, {
      keys: [
        { sql: 'run.created_at', of: (run) => run.createdAt },
        { sql: 'run.id', of: (run) => run.id },
      ],
      direction: 'DESC',
    });
  }

  /** Pages of the runs, in tree order, by run. */
  async pagesOf(
    runIds: string[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Map<string, ImportRunPage[]>> {
    const byRun = new Map<string, ImportRunPage[]>(runIds.map((id) => [id, []]));
    if (runIds.length === 0) return byRun;
    const pages = await manager.find(ImportRunPage, {
      where: { runId: In(runIds) },
      order: { runId: 'ASC', position: 'ASC' },
    });
    for (const page of pages) byRun.get(page.runId)?.push(page);
    return byRun;
  }

  /** Moves a run from one status to another: false when it is not in `from` any more. */
  async transition(
    id: string,
    from: ImportRunStatus[],
    patch: Patch,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<boolean> {
    const result = await manager.update(ImportRun, { id, status: In(from) }, patch);
    return (result.affected ?? 0) > 0;
  }

  /** Writes progress and warnings of a running run (no-op once it is not running). */
  async report(
    id: string,
    patch: Patch,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.update(ImportRun, { id, status: 'in-progress' }, patch);
  }

  /** Replaces the run's pages. */
  async setPages(
    runId: string,
    pages: Omit<ImportRunPage, 'runId' | 'position'>[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.delete(ImportRunPage, { runId });
    for (let start = 0; start < pages.length; start += 500) {
      await manager.insert(
        ImportRunPage,
        pages.slice(start, start + 500).map((page, i) => ({ ...page, runId, position: start + i })),
      );
    }
  }

  /** Marks every page of the run complete. */
  async completePages(runId: string, manager: EntityManager): Promise<void> {
    await manager.update(ImportRunPage, { runId }, { status: 'complete' });
  }
}
