import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import stringify from 'json-stable-stringify';
import { performance } from 'node:perf_hooks';
import { DataSource, EntityManager } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { ContentEngine } from '../../content-engine/content-engine';
import type { JSONDocument } from '../../content-engine/documents/document';
import { commit } from '../../content-engine/tree/commit';
import { flatten } from '../../content-engine/tree/read';
import { CachedObjectStore, getRequired } from '../../content-engine/tree/object-store';
import {
  ContentWriter,
  storeDocuments,
  type ContentChange,
} from '../../content-engine/writes/content-writer';
import { Clock } from '../../platform/clock/clock';
import { DomainError } from '../../platform/errors/domain-error';
import { sha256Hex } from '../../platform/ids/ids';
import { JobsService } from '../../platform/jobs/jobs.service';
import { Translation } from '../entities/translation.entity';
import { TranslationPage } from '../entities/translation-page.entity';
import { batches } from '../providers/batches';
import {
  TranslationProviderError,
  type TranslationProvider,
} from '../providers/translation-provider';
import { TranslationProviders } from '../providers/translation-providers';
import { countWords, documentSegments, isTranslatable } from './document-segments';
import { plainText } from './plain-text';

/** The queue of runs, one job per run asked for (`{translationId}`). */
export const TRANSLATION_RUN_QUEUE = 'translation-run';

/** A run `running` for this long was lost (its process died): it may be claimed again. */
export const TRANSLATION_STUCK_AFTER_MS = 60 * 60 * 1000;

export interface RunJob {
  translationId: string;
}

/** Why a run cannot go on, in words for the translation's `lastRunError`. */
class RunFailure extends Error {}

/** A page of the result as a run makes it. */
interface ResultPage {
  pageId: string;
  sourceHash: string;
  /** The source page's slug, kept in the result. */
  slug: string | undefined;
  title: string | null;
  description: string | null;
  document: JSONDocument | null;
  words: number;
  /** Translated by this run (false: reused from the previous one). */
  translated: boolean;
}

interface RunOutcome {
  sourceTree: string;
  pages: ResultPage[];
}

/** Which texts of a page go to the provider, and where their translations go back. */
interface PageWork {
  page: ResultPage;
  hasTitle: boolean;
  hasDescription: boolean;
  segments: ReturnType<typeof documentSegments> | null;
  texts: string[];
}

/**
 * Runs of translations in the background: `pending` → `running` → `completed`. A run reads the
 * source space's primary revision, translates the pages whose content changed since the last
 * run (title, description and the text of the document; see document-segments.ts), reuses the
 * other pages' last translation, and writes the result space's new primary revision through the
 * content writer: the source's tree (pages, slugs, files) with the translated pages in it. The
 * provider is called with no transaction open. A failure records why (`lastError`) and leaves
 * the result as it was. Only one run of a translation at a time: a job claims it with a
 * conditional update, and a duplicate job finds it claimed and does nothing.
 */
@Injectable()
export class TranslationRuns implements OnModuleInit {
  private readonly logger = new Logger('TranslationRuns');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly jobs: JobsService,
    private readonly engine: ContentEngine,
    private readonly writer: ContentWriter,
    private readonly providers: TranslationProviders,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.jobs.define<RunJob>(TRANSLATION_RUN_QUEUE, ({ translationId }) =>
      this.process(translationId),
    );
  }

  /** Queues a run of a translation whose row says `pending`. */
  async enqueue(translationId: string): Promise<void> {
    await this.jobs.send<RunJob>(TRANSLATION_RUN_QUEUE, { translationId });
  }

  async process(translationId: string): Promise<void> {
    const translation = await this.claim(translationId);
    if (!translation) return;
    const started = performance.now();
    let rerun: boolean;
    try {
      const outcome = await this.translate(translation);
      const seconds = Math.round((performance.now() - started) / 1000);
      rerun = await this.dataSource.transaction((manager) =>
        this.recordSuccess(manager, translation, outcome, seconds),
      );
    } catch (error) {
      rerun = await this.recordFailure(translation, error);
    }
    if (rerun) await this.enqueue(translationId);
  }

  /** The translation, now `running`; null when it is not waiting for a run (or is gone). */
  private async claim(translationId: string): Promise<Translation | null> {
    const now = this.clock.now();
    const rows: { id: string }[] = await this.dataSource.query(
      // In a CTE: TypeORM answers a bare UPDATE ... RETURNING as [rows, count].
      `WITH claimed AS (
         UPDATE translations SET status = 'running', started_at = $2, rerun_requested = false
          WHERE id = $1
            AND (status = 'pending' OR (status = 'running' AND started_at < $3))
          RETURNING id
       )
       SELECT id FROM claimed`,
      [translationId, now, new Date(now.getTime() - TRANSLATION_STUCK_AFTER_MS)],
    );
    if (rows.length === 0) return null;
    return this.dataSource.getRepository(Translation).findOneBy({ id: translationId });
  }

  /** Reads the source and translates what changed; writes nothing. */
  private async translate(translation: Translation): Promise<RunOutcome> {
    const provider = this.configuredProvider();
    const manager = this.dataSource.manager;
    const sources: { tree: string; deleted_at: Date | null }[] = await manager.query(
      `SELECT r.tree, s.deleted_at FROM spaces s JOIN revisions r ON r.id = s.revision_id
        WHERE s.id = $1`,
      [translation.sourceSpaceId],
    );
    if (!sources[0] || sources[0].deleted_at !== null) {
      throw new RunFailure('The source space is deleted.');
    }
    const sourceTree = sources[0].tree;
    const store = new CachedObjectStore(this.engine.objectStore(manager), { maxEntries: 1000 });
    const snapshot = await flatten(store, sourceTree);
    const previous = new Map(
      (await manager.find(TranslationPage, { where: { translationId: translation.id } })).map(
        (row) => [row.pageId, row],
      ),
    );
    const instructions = await this.instructions(manager, translation);

    const pages: ResultPage[] = [];
    const work: PageWork[] = [];
    for (const source of snapshot.values()) {
      const title = typeof source.meta.title === 'string' ? source.meta.title : null;
      const description =
        typeof source.meta.description === 'string' ? source.meta.description : null;
      const sourceHash = sha256Hex(
        stringify({
          title,
          description,
          document: source.documentHash,
          language: [translation.sourceLanguage, translation.language],
          instructions,
        }) as string,
      );
      const slug = typeof source.meta.slug === 'string' ? source.meta.slug : undefined;
      const last = previous.get(source.id);
      if (last && last.sourceHash === sourceHash) {
        pages.push({
          pageId: source.id,
          sourceHash,
          slug,
          title: last.title,
          description: last.description,
          document: last.document,
          words: last.words,
          translated: false,
        });
        continue;
      }
      const document =
        source.documentHash === null
          ? null
          : await getRequired<JSONDocument>(store, source.documentHash);
      const page: ResultPage = {
        pageId: source.id,
        sourceHash,
        slug,
        title,
        description,
        document,
        words: 0,
        translated: true,
      };
      const hasTitle = title !== null && isTranslatable(title.trim());
      const hasDescription = description !== null && isTranslatable(description.trim());
      const segments = document ? documentSegments(document) : null;
      const texts = [
        ...(hasTitle ? [title.trim()] : []),
        ...(hasDescription ? [description.trim()] : []),
        ...(segments?.texts ?? []),
      ];
      page.words = texts.reduce((sum, text) => sum + countWords(text), 0);
      pages.push(page);
      work.push({ page, hasTitle, hasDescription, segments, texts });
    }

    const translations = await this.translateTexts(
      provider,
      work.flatMap((item) => item.texts),
      translation,
      instructions,
    );
    let offset = 0;
    for (const item of work) {
      const mine = translations.slice(offset, offset + item.texts.length);
      offset += item.texts.length;
      let next = 0;
      if (item.hasTitle) item.page.title = mine[next++];
      if (item.hasDescription) item.page.description = mine[next++];
      if (item.segments) item.page.document = item.segments.apply(mine.slice(next));
    }
    return { sourceTree, pages };
  }

  private configuredProvider(): TranslationProvider {
    try {
      return this.providers.current();
    } catch (error) {
      if (error instanceof DomainError) throw new RunFailure(error.message);
      throw error;
    }
  }

  /** The translation's instructions and the organization's agent instructions, as text. */
  private async instructions(manager: EntityManager, translation: Translation): Promise<string> {
    const rows: { instructions: { nodes?: unknown[] } }[] = await manager.query(
      'SELECT instructions FROM agent_instructions WHERE organization_id = $1',
      [translation.organizationId],
    );
    return [plainText(rows[0]?.instructions), plainText(translation.instructions)]
      .filter((text) => text !== '')
      .join('\n\n');
  }

  /** `texts` translated, in batches within the provider's limits, one batch at a time. */
  private async translateTexts(
    provider: TranslationProvider,
    texts: string[],
    translation: Translation,
    instructions: string,
  ): Promise<string[]> {
    const result: string[] = [];
    for (const batch of batches(texts, provider.limits)) {
      result.push(
        ...(await provider.translate({
          texts: batch,
          source: translation.sourceLanguage,
          target: translation.language,
          instructions,
        })),
      );
    }
    return result;
  }

  /**
   * Writes the result space's new primary revision, the pages translated, and the statistics.
   * Answers whether another run was asked for meanwhile.
   */
  private async recordSuccess(
    manager: EntityManager,
    translation: Translation,
    outcome: RunOutcome,
    seconds: number,
  ): Promise<boolean> {
    const rows: {
      result_space_id: string | null;
      rerun_requested: boolean;
      run_by: string | null;
    }[] = await manager.query(
      'SELECT result_space_id, rerun_requested, run_by FROM translations WHERE id = $1 FOR UPDATE',
      [translation.id],
    );
    const current = rows[0];
    if (!current) return false;
    if (current.result_space_id === null) {
      throw new RunFailure(
        'The result space is gone; run the translation again to make a new one.',
      );
    }
    const spaces: { revision_id: string; deleted_at: Date | null }[] = await manager.query(
      'SELECT revision_id, deleted_at FROM spaces WHERE id = $1',
      [current.result_space_id],
    );
    if (!spaces[0] || spaces[0].deleted_at !== null) {
      throw new RunFailure(
        'The result space is deleted; run the translation again to make a new one.',
      );
    }
    const changes: ContentChange[] = [];
    for (const page of outcome.pages) {
      if (page.title !== null) {
        changes.push({
          operation: 'update_page',
          page: page.pageId,
          meta: {
            title: page.title,
            ...(page.description !== null ? { description: page.description } : {}),
            ...(page.slug !== undefined ? { slug: page.slug } : {}),
          },
        });
      }
      if (page.document !== null) {
        changes.push({ operation: 'set_document', page: page.pageId, document: page.document });
      }
    }
    const { revision } = await this.writer.commitOnPrimary(manager, {
      spaceId: current.result_space_id,
      expectedRevisionId: spaces[0].revision_id,
      authorId: current.run_by,
      type: 'edits',
      changes: async ({ store }) => ({
        tree: await commit(store, outcome.sourceTree, await storeDocuments(store, changes)),
      }),
    });

    const translated = outcome.pages.filter((page) => page.translated);
    for (const page of translated) {
      await manager
        .createQueryBuilder()
        .insert()
        .into(TranslationPage)
        .values({
          translationId: translation.id,
          pageId: page.pageId,
          organizationId: translation.organizationId,
          sourceHash: page.sourceHash,
          title: page.title,
          description: page.description,
          document: page.document,
          words: page.words,
        } as QueryDeepPartialEntity<TranslationPage>)
        .orUpdate(
          ['source_hash', 'title', 'description', 'document', 'words'],
          ['translation_id', 'page_id'],
        )
        .execute();
    }
    await manager.query(
      'DELETE FROM translation_pages WHERE translation_id = $1 AND NOT (page_id = ANY($2))',
      [translation.id, outcome.pages.map((page) => page.pageId)],
    );
    const words = translated.reduce((sum, page) => sum + page.words, 0);
    const now = this.clock.now();
    await manager.query(
      `UPDATE translations
          SET status = CASE WHEN rerun_requested THEN 'pending' ELSE 'completed' END,
              result_revision_id = $2, last_error = NULL, last_error_at = NULL,
              runs = runs + 1,
              latest_pages = $3, total_pages = total_pages + $3,
              latest_words = $4, total_words = total_words + $4,
              latest_run_duration = $5, total_duration = total_duration + $5,
              updated_at = $6
        WHERE id = $1`,
      [translation.id, revision.id, translated.length, words, seconds, now],
    );
    return current.rerun_requested;
  }

  /** Records why the run failed; answers whether another run was asked for meanwhile. */
  private async recordFailure(translation: Translation, error: unknown): Promise<boolean> {
    const known =
      error instanceof RunFailure ||
      error instanceof TranslationProviderError ||
      error instanceof DomainError ||
      (error instanceof Error && ['RetryableError', 'ChatCompletionsError'].includes(error.name));
    if (!known) {
      this.logger.error({ err: error, translationId: translation.id }, 'Translation run failed');
    }
    const message = known
      ? (error as Error).message
      : 'The run failed on an unexpected error (see the server log).';
    const now = this.clock.now();
    const rows: { rerun: boolean }[] = await this.dataSource.query(
      `WITH failed AS (
         UPDATE translations
            SET status = CASE WHEN rerun_requested THEN 'pending' ELSE 'completed' END,
                last_error = $2, last_error_at = $3, updated_at = $3
          WHERE id = $1
          RETURNING rerun_requested
       )
       SELECT rerun_requested AS rerun FROM failed`,
      [translation.id, message.slice(0, 2000), now],
    );
    return rows[0]?.rerun ?? false;
  }
}
