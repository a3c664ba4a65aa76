import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { EventOutbox } from '../../platform/events/event-outbox';
import { InjectDataSource } from '@nestjs/typeorm';
import stringify from 'json-stable-stringify';
import { performance } from 'node:perf_hooks';
import { DataSource, EntityManager } from 'typeorm';
import { ContentEngine } from '../../content-engine/content-engine';
import type { JSONDocument } from '../../content-engine/documents/document';
import { commit } from '../../content-engine/tree/commit';
import { flatten } from '../../content-engine/tree/read';
import {
  CachedObjectStore,
  getRequired,
  type ObjectStore,
} from '../../content-engine/tree/object-store';
import type { SnapshotPage } from '../../content-engine/tree/snapshot';
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
import { SpacesRepository } from '../../spaces/spaces.repository';
import { TranslationsRepository } from '../translations.repository';
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
    private readonly translations: TranslationsRepository,
    private readonly spaces: SpacesRepository,
    private readonly jobs: JobsService,
    private readonly engine: ContentEngine,
    private readonly writer: ContentWriter,
    private readonly providers: TranslationProviders,
    private readonly clock: Clock,
    private readonly outbox: EventOutbox,
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

  /** Claims the translation, runs it, and queues the next run when one was asked for meanwhile. */
  async process(translationId: string): Promise<void> {
    const translation = await this.claim(translationId);
    if (!translation) return;
    const rerun = await this.run(translation);
    if (rerun) await this.enqueue(translationId);
  }

  /** The translation, now `running`; null when it is not waiting for a run (or is gone). */
  private async claim(translationId: string): Promise<Translation | null> {
    const now = this.clock.now();
    const claimed = await this.translations.claimRun(
      translationId,
      now,
      new Date(now.getTime() - TRANSLATION_STUCK_AFTER_MS),
    );
    if (!claimed) return null;
    return this.dataSource.getRepository(Translation).findOneBy({ id: translationId });
  }

  /**
   * Translates, then records the result, or why there is none; answers whether another run was
   * asked for meanwhile.
   */
  private async run(translation: Translation): Promise<boolean> {
    const started = performance.now();
    try {
      const outcome = await this.translate(translation);
      const seconds = Math.round((performance.now() - started) / 1000);
      return await this.dataSource.transaction((manager) =>
        this.recordSuccess(manager, translation, outcome, seconds),
      );
    } catch (error) {
      return this.recordFailure(translation, error);
    }
  }

  /** Reads the source and translates what changed; writes nothing. */
  private async translate(translation: Translation): Promise<RunOutcome> {
    const provider = this.configuredProvider();
    const manager = this.dataSource.manager;
    const sourceTree = await this.sourceTree(manager, translation);
    const store = new CachedObjectStore(this.engine.objectStore(manager), { maxEntries: 1000 });
    const snapshot = await flatten(store, sourceTree);
    const previous = await this.previousPages(manager, translation);
    const instructions = await this.instructions(manager, translation);

    const pages: ResultPage[] = [];
    const work: PageWork[] = [];
    for (const source of snapshot.values()) {
      const planned = await this.plan(store, source, translation, previous, instructions);
      pages.push(planned.page);
      if (planned.work) work.push(planned.work);
    }
    const translations = await this.translateTexts(
      provider,
      work.flatMap((item) => item.texts),
      translation,
      instructions,
    );
    applyTranslations(work, translations);
    return { sourceTree, pages };
  }

  /** The tree of the source space's primary revision; a failure when the space is deleted. */
  private async sourceTree(manager: EntityManager, translation: Translation): Promise<string> {
    const source = await this.translations.findSpacePrimaryTree(translation.sourceSpaceId, manager);
    if (!source || source.deleted_at !== null) {
      throw new RunFailure('The source space is deleted.');
    }
    return source.tree;
  }

  /** The pages the last run translated, by page id. */
  private async previousPages(
    manager: EntityManager,
    translation: Translation,
  ): Promise<Map<string, TranslationPage>> {
    const rows = await manager.find(TranslationPage, { where: { translationId: translation.id } });
    return new Map(rows.map((row) => [row.pageId, row]));
  }

  /**
   * A source page in the result: the last run's translation when what it was made from is
   * unchanged, else the page with the texts to translate (`work`).
   */
  private async plan(
    store: ObjectStore,
    source: SnapshotPage,
    translation: Translation,
    previous: Map<string, TranslationPage>,
    instructions: string,
  ): Promise<{ page: ResultPage; work?: PageWork }> {
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
      return {
        page: {
          pageId: source.id,
          sourceHash,
          slug,
          title: last.title,
          description: last.description,
          document: last.document,
          words: last.words,
          translated: false,
        },
      };
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
    return { page, work: { page, hasTitle, hasDescription, segments, texts } };
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
    const organizationInstructions = await this.translations.findAgentInstructions(
      translation.organizationId,
      manager,
    );
    return [plainText(organizationInstructions), plainText(translation.instructions)]
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
    const current = await this.translations.lockRunState(translation.id, manager);
    if (!current) return false;
    const resultSpaceId = current.result_space_id;
    if (resultSpaceId === null) {
      throw new RunFailure(
        'The result space is gone; run the translation again to make a new one.',
      );
    }
    const revisionId = await this.commitResult(manager, resultSpaceId, current.run_by, outcome);
    const translated = outcome.pages.filter((page) => page.translated);
    await this.savePages(manager, translation, outcome, translated);
    const stats = {
      resultRevisionId: revisionId,
      pages: translated.length,
      words: translated.reduce((sum, page) => sum + page.words, 0),
      seconds,
      now: this.clock.now(),
    };
    await this.translations.recordRunSuccess(translation.id, stats, manager);
    await this.recordFinished(manager, translation, {
      state: 'success',
      resultSpaceId,
      revisionId,
      pages: stats.pages,
      words: stats.words,
      durationSeconds: seconds,
    });
    return current.rerun_requested;
  }

  /**
   * Commits the outcome on the result space's primary: the source's tree with the translated
   * titles, descriptions and documents. Answers the new revision's id.
   */
  private async commitResult(
    manager: EntityManager,
    resultSpaceId: string,
    authorId: string | null,
    outcome: RunOutcome,
  ): Promise<string> {
    const space = await this.spaces.findHead(resultSpaceId, '', manager);
    if (!space || space.deletedAt !== null) {
      throw new RunFailure(
        'The result space is deleted; run the translation again to make a new one.',
      );
    }
    const changes = resultChanges(outcome.pages);
    const { revision } = await this.writer.commitOnPrimary(manager, {
      spaceId: resultSpaceId,
      expectedRevisionId: space.revisionId,
      authorId,
      type: 'edits',
      changes: async ({ store }) => ({
        tree: await commit(store, outcome.sourceTree, await storeDocuments(store, changes)),
      }),
    });
    return revision.id;
  }

  /** Stores the pages translated by this run and forgets those gone from the source. */
  private async savePages(
    manager: EntityManager,
    translation: Translation,
    outcome: RunOutcome,
    translated: ResultPage[],
  ): Promise<void> {
    for (const page of translated) {
      await this.translations.upsertPage(
        {
          translationId: translation.id,
          pageId: page.pageId,
          organizationId: translation.organizationId,
          sourceHash: page.sourceHash,
          title: page.title,
          description: page.description,
          document: page.document,
          words: page.words,
        },
        manager,
      );
    }
    await this.translations.deletePagesExcept(
      translation.id,
      outcome.pages.map((page) => page.pageId),
      manager,
    );
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
    return this.dataSource.transaction(async (manager) => {
      const rerun = await this.translations.recordRunFailure(
        translation.id,
        message.slice(0, 2000),
        this.clock.now(),
        manager,
      );
      if (rerun === null) return false;
      await this.recordFinished(manager, translation, { state: 'failure', error: message });
      return rerun;
    });
  }

  /** `translation_run_finished`, in the transaction that records the run's outcome. */
  private async recordFinished(
    manager: EntityManager,
    translation: Translation,
    outcome: Record<string, unknown>,
  ): Promise<void> {
    await this.outbox.record(manager, {
      type: 'translation_run_finished',
      organizationId: translation.organizationId,
      resource: { type: 'translation', id: translation.id },
      spaceId: translation.sourceSpaceId,
      actor: { kind: 'system' },
      fields: {
        translationId: translation.id,
        sourceSpaceId: translation.sourceSpaceId,
        language: translation.language,
        ...outcome,
      },
    });
  }
}

/** Writes the translations back into the pages they came from, in the order they were asked. */
function applyTranslations(work: PageWork[], translations: string[]): void {
  let offset = 0;
  for (const item of work) {
    const mine = translations.slice(offset, offset + item.texts.length);
    offset += item.texts.length;
    let next = 0;
    if (item.hasTitle) item.page.title = mine[next++];
    if (item.hasDescription) item.page.description = mine[next++];
    if (item.segments) item.page.document = item.segments.apply(mine.slice(next));
  }
}

/** The content changes that put the result's titles, descriptions and documents in the tree. */
function resultChanges(pages: ResultPage[]): ContentChange[] {
  const changes: ContentChange[] = [];
  for (const page of pages) {
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
  return changes;
}
