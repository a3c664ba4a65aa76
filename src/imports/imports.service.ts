import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ChangeRequestsService } from '../change-requests/change-requests.service';
import { assertSpaceEditable } from '../content-engine/writes/content-writer';
import { StorageUploads } from '../orgs/storage/storage-uploads';
import { Clock } from '../platform/clock/clock';
import { AppConfig } from '../platform/config/app-config';
import { DomainError, invalidInput, notFound } from '../platform/errors/domain-error';
import { newId } from '../platform/ids/ids';
import type { Page } from '../platform/pagination/page';
import { PolicyService } from '../platform/policy/policy.service';
import { SiteStructureRepository } from '../sites/structure/site-structure.repository';
import type { SpaceAccess } from '../spaces/space-access.resolver';
import type { ListImportRunsQueryDto, StartImportRunDto } from './dto/import-run.dto';
import { ImportRun, type ImportSource } from './entities/import-run.entity';
import type { ImportRunPage } from './entities/import-run-page.entity';
import { ImportRunner } from './import-runner';
import { ImportWriter } from './import-writer';
import { ImportsRepository } from './imports.repository';

export const importRunNotFound = () =>
  new DomainError('not_found', 'ImportRunNotFound', 'Import run not found.');

/** The content role an import needs on its target space: writing a change request's content. */
export const IMPORT_SPACE_ROLE = 'edit';

/** A run with its pages, as presented. */
export interface ImportRunView {
  run: ImportRun;
  pages: ImportRunPage[];
}

/**
 * The use cases of import runs. Every lookup carries the organization, so another
 * organization's run is not found. A run is asked for here and done by ImportRunner.
 */
@Injectable()
export class ImportsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly runs: ImportsRepository,
    private readonly runner: ImportRunner,
    private readonly writer: ImportWriter,
    private readonly uploads: StorageUploads,
    private readonly changeRequests: ChangeRequestsService,
    private readonly siteStructure: SiteStructureRepository,
    private readonly policy: PolicyService,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /** When pending and running runs that have not reported since are answered failed. */
  staleBefore(): Date {
    return new Date(this.clock.now().getTime() - this.config.IMPORT_STALE_AFTER_MINUTES * 60_000);
  }

  /**
   * Starts a run: 404 for a target space the caller does not see in the organization (or its
   * change request), 403 without the edit role on it, 400 for a source that is not an http(s)
   * URL or names a file not uploaded, a closed change request, a page not in the content.
   */
  async start(
    organizationId: string,
    userId: string,
    body: StartImportRunDto,
  ): Promise<ImportRunView> {
    const source = this.sourceOf(body);
    if (source.type === 'file') {
      for (const [i, key] of source.files.entries()) {
        if (!(await this.uploads.hasImportFile(organizationId, key))) {
          throw invalidInput(
            `source.files[${i}]: no file uploaded as ${key} (generateStorageUploadURL, kind import_file).`,
          );
        }
      }
    }
    const space = await this.editableSpace(organizationId, userId, body.target.space);
    let changeRequestId: string | null = null;
    let revisionId = space.entity.revisionId;
    if (body.target.changeRequest !== undefined) {
      const { changeRequest } = await this.changeRequests.get(space, body.target.changeRequest);
      if (changeRequest.status === 'merged' || changeRequest.status === 'archived') {
        throw invalidInput(
          `target.changeRequest: change request #${changeRequest.number} is ${changeRequest.status}; an import writes into an open or draft one.`,
        );
      }
      changeRequestId = changeRequest.id;
      revisionId = changeRequest.revision;
    }
    if (
      body.target.page !== undefined &&
      !(await this.writer.hasPage(space.id, revisionId, body.target.page))
    ) {
      throw invalidInput(
        `target.page: no page ${body.target.page} in the ${changeRequestId ? 'change request' : 'space'}.`,
      );
    }
    const siteId = await this.siteOf(organizationId, userId, space.id, body.site);
    const now = this.clock.now();
    const run = this.dataSource.manager.create(ImportRun, {
      id: newId(),
      organizationId,
      spaceId: space.id,
      changeRequestId,
      pageId: body.target.page ?? null,
      siteId,
      source,
      enhance: body.enhance ?? true,
      status: 'pending',
      reason: null,
      warnings: [],
      pagesDone: 0,
      pagesTotal: 0,
      createdBy: userId,
      createdAt: now,
      updatedAt: now,
      startedAt: null,
      completedAt: null,
    });
    await this.dataSource.transaction(async (manager) => {
      await this.runs.insert(run, manager);
      await this.runner.enqueue(run.id, manager);
    });
    return { run, pages: [] };
  }

  async list(organizationId: string, query: ListImportRunsQueryDto): Promise<Page<ImportRunView>> {
    const site =
      query.site !== undefined
        ? { id: query.site, spaceIds: await this.siteStructure.spaceIdsOfSite(query.site) }
        : undefined;
    const page = await this.runs.page(
      organizationId,
      {
        space: query.space,
        changeRequest: query.changeRequest,
        site,
        status: query.status,
        staleBefore: this.staleBefore(),
      },
      query,
    );
    const pages = await this.runs.pagesOf(page.items.map((run) => run.id));
    return { ...page, items: page.items.map((run) => ({ run, pages: pages.get(run.id) ?? [] })) };
  }

  async get(organizationId: string, id: string): Promise<ImportRunView> {
    const run = await this.runs.find(organizationId, id);
    if (!run) throw importRunNotFound();
    const pages = await this.runs.pagesOf([run.id]);
    return { run, pages: pages.get(run.id) ?? [] };
  }

  /**
   * Cancels a pending or running run (its signal aborts; nothing is written): by who started
   * it, or by a member with the edit role on its space (403 otherwise); 400 once it ended.
   */
  async cancel(organizationId: string, userId: string, id: string): Promise<ImportRunView> {
    const run = await this.runs.find(organizationId, id);
    if (!run) throw importRunNotFound();
    if (run.createdBy !== userId) await this.editableSpace(organizationId, userId, run.spaceId);
    const cancelled = await this.dataSource.transaction(async (manager) => {
      const now = this.clock.now();
      const moved = await this.runs.transition(
        id,
        ['pending', 'in-progress'],
        { status: 'cancelled', updatedAt: now, completedAt: null },
        manager,
      );
      if (moved) await this.runner.recordFinished(manager, run, 'cancelled', {}, userId);
      return moved;
    });
    if (!cancelled) {
      const current = (await this.runs.find(organizationId, id))!;
      throw new DomainError(
        'bad_request',
        'ImportRunFinished',
        `The import run is ${current.status}: only a pending or in-progress run can be cancelled.`,
      );
    }
    this.runner.abort(id);
    return this.get(organizationId, id);
  }

  private sourceOf(body: StartImportRunDto): ImportSource {
    if (body.source.type === 'file')
      return { type: 'file', files: [...new Set(body.source.files!)] };
    const url = body.source.url!;
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw invalidInput('source.url: an absolute http(s) URL is expected.');
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      throw invalidInput('source.url: an absolute http(s) URL is expected.');
    }
    if (parsed.username || parsed.password) {
      throw invalidInput('source.url: a URL without credentials is expected.');
    }
    return { type: 'website', url: parsed.href };
  }

  /** The caller's access to a space of the organization it may import into. */
  private async editableSpace(
    organizationId: string,
    userId: string,
    spaceId: string,
  ): Promise<SpaceAccess> {
    const access = (await this.policy.resolveOutsideRequest(userId, 'space', spaceId, {
      spaceId,
    })) as SpaceAccess | null;
    if (!access || access.organizationId !== organizationId) throw notFound('Space');
    const refusal = this.policy.decide('space', IMPORT_SPACE_ROLE, access, {
      userId,
      params: { spaceId },
    });
    if (refusal) throw refusal;
    assertSpaceEditable(access.entity);
    return access;
  }

  /** The request's site (400 unless the caller sees it here), else the one showing the space. */
  private async siteOf(
    organizationId: string,
    userId: string,
    spaceId: string,
    requested: string | undefined,
  ): Promise<string | null> {
    if (requested !== undefined) {
      const site = await this.policy.resolveOutsideRequest(userId, 'site', requested, {
        organizationId,
        siteId: requested,
      });
      if (!site || site.organizationId !== organizationId) {
        throw invalidInput(`site: no site ${requested} in this organization.`);
      }
      return requested;
    }
    const sites = await this.siteStructure.siteIdsOfSpace(spaceId);
    return sites.length === 1 ? sites[0] : null;
  }
}
