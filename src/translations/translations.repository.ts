import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { paginate } from '../platform/pagination/keyset';
import type { Page } from '../platform/pagination/page';
import type { PageQueryDto } from '../platform/pagination/page-query.dto';
import { Translation, type TranslationRunErrorDetail } from './entities/translation.entity';
import { TranslationPage } from './entities/translation-page.entity';

/** What recording a run's result needs of the translation, read under its lock. */
export interface TranslationRunStateRow {
  result_space_id: string | null;
  rerun_requested: boolean;
  run_by: string | null;
}

/** What a successful run counted, for the translation's statistics. */
export interface TranslationRunStats {
  /** The result space's primary revision after the run (unchanged when nothing changed). */
  resultRevisionId: string;
  /** Pages made again by this run. */
  pages: number;
  words: number;
  /** Segments of those pages, and how many of them were reused rather than sent. */
  segments: number;
  cachedSegments: number;
  /** Characters sent to the provider. */
  characters: number;
  durationMs: number;
  /** Segments left untranslated (recorded as the run's error), or null. */
  untranslated: TranslationRunErrorDetail[] | null;
  now: Date;
}

/** A space's title, parent and trash mark, as a run names its result space. */
export interface SpaceTitleRow {
  title: string;
  parent_id: string | null;
  deleted_at: Date | null;
}

/** The tree of a space's primary revision, and the space's trash mark. */
export interface SpacePrimaryTreeRow {
  tree: string;
  deleted_at: Date | null;
}

/**
 * The `translations` and `translation_pages` tables: translations with their run state and
 * statistics, and the pages their last run translated. Also the few reads of other modules'
 * tables that runs need and no public method of their owner answers (each says why).
 */
@Injectable()
export class TranslationsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** A page of the organization's translations, oldest first. */
  page(
    organizationId: string,
    query: PageQueryDto,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Page<Translation>> {
    const builder = manager
      .getRepository(Translation)
      .createQueryBuilder('translation')
      .where('translation.organization_id = :organizationId', { organizationId });
    return paginate(builder, query, {
      keys: [
        { sql: 'translation.created_at', of: (translation) => translation.createdAt },
        { sql: 'translation.id', of: (translation) => translation.id },
      ],
      direction: 'ASC',
    });
  }

  /**
   * The spaces translated from or into `spaceId`, itself included when it has translations:
   * the sources of the translations it is a result of or a source of, and all their result
   * spaces (none not yet made), by id.
   */
  async relatedSpaceIds(
    spaceId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<string[]> {
    const rows: { space_id: string }[] = await manager.query(
      `WITH sources AS (
         SELECT source_space_id AS id FROM translations
          WHERE source_space_id = $1 OR result_space_id = $1
       )
       SELECT source_space_id AS space_id FROM translations
        WHERE source_space_id IN (SELECT id FROM sources)
       UNION
       SELECT result_space_id FROM translations
        WHERE source_space_id IN (SELECT id FROM sources) AND result_space_id IS NOT NULL
       ORDER BY space_id`,
      [spaceId],
    );
    return rows.map((row) => row.space_id);
  }

  /**
   * Marks the translation `running` (started at `now`, no rerun asked for) if it is `pending`,
   * or `running` since before `stuckBefore`; answers whether it did.
   */
  async claimRun(
    translationId: string,
    now: Date,
    stuckBefore: Date,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<boolean> {
    const rows: { id: string }[] = await manager.query(
      // In a CTE: TypeORM answers a bare UPDATE ... RETURNING as [rows, count].
      `WITH claimed AS (
         UPDATE translations SET status = 'running', started_at = $2, rerun_requested = false
          WHERE id = $1
            AND (status = 'pending' OR (status = 'running' AND started_at < $3))
          RETURNING id
       )
       SELECT id FROM claimed`,
      [translationId, now, stuckBefore],
    );
    return rows.length > 0;
  }

  /** Locks the translation and reads its result space, rerun flag and runner; null if gone. */
  async lockRunState(
    translationId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<TranslationRunStateRow | null> {
    const rows: TranslationRunStateRow[] = await manager.query(
      'SELECT result_space_id, rerun_requested, run_by FROM translations WHERE id = $1 FOR UPDATE',
      [translationId],
    );
    return rows[0] ?? null;
  }

  /**
   * Records a successful run: `completed` (or `pending` again when a rerun was asked for), the
   * result revision, and the run's statistics added to the totals. Segments left untranslated
   * are the run's error (the result is written all the same); else there is none.
   */
  async recordRunSuccess(
    translationId: string,
    stats: TranslationRunStats,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    const message = stats.untranslated
      ? `${stats.untranslated.length} segment(s) stay in the source language: the provider ` +
        'dropped or broke their placeholders twice (see details).'
      : null;
    await manager.query(
      `UPDATE translations
          SET status = CASE WHEN rerun_requested THEN 'pending' ELSE 'completed' END,
              result_revision_id = $2,
              last_error = $8, last_error_at = CASE WHEN $8::text IS NULL THEN NULL ELSE $7::timestamptz END,
              last_error_details = $9::jsonb,
              runs = runs + 1,
              latest_pages = $3, total_pages = total_pages + $3,
              latest_words = $4, total_words = total_words + $4,
              latest_run_duration_ms = $5, total_duration_ms = total_duration_ms + $5,
              latest_run_duration = CEIL($5 / 1000.0),
              total_duration = CEIL((total_duration_ms + $5) / 1000.0),
              latest_segments = $6, total_segments = total_segments + $6,
              latest_cached_segments = $10,
              latest_characters = $11, total_characters = total_characters + $11,
              updated_at = $7::timestamptz
        WHERE id = $1`,
      [
        translationId,
        stats.resultRevisionId,
        stats.pages,
        stats.words,
        stats.durationMs,
        stats.segments,
        stats.now,
        message,
        stats.untranslated ? JSON.stringify(stats.untranslated) : null,
        stats.cachedSegments,
        stats.characters,
      ],
    );
  }

  /**
   * Records a failed run's error (at `now`): `completed`, or `pending` again when a rerun was
   * asked for. Answers whether one was; null when the translation is gone.
   */
  async recordRunFailure(
    translationId: string,
    message: string,
    now: Date,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<boolean | null> {
    const rows: { rerun: boolean }[] = await manager.query(
      `WITH failed AS (
         UPDATE translations
            SET status = CASE WHEN rerun_requested THEN 'pending' ELSE 'completed' END,
                last_error = $2, last_error_at = $3, last_error_details = NULL, updated_at = $3
          WHERE id = $1
          RETURNING rerun_requested
       )
       SELECT rerun_requested AS rerun FROM failed`,
      [translationId, message, now],
    );
    return rows[0]?.rerun ?? null;
  }

  /** Inserts a page's translation, or replaces the one stored for that page. */
  async upsertPage(
    page: TranslationPage,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager
      .createQueryBuilder()
      .insert()
      .into(TranslationPage)
      .values(page as QueryDeepPartialEntity<TranslationPage>)
      .orUpdate(
        ['source_hash', 'title', 'description', 'document', 'words', 'segments'],
        ['translation_id', 'page_id'],
      )
      .execute();
  }

  /** Deletes the translation's pages other than `keptPageIds` (pages gone from the source). */
  async deletePagesExcept(
    translationId: string,
    keptPageIds: string[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.query(
      'DELETE FROM translation_pages WHERE translation_id = $1 AND NOT (page_id = ANY($2))',
      [translationId, keptPageIds],
    );
  }

  /** The space's title, parent and trash mark; null when there is no such space. */
  async findSpaceTitle(
    spaceId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<SpaceTitleRow | null> {
    // Reads spaces, owned by spaces: no public method reads a space by id for no user, on the
    // caller's transaction.
    const rows: SpaceTitleRow[] = await manager.query(
      'SELECT title, parent_id, deleted_at FROM spaces WHERE id = $1',
      [spaceId],
    );
    return rows[0] ?? null;
  }

  /** The tree of the space's primary revision, and its trash mark; null when there is no such space. */
  async findSpacePrimaryTree(
    spaceId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<SpacePrimaryTreeRow | null> {
    // Reads spaces and revisions, owned by spaces and content-engine: no public method reads a
    // space by id for no user, and one query reads its primary's tree with it (ContentReader's
    // readRevision would need the revision id first, and read the tree's root besides).
    const rows: SpacePrimaryTreeRow[] = await manager.query(
      `SELECT r.tree, s.deleted_at FROM spaces s JOIN revisions r ON r.id = s.revision_id
        WHERE s.id = $1`,
      [spaceId],
    );
    return rows[0] ?? null;
  }

  /** The organization's agent instructions document; null when never written. */
  async findAgentInstructions(
    organizationId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<{ nodes?: unknown[] } | null> {
    // Reads agent_instructions, owned by orgs: AgentInstructionsService is not exported and its
    // `get` takes the organization entity, which a run does not load; one query reads the document.
    const rows: { instructions: { nodes?: unknown[] } }[] = await manager.query(
      'SELECT instructions FROM agent_instructions WHERE organization_id = $1',
      [organizationId],
    );
    return rows[0]?.instructions ?? null;
  }
}
