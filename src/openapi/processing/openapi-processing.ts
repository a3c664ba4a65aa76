import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { Clock } from '../../platform/clock/clock';
import { AppConfig } from '../../platform/config/app-config';
import { newId } from '../../platform/ids/ids';
import { JobsService } from '../../platform/jobs/jobs.service';
import { OpenAPISpec } from '../entities/openapi-spec.entity';
import { OpenAPISpecVersion } from '../entities/openapi-spec-version.entity';
import { type LoadedSpec, OpenAPILoader } from './openapi-loader';
import { ProcessingFailure } from './openapi-problems';

/** The queue of processings, one job per specification to read (`{specId}`). */
export const OPENAPI_PROCESS_QUEUE = 'openapi-process';

/** The queue of the refresh round: finds what is due and queues its processing. */
export const OPENAPI_REFRESH_QUEUE = 'openapi-refresh';

/** Every minute: each specification is due OPENAPI_REFRESH_MINUTES after its last processing. */
export const OPENAPI_REFRESH_CRON = '* * * * *';

/**
 * A processing asked for this long ago and not complete was lost (its job failed for good, or
 * was never queued): the refresh round asks again. Far above the longest possible processing.
 */
export const OPENAPI_STUCK_AFTER_MS = 60 * 60 * 1000;

/** Specifications picked per query of a refresh round, and queries per round. */
const REFRESH_BATCH = 100;
const REFRESH_BATCHES_PER_ROUND = 10;

export interface ProcessJob {
  specId: string;
}

/**
 * Processing of specifications in the background: `pending` (asked for) → `progress` (being
 * read) → `complete`, with a new version when the content changed, or the problems found (the
 * previous version stays the latest). Idempotent: a job reads the spec's current source, and
 * records nothing when the source changed meanwhile (a later job reads the new one).
 */
@Injectable()
export class OpenAPIProcessing implements OnModuleInit {
  private readonly logger = new Logger('OpenAPIProcessing');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly jobs: JobsService,
    private readonly loader: OpenAPILoader,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.jobs.define<ProcessJob>(OPENAPI_PROCESS_QUEUE, ({ specId }) => this.process(specId));
    this.jobs.define(
      OPENAPI_REFRESH_QUEUE,
      async () => {
        await this.refresh();
      },
      { policy: 'singleton' },
    );
    this.jobs.schedule(OPENAPI_REFRESH_QUEUE, OPENAPI_REFRESH_CRON);
  }

  /**
   * Queues the processing of a specification whose row says `pending`. A failure to queue is
   * logged, not thrown: the row is written, and the refresh round asks again later.
   */
  async enqueue(specId: string): Promise<void> {
    try {
      await this.jobs.send<ProcessJob>(OPENAPI_PROCESS_QUEUE, { specId });
    } catch (error) {
      this.logger.error({ err: error, specId }, 'Could not queue an OpenAPI processing');
    }
  }

  async process(specId: string): Promise<void> {
    const spec = await this.dataSource
      .getRepository(OpenAPISpec)
      .createQueryBuilder('spec')
      .addSelect('spec.sourceText')
      .where('spec.id = :specId', { specId })
      .getOne();
    if (!spec) return;
    const revision = spec.sourceRevision;
    await this.dataSource.query(
      `UPDATE openapi_specs SET processing_state = 'progress'
        WHERE id = $1 AND source_revision = $2`,
      [specId, revision],
    );
    let outcome: LoadedSpec | ProcessingFailure;
    try {
      outcome = await this.loader.load(
        spec.sourceUrl !== null ? { url: spec.sourceUrl } : { text: spec.sourceText ?? '' },
      );
    } catch (error) {
      if (!(error instanceof ProcessingFailure)) throw error;
      outcome = error;
    }
    await this.record(specId, revision, outcome);
  }

  /** Writes the outcome, unless the spec is gone or its source changed since `revision`. */
  private async record(
    specId: string,
    revision: number,
    outcome: LoadedSpec | ProcessingFailure,
  ): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const rows: { organization_id: string; source_revision: number; content_hash: string }[] =
        await manager.query(
          `SELECT s.organization_id, s.source_revision, v.content_hash
             FROM openapi_specs s LEFT JOIN openapi_spec_versions v ON v.id = s.last_version_id
            WHERE s.id = $1
              FOR UPDATE OF s`,
          [specId],
        );
      if (rows.length === 0 || rows[0].source_revision !== revision) return;
      const now = this.clock.now();
      if (outcome instanceof ProcessingFailure) {
        await manager.update(OpenAPISpec, specId, {
          processingState: 'complete',
          lastProcessedAt: now,
          lastProcessErrorCode: outcome.errorCode,
          lastProcessedErrors: outcome.problems.map(({ message, code }) => ({ message, code })),
        });
        return;
      }
      const changed = rows[0].content_hash !== outcome.hash;
      const update: Partial<OpenAPISpec> = {
        processingState: 'complete',
        lastProcessedAt: now,
        lastProcessErrorCode: null,
        lastProcessedErrors: null,
      };
      if (changed) {
        const version: OpenAPISpecVersion = {
          id: newId(),
          specId,
          organizationId: rows[0].organization_id,
          contentHash: outcome.hash,
          sourceUrl: outcome.sourceUrl,
          rootPath: outcome.rootPath,
          filesystem: outcome.filesystem,
          createdAt: now,
        };
        await manager.insert(
          OpenAPISpecVersion,
          version as QueryDeepPartialEntity<OpenAPISpecVersion>,
        );
        Object.assign(update, { lastVersionId: version.id, updatedAt: now });
      }
      await manager.update(OpenAPISpec, specId, update);
    });
  }

  /**
   * One refresh round: specifications given by URL whose last processing is older than
   * OPENAPI_REFRESH_MINUTES, and processings lost on the way, go back to `pending` and are queued.
   */
  async refresh(): Promise<number> {
    const now = this.clock.now();
    const ids: string[] = [];
    const minutes = this.config.OPENAPI_REFRESH_MINUTES;
    if (minutes > 0) {
      const due = new Date(now.getTime() - minutes * 60_000);
      ids.push(
        ...(await this.pick(
          `source_url IS NOT NULL AND processing_state = 'complete' AND last_processed_at <= $2`,
          'last_processed_at',
          now,
          due,
        )),
      );
    }
    const lost = new Date(now.getTime() - OPENAPI_STUCK_AFTER_MS);
    ids.push(
      ...(await this.pick(
        `processing_state <> 'complete' AND queued_at <= $2`,
        'queued_at',
        now,
        lost,
      )),
    );
    for (const id of ids) await this.enqueue(id);
    if (ids.length > 0) this.logger.log({ specs: ids.length }, 'Refreshing OpenAPI specifications');
    return ids.length;
  }

  /** Marks the specs matching `where` (ordered by `order`, in batches) pending, and answers them. */
  private async pick(where: string, order: string, now: Date, cutoff: Date): Promise<string[]> {
    const ids: string[] = [];
    for (let batch = 0; batch < REFRESH_BATCHES_PER_ROUND; batch++) {
      const rows: { id: string }[] = await this.dataSource.query(
        `WITH picked AS (
           UPDATE openapi_specs SET processing_state = 'pending', queued_at = $1
            WHERE id IN (SELECT id FROM openapi_specs WHERE ${where}
                          ORDER BY ${order} LIMIT $3 FOR UPDATE SKIP LOCKED)
            RETURNING id
         )
         SELECT id FROM picked`,
        [now, cutoff, REFRESH_BATCH],
      );
      ids.push(...rows.map((row) => row.id));
      if (rows.length < REFRESH_BATCH) break;
    }
    return ids;
  }
}
