import { Injectable, Logger, OnApplicationBootstrap, OnModuleInit, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Embeddings, EMBEDDING_BATCH } from '../../platform/ai/embeddings';
import { AppConfig } from '../../platform/config/app-config';
import { foregroundIdle } from '../../platform/http/foreground-requests';
import { JobsService } from '../../platform/jobs/jobs.service';
import { PrimaryMovedListeners } from '../writes/primary-moved-listeners';

/** The queue of spaces whose sections to embed. */
export const SECTION_EMBEDDINGS_QUEUE = 'section-embeddings';
/** The queue of the sweep that finds spaces with sections never embedded by the model. */
export const SECTION_EMBEDDINGS_SWEEP_QUEUE = 'section-embeddings-sweep';
/** Spaces queued by one sweep. */
const SWEEP_SPACES = 50;
/** Characters of a section's text sent to the model (its page title and heading first). */
export const EMBEDDED_TEXT_CHARS = 4_000;
/** The longest a step waits for the requests in flight to be answered before it runs. */
const GIVE_WAY_MS = 50;

/** What a section's embedding is made from, and its hash (the same expression). */
const SECTION_TEXT = `s.page_title || E'\\n' || s.section_title || E'\\n' || s.body`;

/**
 * Sections of a space whose embedding is missing, by another model, or of another text: the
 * first :limit, in page order.
 */
const STALE_SQL = `
  SELECT s.page_id, s.section_id, left(${SECTION_TEXT}, ${EMBEDDED_TEXT_CHARS}) AS text,
         md5(${SECTION_TEXT}) AS hash
    FROM page_sections s
    LEFT JOIN section_embeddings e
      ON e.space_id = s.space_id AND e.page_id = s.page_id AND e.section_id = s.section_id
   WHERE s.space_id = $1
     AND (e.space_id IS NULL OR e.model <> $2 OR e.text_hash <> md5(${SECTION_TEXT}))
   ORDER BY s.page_id, s.position
   LIMIT $3`;

const UPSERT_SQL = `
  INSERT INTO section_embeddings (space_id, page_id, section_id, model, text_hash, embedding)
  SELECT $1, r.page_id, r.section_id, $2, r.hash, r.embedding::real[]
    FROM unnest($3::varchar[], $4::varchar[], $5::text[], $6::text[])
      AS r(page_id, section_id, hash, embedding)
  ON CONFLICT (space_id, page_id, section_id) DO UPDATE
    SET model = excluded.model, text_hash = excluded.text_hash, embedding = excluded.embedding`;

/** Embeddings of sections the index no longer has (pages deleted, headings renamed). */
const ORPHANS_SQL = `
  DELETE FROM section_embeddings e
   WHERE e.space_id = $1
     AND NOT EXISTS (SELECT 1 FROM page_sections s
                      WHERE s.space_id = e.space_id AND s.page_id = e.page_id
                        AND s.section_id = e.section_id)`;

/** Spaces with a section the model never embedded (a new model, or content from before it). */
const UNEMBEDDED_SPACES_SQL = `
  SELECT DISTINCT s.space_id
    FROM page_sections s
    LEFT JOIN section_embeddings e
      ON e.space_id = s.space_id AND e.page_id = s.page_id AND e.section_id = s.section_id
   WHERE e.space_id IS NULL OR e.model <> $1
   LIMIT ${SWEEP_SPACES}`;

interface StaleSection {
  page_id: string;
  section_id: string;
  text: string;
  hash: string;
}

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
    @InjectDataSource() private readonly dataSource: DataSource,
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
      const stale: StaleSection[] = await this.dataSource.query(STALE_SQL, [
        spaceId,
        model,
        EMBEDDING_BATCH,
      ]);
      if (stale.length === 0) break;
      const vectors = await this.embeddings.embed(stale.map((section) => section.text));
      await this.dataSource.query(UPSERT_SQL, [
        spaceId,
        model,
        stale.map((section) => section.page_id),
        stale.map((section) => section.section_id),
        stale.map((section) => section.hash),
        vectors.map((vector) => `{${vector.join(',')}}`),
      ]);
      await foregroundIdle(GIVE_WAY_MS);
    }
    await this.dataSource.query(ORPHANS_SQL, [spaceId]);
  }

  /** Queues the spaces with sections the model never embedded. */
  async sweep(): Promise<void> {
    if (!this.model || !(await this.vectorSupport())) return;
    const rows: { space_id: string }[] = await this.dataSource.query(UNEMBEDDED_SPACES_SQL, [
      this.model,
    ]);
    for (const { space_id } of rows) await this.queue(space_id);
  }

  private async findVectorSupport(): Promise<boolean> {
    const installed = async () =>
      (await this.dataSource.query(`SELECT 1 FROM pg_extension WHERE extname = 'vector'`)).length >
      0;
    if (await installed()) return true;
    try {
      const offered: unknown[] = await this.dataSource.query(
        `SELECT 1 FROM pg_available_extensions WHERE name = 'vector'`,
      );
      if (offered.length > 0) await this.dataSource.query('CREATE EXTENSION IF NOT EXISTS vector');
    } catch (error) {
      this.logger.warn(`pgvector could not be created: ${(error as Error).message}`);
    }
    if (await installed()) return true;
    this.logger.warn(
      'AI_EMBEDDING_MODEL is set, but this PostgreSQL server has no pgvector extension: ' +
        'answers find pages by full-text search alone (install pgvector and restart).',
    );
    return false;
  }
}
