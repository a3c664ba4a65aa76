import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { paginate } from '../platform/pagination/keyset';
import type { Page } from '../platform/pagination/page';
import type { PageQueryDto } from '../platform/pagination/page-query.dto';
import { OpenAPISpec } from './entities/openapi-spec.entity';
import { OpenAPISpecSpace } from './entities/openapi-spec-space.entity';
import { OpenAPISpecVersion } from './entities/openapi-spec-version.entity';
import type { StoredSpec } from './processing/openapi-content';

/** A specification's id and latest version, as other modules look it up. */
export interface OpenAPISpecHeadRow {
  id: string;
  last_version_id: string | null;
}

/** What recording a processing's outcome needs of the specification, read under its lock. */
export interface OpenAPISpecOutcomeRow {
  organization_id: string;
  source_revision: number;
  /** The content hash of the latest version; null without one. */
  content_hash: string | null;
}

/**
 * The `openapi_specs`, `openapi_spec_versions` and `openapi_spec_spaces` tables:
 * specifications, their processing state, the immutable versions their processing made, and
 * the spaces with pages computed from them.
 */
@Injectable()
export class OpenAPISpecsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** A page of the organization's specifications, oldest first. */
  page(
    organizationId: string,
    query: PageQueryDto,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Page<OpenAPISpec>> {
    const builder = manager
      .getRepository(OpenAPISpec)
      .createQueryBuilder('spec')
      .where('spec.organization_id = :organizationId', { organizationId });
    return paginate(builder, query, {
      keys: [
        { sql: 'spec.created_at', of: (spec) => spec.createdAt },
        { sql: 'spec.id', of: (spec) => spec.id },
      ],
      direction: 'ASC',
    });
  }

  /** Inserts the specification unless its slug is taken in the organization; answers whether it did. */
  async insertUnlessSlugTaken(
    spec: OpenAPISpec,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<boolean> {
    const result = await manager
      .createQueryBuilder()
      .insert()
      .into(OpenAPISpec)
      .values(spec)
      .orIgnore()
      .returning(['id'])
      .execute();
    return (result.raw as unknown[]).length > 0;
  }

  /** The specification with its source text (a column not read by default); null if gone. */
  findWithSource(
    specId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<OpenAPISpec | null> {
    return manager
      .getRepository(OpenAPISpec)
      .createQueryBuilder('spec')
      .addSelect('spec.sourceText')
      .where('spec.id = :specId', { specId })
      .getOne();
  }

  /** Marks the specification `progress`, unless its source changed since `revision`. */
  async markInProgress(
    specId: string,
    revision: number,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.query(
      `UPDATE openapi_specs SET processing_state = 'progress'
        WHERE id = $1 AND source_revision = $2`,
      [specId, revision],
    );
  }

  /** Locks the specification and reads its source revision and latest content hash; null if gone. */
  async lockForOutcome(
    specId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<OpenAPISpecOutcomeRow | null> {
    const rows: OpenAPISpecOutcomeRow[] = await manager.query(
      `SELECT s.organization_id, s.source_revision, v.content_hash
         FROM openapi_specs s LEFT JOIN openapi_spec_versions v ON v.id = s.last_version_id
        WHERE s.id = $1
          FOR UPDATE OF s`,
      [specId],
    );
    return rows[0] ?? null;
  }

  /**
   * Marks `pending` (queued at `now`) up to `limit` specifications given by URL whose last
   * processing ended at or before `due`, longest ago first, skipping locked ones; answers their ids.
   */
  requeueDueForRefresh(
    now: Date,
    due: Date,
    limit: number,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<string[]> {
    return this.requeue(
      `source_url IS NOT NULL AND processing_state = 'complete' AND last_processed_at <= $2`,
      'last_processed_at',
      now,
      due,
      limit,
      manager,
    );
  }

  /**
   * Marks `pending` again (queued at `now`) up to `limit` specifications whose processing was
   * asked for at or before `lost` and is not complete, oldest first; answers their ids.
   */
  requeueLost(
    now: Date,
    lost: Date,
    limit: number,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<string[]> {
    return this.requeue(
      `processing_state <> 'complete' AND queued_at <= $2`,
      'queued_at',
      now,
      lost,
      limit,
      manager,
    );
  }

  /** A page of the specification's versions, newest first. */
  pageVersions(
    specId: string,
    query: PageQueryDto,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Page<OpenAPISpecVersion>> {
    const builder = manager
      .getRepository(OpenAPISpecVersion)
      .createQueryBuilder('version')
      .where('version.spec_id = :specId', { specId });
    return paginate(builder, query, {
      keys: [
        { sql: 'version.created_at', of: (version) => version.createdAt },
        { sql: 'version.id', of: (version) => version.id },
      ],
      direction: 'DESC',
    });
  }

  /** The specification's version `versionId`, with its documents when `withContent`; null if none. */
  findVersion(
    specId: string,
    versionId: string,
    withContent: boolean,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<OpenAPISpecVersion | null> {
    const builder = manager
      .getRepository(OpenAPISpecVersion)
      .createQueryBuilder('version')
      .where('version.id = :id AND version.spec_id = :specId', { id: versionId, specId });
    if (withContent) builder.addSelect('version.filesystem');
    return builder.getOne();
  }

  /**
   * The raw source of the version (its root document's text as given, and its format), null
   * when it has none (a version made before raw sources were kept); undefined without such a
   * version.
   */
  async findVersionRawSource(
    specId: string,
    versionId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<{ text: string; format: 'json' | 'yaml' } | null | undefined> {
    const rows: { raw_text: string | null; raw_format: 'json' | 'yaml' | null }[] =
      await manager.query(
        'SELECT raw_text, raw_format FROM openapi_spec_versions WHERE id = $1 AND spec_id = $2',
        [versionId, specId],
      );
    if (rows.length === 0) return undefined;
    const [row] = rows;
    return row.raw_text !== null && row.raw_format !== null
      ? { text: row.raw_text, format: row.raw_format }
      : null;
  }

  /**
   * The organization's specification known by `specIdOrSlug` (an id first, else a slug), with
   * its latest version id; null when there is none.
   */
  async findHeadByIdOrSlug(
    organizationId: string,
    specIdOrSlug: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<OpenAPISpecHeadRow | null> {
    const rows: OpenAPISpecHeadRow[] = await manager.query(
      `SELECT id, last_version_id FROM openapi_specs
        WHERE organization_id = $1 AND (id = $2 OR slug = $2)
        ORDER BY (id = $2) DESC LIMIT 1`,
      [organizationId, specIdOrSlug],
    );
    return rows[0] ?? null;
  }

  /** The latest version id of the organization's `public` specification `slug`; null if none. */
  async findPublicLatestVersionId(
    organizationId: string,
    slug: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<string | null> {
    const rows: { last_version_id: string | null }[] = await manager.query(
      `SELECT last_version_id FROM openapi_specs
        WHERE organization_id = $1 AND slug = $2 AND visibility = 'public'`,
      [organizationId, slug],
    );
    return rows[0]?.last_version_id ?? null;
  }

  /** What it takes to read the version's documents again; null when it is gone. */
  findStoredVersion(
    versionId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<StoredSpec | null> {
    return manager
      .getRepository(OpenAPISpecVersion)
      .createQueryBuilder('version')
      .select(['version.rootPath', 'version.sourceUrl', 'version.filesystem'])
      .where('version.id = :versionId', { versionId })
      .getOne() as Promise<StoredSpec | null>;
  }

  /** Marks `pending` the specifications matching `where` (ordered by `order`); answers their ids. */
  private async requeue(
    where: string,
    order: string,
    now: Date,
    cutoff: Date,
    limit: number,
    manager: EntityManager,
  ): Promise<string[]> {
    const rows: { id: string }[] = await manager.query(
      `WITH picked AS (
         UPDATE openapi_specs SET processing_state = 'pending', queued_at = $1
          WHERE id IN (SELECT id FROM openapi_specs WHERE ${where}
                        ORDER BY ${order} LIMIT $3 FOR UPDATE SKIP LOCKED)
          RETURNING id
       )
       SELECT id FROM picked`,
      [now, cutoff, limit],
    );
    return rows.map((row) => row.id);
  }

  /** Records that `spaceId` has pages computed from `specId` (once). */
  async linkSpace(
    specId: string,
    spaceId: string,
    at: Date,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager
      .createQueryBuilder()
      .insert()
      .into(OpenAPISpecSpace)
      .values({ specId, spaceId, createdAt: at })
      .orIgnore()
      .execute();
  }

  /** The spaces with pages computed from `specId`, oldest link first. */
  async linkedSpaceIds(
    specId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<string[]> {
    const rows = await manager
      .getRepository(OpenAPISpecSpace)
      .find({ where: { specId }, order: { createdAt: 'ASC', spaceId: 'ASC' } });
    return rows.map((row) => row.spaceId);
  }

  async unlinkSpace(
    specId: string,
    spaceId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.getRepository(OpenAPISpecSpace).delete({ specId, spaceId });
  }
}
