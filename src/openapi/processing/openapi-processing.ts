import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { EventOutbox } from '../../platform/events/event-outbox';
import { OpenAPIPresenter } from '../openapi.presenter';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { Clock } from '../../platform/clock/clock';
import { AppConfig } from '../../platform/config/app-config';
import { newId } from '../../platform/ids/ids';
import { JobsService } from '../../platform/jobs/jobs.service';
import { OpenAPISpec } from '../entities/openapi-spec.entity';
import { OpenAPISpecVersion } from '../entities/openapi-spec-version.entity';
import { OpenAPISpecsRepository, type OpenAPISpecOutcomeRow } from '../openapi-specs.repository';
import { ApiReferenceRegeneration } from './api-reference-regeneration';
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
 * read) → `complete`, with a new version when the content changed (and the regeneration of the
 * API-reference pages computed from the spec queued), or the problems found (the previous
 * version stays the latest). Idempotent: a job reads the spec's current source, and
 * records nothing when the source changed meanwhile (a later job reads the new one).
 */
@Injectable()
export class OpenAPIProcessing implements OnModuleInit {
  private readonly logger = new Logger('OpenAPIProcessing');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly specs: OpenAPISpecsRepository,
    private readonly jobs: JobsService,
    private readonly loader: OpenAPILoader,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly outbox: EventOutbox,
    private readonly presenter: OpenAPIPresenter,
    private readonly apiReference: ApiReferenceRegeneration,
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

  /** Loads the spec, marks it `progress`, reads its source, and records what came of it. */
  async process(specId: string): Promise<void> {
    const spec = await this.specs.findWithSource(specId);
    if (!spec) return;
    await this.specs.markInProgress(specId, spec.sourceRevision);
    const outcome = await this.readSource(spec);
    await this.record(specId, spec.sourceRevision, outcome);
  }

  /** The spec's source read and checked, or the problems found in it. */
  private async readSource(spec: OpenAPISpec): Promise<LoadedSpec | ProcessingFailure> {
    try {
      return await this.loader.load(
        spec.sourceUrl !== null ? { url: spec.sourceUrl } : { text: spec.sourceText ?? '' },
      );
    } catch (error) {
      if (!(error instanceof ProcessingFailure)) throw error;
      return error;
    }
  }

  /** Writes the outcome, unless the spec is gone or its source changed since `revision`. */
  private async record(
    specId: string,
    revision: number,
    outcome: LoadedSpec | ProcessingFailure,
  ): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const current = await this.specs.lockForOutcome(specId, manager);
      if (current === null || current.source_revision !== revision) return;
      if (outcome instanceof ProcessingFailure) {
        await this.recordProblems(manager, specId, outcome);
      } else {
        await this.recordLoaded(manager, specId, current, outcome);
      }
    });
  }

  /** Completes the processing with the problems found; the latest version stays. */
  private async recordProblems(
    manager: EntityManager,
    specId: string,
    failure: ProcessingFailure,
  ): Promise<void> {
    await manager.update(OpenAPISpec, specId, {
      processingState: 'complete',
      lastProcessedAt: this.clock.now(),
      lastProcessErrorCode: failure.errorCode,
      lastProcessedErrors: failure.problems.map(({ message, code }) => ({ message, code })),
    });
  }

  /** Completes the processing, with a new version when the content differs from the latest. */
  private async recordLoaded(
    manager: EntityManager,
    specId: string,
    current: OpenAPISpecOutcomeRow,
    loaded: LoadedSpec,
  ): Promise<void> {
    const now = this.clock.now();
    const update: Partial<OpenAPISpec> = {
      processingState: 'complete',
      lastProcessedAt: now,
      lastProcessErrorCode: null,
      lastProcessedErrors: null,
    };
    if (current.content_hash !== loaded.hash) {
      const version: OpenAPISpecVersion = {
        id: newId(),
        specId,
        organizationId: current.organization_id,
        contentHash: loaded.hash,
        sourceUrl: loaded.sourceUrl,
        rootPath: loaded.rootPath,
        filesystem: loaded.filesystem,
        rawText: loaded.raw.text,
        rawFormat: loaded.raw.format,
        createdAt: now,
      };
      await manager.insert(
        OpenAPISpecVersion,
        version as QueryDeepPartialEntity<OpenAPISpecVersion>,
      );
      Object.assign(update, { lastVersionId: version.id, updatedAt: now });
      await manager.update(OpenAPISpec, specId, update);
      const spec = await manager.findOneByOrFail(OpenAPISpec, { id: specId });
      await this.outbox.record(manager, {
        type: 'openapi_spec_version_created',
        organizationId: spec.organizationId,
        resource: { type: 'openapiSpec', id: spec.id },
        actor: { kind: 'system' },
        fields: {
          specId: spec.id,
          specSlug: spec.slug,
          version: this.presenter.version(spec, version),
          spec: this.presenter.spec(spec, 'admin'),
        },
      });
      // The pages computed from the spec follow it, once this version is committed.
      await this.apiReference.enqueue(manager, spec.id);
      return;
    }
    await manager.update(OpenAPISpec, specId, update);
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
      ids.push(...(await this.pick((limit) => this.specs.requeueDueForRefresh(now, due, limit))));
    }
    const lost = new Date(now.getTime() - OPENAPI_STUCK_AFTER_MS);
    ids.push(...(await this.pick((limit) => this.specs.requeueLost(now, lost, limit))));
    for (const id of ids) await this.enqueue(id);
    if (ids.length > 0) this.logger.log({ specs: ids.length }, 'Refreshing OpenAPI specifications');
    return ids.length;
  }

  /** Runs `requeue` in batches (until one comes back short), and answers every id it marked. */
  private async pick(requeue: (limit: number) => Promise<string[]>): Promise<string[]> {
    const ids: string[] = [];
    for (let batch = 0; batch < REFRESH_BATCHES_PER_ROUND; batch++) {
      const picked = await requeue(REFRESH_BATCH);
      ids.push(...picked);
      if (picked.length < REFRESH_BATCH) break;
    }
    return ids;
  }
}
