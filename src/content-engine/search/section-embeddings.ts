import { Injectable, Logger, OnApplicationBootstrap, OnModuleInit, Optional } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Embeddings, EMBEDDING_BATCH } from '../../platform/ai/embeddings';
import { AppConfig } from '../../platform/config/app-config';
import { foregroundIdle } from '../../platform/http/foreground-requests';
import { JobsService } from '../../platform/jobs/jobs.service';
import { PrimaryMovedListeners } from '../writes/primary-moved-listeners';
import { EMBEDDED_TEXT_CHARS, SectionEmbeddingsRepository } from './section-embeddings.repository';

/** The queue of spaces whose sections to embed. */
export const SECTION_EMBEDDINGS_QUEUE = 'section-embeddings';
/** The queue of the sweep that finds spaces with sections never embedded by the model. */
export const SECTION_EMBEDDINGS_SWEEP_QUEUE = 'section-embeddings-sweep';
/** The longest a step waits for the requests in flight to be answered before it runs. */
const GIVE_WAY_MS = 50;

/**
 * Embeddings of the search index's sections (`section_embeddings`), kept by AI_EMBEDDING_MODEL
 * when it is set, for answers that find pages by meaning as well as by words. They follow the
 * index: when a space's primary moves (or a bulk move's index catch-up ends) a job embeds
 * that space's sections whose text changed since they were embedded, and only those, in
 * requests of EMBEDDING_BATCH sections that give way to the requests in flight; an hourly
 * sweep (and one at start) queues spaces with sections the model never embedded.
 * Vectors are compared with pgvector; a PostgreSQL server without it answers from full-text
 * search alone, which the start says once.
 */
@Injectable()
export class SectionEmbeddings implements OnModuleInit, OnApplicationBootstrap {
  private readonly logger = new Logger('SectionEmbeddings');
  private support: Promise<boolean> | undefined;

  constructor(
    private readonly sections: SectionEmbeddingsRepository,
    private readonly jobs: JobsService,
    private readonly embeddings: Embeddings,
    private readonly config: AppConfig,
    @Optional() private readonly listeners?: PrimaryMovedListeners,
  ) {}

  /** Whether sections are embedded at all (AI_API_URL and AI_EMBEDDING_MODEL set). */
  get enabled(): boolean {
    return this.embeddings.configured;
  }

  /** The model that embeds sections (and questions, to compare with them). */
  get model(): string | undefined {
    return this.embeddings.model;
  }

  onModuleInit(): void {
    if (!this.enabled) return;
    this.jobs.define<{ spaceId: string }>(
      SECTION_EMBEDDINGS_QUEUE,
      (job) => this.embedSpace(job.spaceId),
      { policy: 'short' },
    );
    this.jobs.define(SECTION_EMBEDDINGS_SWEEP_QUEUE, () => this.sweep(), { policy: 'short' });
    this.jobs.schedule(SECTION_EMBEDDINGS_SWEEP_QUEUE, '17 * * * *');
    this.listeners?.register(async (event) => {
      // A bulk move's index follows it in steps: the catch-up queues the embeddings at its end.
      if (!event.bulk) await this.queue(event.spaceId, event.manager);
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.enabled || !(await this.vectorSupport())) return;
    if (this.config.JOBS_IN_PROCESS) {
      await this.jobs.sendUnlessQueued(
        SECTION_EMBEDDINGS_SWEEP_QUEUE,
        {},
        { singletonKey: 'start' },
      );
    }
  }

  /**
   * Whether the database compares vectors: pgvector is installed, or offered and created now
   * (a server that gained it since the migrations ran). Asked once; a server without it is
   * said once, and answers use full-text search alone.
   */
  vectorSupport(): Promise<boolean> {
    this.support ??= this.findVectorSupport();
    return this.support;
  }

  /** Queues the embedding of the space's changed sections (in `manager`'s transaction). */
  async queue(spaceId: string, manager?: EntityManager): Promise<void> {
    if (!this.enabled) return;
    await this.jobs.sendUnlessQueued(
      SECTION_EMBEDDINGS_QUEUE,
      { spaceId },
      { manager, singletonKey: spaceId },
    );
  }

  /**
   * The embedding of a question (or any search text) by the sections' model, to compare with
   * theirs; null when sections are not embedded here, or the model did not answer at once (a
   * question is never held up by retries: its full-text search answers without it).
   */
  async embedQuestion(text: string): Promise<{ model: string; vector: number[] } | null> {
    const model = this.model;
    if (!model || !(await this.vectorSupport())) return null;
    try {
      const [vector] = await this.embeddings.embed([text.slice(0, EMBEDDED_TEXT_CHARS)], {
        attempts: 1,
        baseDelayMs: 0,
      });
      return { model, vector };
    } catch (error) {
      this.logger.warn(`A question could not be embedded: ${(error as Error).message}`);
      return null;
    }
  }

  /** Embeds the space's sections that changed since they were embedded; drops the gone ones. */
  async embedSpace(spaceId: string): Promise<void> {
    const model = this.model;
    if (!model || !(await this.vectorSupport())) return;
    for (;;) {
      const stale = await this.sections.staleSections(spaceId, model, EMBEDDING_BATCH);
      if (stale.length === 0) break;
      const vectors = await this.embeddings.embed(stale.map((section) => section.text));
      await this.sections.save(spaceId, model, stale, vectors);
      await foregroundIdle(GIVE_WAY_MS);
    }
    await this.sections.deleteOrphans(spaceId);
  }

  /** Queues the spaces with sections the model never embedded. */
  async sweep(): Promise<void> {
    if (!this.model || !(await this.vectorSupport())) return;
    for (const spaceId of await this.sections.unembeddedSpaces(this.model)) {
      await this.queue(spaceId);
    }
  }

  private async findVectorSupport(): Promise<boolean> {
    if (await this.sections.vectorInstalled()) return true;
    try {
      if (await this.sections.createVectorExtension()) return true;
    } catch (error) {
      this.logger.warn(`pgvector could not be created: ${(error as Error).message}`);
    }
    this.logger.warn(
      'AI_EMBEDDING_MODEL is set, but this PostgreSQL server has no pgvector extension: ' +
        'answers find pages by full-text search alone (install pgvector and restart).',
    );
    return false;
  }
}
