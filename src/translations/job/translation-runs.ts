import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { EventOutbox } from '../../platform/events/event-outbox';
import { InjectDataSource } from '@nestjs/typeorm';
import stringify from 'json-stable-stringify';
import { performance } from 'node:perf_hooks';
import { isDeepStrictEqual } from 'node:util';
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
import { Translation, type TranslationRunErrorDetail } from '../entities/translation.entity';
import {
  TranslationPage,
  type TranslationSegmentRecord,
} from '../entities/translation-page.entity';
import { GlossaryRepository } from '../glossary/glossary.repository';
import { SpacesRepository } from '../../spaces/spaces.repository';
import { TranslationsRepository } from '../translations.repository';
import { batches } from '../providers/batches';
import {
  TranslationProviderError,
  type TranslationProvider,
} from '../providers/translation-provider';
import { TranslationProviders } from '../providers/translation-providers';
import {
  countWords,
  documentSegments,
  isTranslatable,
  textSegment,
  valueAt,
  type DocumentSegments,
  type SegmentPath,
  type SegmentValue,
} from './document-segments';
import {
  matchingTerms,
  parseTranslation,
  PlaceholderError,
  protectTerms,
  render,
  restore,
  segmentHash,
  segmentText,
  sourceTree,
  type GlossaryTerm,
  type Segment,
} from './segment';
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
  /** Made again by this run (false: kept as the result holds it, edits included). */
  translated: boolean;
  segments: TranslationSegmentRecord[];
}

/** What a run counted. */
interface RunCounts {
  words: number;
  segments: number;
  characters: number;
  cached: number;
}

interface RunOutcome {
  sourceTree: string;
  pages: ResultPage[];
  counts: RunCounts;
  /** Segments left in the source language, and why. */
  untranslated: TranslationRunErrorDetail[];
}

/** A page being made again: its segments, and the value of each once known. */
interface PageWork {
  page: ResultPage;
  slots: { path: string; segment: Segment }[];
  documentSegments: DocumentSegments | null;
  values: (SegmentValue | null)[];
}

/** A segment to send, the form it is sent in, and where its translation goes. */
interface PendingSegment {
  work: PageWork;
  index: number;
  /** The segment as sent (glossary terms as placeholders when the provider has no glossary). */
  sent: Segment;
  record: TranslationSegmentRecord;
}

/** What one run knows besides the source. */
interface RunContext {
  translation: Translation;
  instructions: string;
  glossary: GlossaryTerm[];
  /** False: the provider does not apply the glossary; terms are sent as placeholders. */
  providerGlossary: boolean;
  /** The result space's pages as they are now (a translator may have edited them). */
  resultPages: Map<string, SnapshotPage>;
  store: ObjectStore;
}

/**
 * Runs of translations in the background: `pending` → `running` → `completed`. A run reads the
 * source space's primary revision and the result space as it is now. Pages whose source did not
 * change since the last run stay as the result holds them (a translator's edits included);
 * changed pages are cut into segments (document-segments.ts, segment.ts), and only segments
 * whose source changed are sent to the provider, the others keeping the text the result holds
 * for them. The result space gets a new primary revision through the content writer (the
 * source's tree: pages, slugs, files, with the translated pages in it) only when that differs
 * from what it holds. The
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
    private readonly glossary: GlossaryRepository,
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
      return await this.dataSource.transaction((manager) =>
        this.recordSuccess(manager, translation, outcome, started),
      );
    } catch (error) {
      return this.recordFailure(translation, error);
    }
  }

  /** Reads the source and translates what changed; writes nothing. */
  private async translate(translation: Translation): Promise<RunOutcome> {
    const provider = this.configuredProvider();
    try {
      return await this.translateWith(provider, translation);
    } finally {
      await provider.close?.().catch((error: unknown) => {
        this.logger.warn({ err: error, translationId: translation.id }, 'Provider clean-up failed');
      });
    }
  }

  private async translateWith(
    provider: TranslationProvider,
    translation: Translation,
  ): Promise<RunOutcome> {
    const manager = this.dataSource.manager;
    const sourceTree = await this.sourceTree(manager, translation);
    const store = new CachedObjectStore(this.engine.objectStore(manager), { maxEntries: 1000 });
    const snapshot = await flatten(store, sourceTree);
    const previous = await this.previousPages(manager, translation);
    const instructions = await this.instructions(manager, translation);
    const glossary = await this.glossary.terms(
      translation.organizationId,
      translation.sourceLanguage,
      translation.language,
      manager,
    );
    const providerGlossary =
      glossary.length === 0 ||
      ((await provider.useGlossary?.(glossary, translation.sourceLanguage, translation.language)) ??
        false);
    const context: RunContext = {
      translation,
      instructions,
      glossary,
      providerGlossary,
      resultPages: await this.resultPages(manager, store, translation),
      store,
    };

    const pages: ResultPage[] = [];
    const work: PageWork[] = [];
    const pending: PendingSegment[] = [];
    const counts: RunCounts = { words: 0, segments: 0, characters: 0, cached: 0 };
    for (const source of snapshot.values()) {
      const planned = await this.plan(source, previous, context);
      pages.push(planned.page);
      if (!planned.work) continue;
      work.push(planned.work);
      counts.segments += planned.work.slots.length;
      counts.cached += planned.work.slots.length - planned.pending.length;
      pending.push(...planned.pending);
    }
    for (const item of pending) {
      const text = segmentText(item.work.slots[item.index].segment);
      counts.words += countWords(text);
      counts.characters += text.length;
      item.work.page.words += countWords(text);
    }
    const untranslated = await this.translateSegments(provider, pending, context);
    for (const item of work) finishPage(item);
    return { sourceTree, pages, counts, untranslated };
  }

  /** The pages of the result space as they are now, by id; none while it has no result. */
  private async resultPages(
    manager: EntityManager,
    store: ObjectStore,
    translation: Translation,
  ): Promise<Map<string, SnapshotPage>> {
    if (translation.resultSpaceId === null || translation.resultRevisionId === null) {
      return new Map();
    }
    const result = await this.translations.findSpacePrimaryTree(translation.resultSpaceId, manager);
    if (!result || result.deleted_at !== null) return new Map();
    return new Map(
      [...(await flatten(store, result.tree)).values()].map((page) => [page.id, page]),
    );
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
   * A source page in the result. Unchanged since the last run: the result's page as it is now
   * (a translator's edits kept), or as the last run wrote it when the result space is new.
   * Changed: made again segment by segment, each segment whose source is unchanged reused as
   * the result holds it now (edits kept), the others sent to the provider (`pending`).
   */
  private async plan(
    source: SnapshotPage,
    previous: Map<string, TranslationPage>,
    context: RunContext,
  ): Promise<{ page: ResultPage; work?: PageWork; pending: PendingSegment[] }> {
    const { translation } = context;
    const title = typeof source.meta.title === 'string' ? source.meta.title : null;
    const description =
      typeof source.meta.description === 'string' ? source.meta.description : null;
    const sourceHash = sha256Hex(
      stringify({
        title,
        description,
        document: source.documentHash,
        language: [translation.sourceLanguage, translation.language],
        instructions: context.instructions,
        glossary: context.glossary,
      }) as string,
    );
    const slug = typeof source.meta.slug === 'string' ? source.meta.slug : undefined;
    const last = previous.get(source.id);
    const current = await this.currentResultPage(context, source.id);
    // A page with segments left untranslated is made again, to ask for them again.
    const complete = last?.segments.every((segment) => segment.key !== '') ?? false;
    if (last && complete && last.sourceHash === sourceHash) {
      return {
        page: {
          pageId: source.id,
          sourceHash,
          slug,
          title: current ? current.title : last.title,
          description: current ? current.description : last.description,
          document: current ? current.document : last.document,
          words: 0,
          translated: false,
          segments: last.segments,
        },
        pending: [],
      };
    }
    const document =
      source.documentHash === null
        ? null
        : await getRequired<JSONDocument>(context.store, source.documentHash);
    const page: ResultPage = {
      pageId: source.id,
      sourceHash,
      slug,
      title,
      description,
      document,
      words: 0,
      translated: true,
      segments: [],
    };
    const segmented = document ? documentSegments(document) : null;
    const slots = [
      ...(title !== null && isTranslatable(title.trim())
        ? [{ path: 'title', segment: textSegment(title) }]
        : []),
      ...(description !== null && isTranslatable(description.trim())
        ? [{ path: 'description', segment: textSegment(description) }]
        : []),
      ...(segmented?.slots ?? []).map((slot) => ({
        path: ['document', ...slot.path].join('.'),
        segment: slot.segment,
      })),
    ];
    const work: PageWork = {
      page,
      slots,
      documentSegments: segmented,
      values: slots.map(() => null),
    };
    const reusable = reusableSegments(last, current);
    const pending: PendingSegment[] = [];
    slots.forEach(({ path, segment }, index) => {
      const terms = matchingTerms(segmentText(segment), context.glossary);
      const sourceKey = segmentHash(segment, translation.sourceLanguage, translation.language);
      const key = sha256Hex(
        stringify({ sourceKey, instructions: context.instructions, terms }) as string,
      );
      const known = reusable.get(sourceKey);
      if (known && (known.key === key || known.edited)) {
        work.values[index] = known.current;
        page.segments.push({ ...known.record, path, current: known.current });
        return;
      }
      const record: TranslationSegmentRecord = {
        path,
        source: sourceKey,
        key,
        translated: null,
        current: sourceValue(segment),
      };
      page.segments.push(record);
      pending.push({
        work,
        index,
        sent: context.providerGlossary ? segment : protectTerms(segment, terms),
        record,
      });
    });
    return { page, work, pending };
  }

  /** The result space's page as it is now: title, description and document; null if none. */
  private async currentResultPage(
    context: RunContext,
    pageId: string,
  ): Promise<CurrentPage | null> {
    const page = context.resultPages.get(pageId);
    if (!page) return null;
    return {
      title: typeof page.meta.title === 'string' ? page.meta.title : null,
      description: typeof page.meta.description === 'string' ? page.meta.description : null,
      document:
        page.documentHash === null
          ? null
          : await getRequired<JSONDocument>(context.store, page.documentHash),
    };
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

  /**
   * Sends the pending segments in batches within the provider's limits, one batch at a time,
   * and puts each translation in its page. A translation whose placeholders are missing or
   * broken is asked for once more; still broken, its segment keeps the source text and is
   * listed in what this answers.
   */
  private async translateSegments(
    provider: TranslationProvider,
    pending: PendingSegment[],
    context: RunContext,
  ): Promise<TranslationRunErrorDetail[]> {
    const { translation } = context;
    const request = {
      source: translation.sourceLanguage,
      target: translation.language,
      instructions: context.instructions,
      glossary: context.providerGlossary ? context.glossary : [],
    };
    const attempt = async (items: PendingSegment[]) => {
      const failed: { item: PendingSegment; reason: string }[] = [];
      const texts = items.map((item) => render(item.sent, provider.markup));
      let offset = 0;
      for (const batch of batches(texts, provider.limits)) {
        const answers = await provider.translate({ ...request, texts: batch });
        batch.forEach((_, index) => {
          const item = items[offset + index];
          try {
            const value = restore(
              item.sent,
              parseTranslation(item.sent, answers[index], provider.markup),
            );
            item.work.values[item.index] = value;
            item.record.translated = answers[index];
            item.record.current = value;
          } catch (error) {
            if (!(error instanceof PlaceholderError)) throw error;
            failed.push({ item, reason: error.message });
          }
        });
        offset += batch.length;
      }
      return failed;
    };
    const failedOnce = await attempt(pending);
    if (failedOnce.length === 0) return [];
    const failed = await attempt(failedOnce.map(({ item }) => item));
    return failed.map(({ item, reason }) => {
      item.record.key = ''; // never reused: the next run asks again
      return {
        page: item.work.page.pageId,
        segment: item.record.path,
        reason: `${provider.name}'s translation broke its placeholders twice (${reason}); the segment stays in the source language.`,
      };
    });
  }

  /**
   * Writes the result space's new primary revision (when the result changed), the pages made
   * again, and the statistics. Answers whether another run was asked for meanwhile.
   */
  private async recordSuccess(
    manager: EntityManager,
    translation: Translation,
    outcome: RunOutcome,
    started: number,
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
    const durationMs = performance.now() - started;
    const stats = {
      resultRevisionId: revisionId,
      pages: translated.length,
      words: outcome.counts.words,
      segments: outcome.counts.segments,
      characters: outcome.counts.characters,
      cachedSegments: outcome.counts.cached,
      durationMs,
      untranslated: outcome.untranslated.length > 0 ? outcome.untranslated : null,
      now: this.clock.now(),
    };
    await this.translations.recordRunSuccess(translation.id, stats, manager);
    await this.recordFinished(manager, translation, {
      state: 'success',
      resultSpaceId,
      revisionId,
      pages: stats.pages,
      words: stats.words,
      segments: stats.segments,
      characters: stats.characters,
      cachedSegments: stats.cachedSegments,
      untranslatedSegments: outcome.untranslated.length,
      durationSeconds: Math.round(durationMs) / 1000,
    });
    return current.rerun_requested;
  }

  /**
   * Commits the outcome on the result space's primary: the source's tree with the translated
   * titles, descriptions and documents, unless the result holds exactly that already. Answers
   * the result's revision: the new one, or the one it stays at.
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
    const store = this.engine.objectStore(manager);
    const tree = await commit(
      store,
      outcome.sourceTree,
      await storeDocuments(store, resultChanges(outcome.pages)),
    );
    const now = await this.translations.findSpacePrimaryTree(resultSpaceId, manager);
    if (now?.tree === tree) return space.revisionId;
    const { revision } = await this.writer.commitOnPrimary(manager, {
      spaceId: resultSpaceId,
      expectedRevisionId: space.revisionId,
      authorId,
      type: 'edits',
      changes: () => Promise.resolve({ tree }),
    });
    return revision.id;
  }

  /** Stores the pages made again by this run and forgets those gone from the source. */
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
          segments: page.segments,
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

/** The result page as it is now. */
interface CurrentPage {
  title: string | null;
  description: string | null;
  document: JSONDocument | null;
}

interface ReusableSegment {
  record: TranslationSegmentRecord;
  key: string;
  current: SegmentValue;
  /** A translator changed it in the result since the last run wrote it. */
  edited: boolean;
}

/**
 * The segments of a page's last translation by source hash, each with its value as the result
 * holds it now: read at the same place in the result page (where a translator may have edited
 * it) when that place still holds a value of the same kind, else as the run wrote it.
 */
function reusableSegments(
  last: TranslationPage | undefined,
  current: CurrentPage | null,
): Map<string, ReusableSegment> {
  const reusable = new Map<string, ReusableSegment>();
  for (const record of last?.segments ?? []) {
    if (reusable.has(record.source) || record.key === '') continue;
    let now: SegmentValue | null = null;
    if (current) {
      if (record.path === 'title') now = current.title;
      else if (record.path === 'description') now = current.description;
      else if (current.document && record.path.startsWith('document.')) {
        now = valueAt(current.document, parsePath(record.path.slice('document.'.length)));
      }
    }
    const sameKind = now !== null && typeof now === typeof record.current;
    const value = sameKind ? now! : record.current;
    reusable.set(record.source, {
      record,
      key: record.key,
      current: value,
      edited: !isDeepStrictEqual(value, record.current),
    });
  }
  return reusable;
}

const parsePath = (path: string): SegmentPath =>
  path.split('.').map((key) => (/^\d+$/.test(key) ? Number(key) : key));

/** The segment's source as a value (what a segment left untranslated keeps). */
function sourceValue(segment: Segment): SegmentValue {
  return restore(segment, sourceTree(segment));
}

/** Puts the segments' values in the page: title, description, document. */
function finishPage(work: PageWork): void {
  const documentValues: (SegmentValue | null)[] = [];
  work.slots.forEach((slot, index) => {
    const value = work.values[index];
    if (slot.path === 'title') {
      if (typeof value === 'string') work.page.title = value;
    } else if (slot.path === 'description') {
      if (typeof value === 'string') work.page.description = value;
    } else {
      documentValues.push(value);
    }
  });
  if (work.documentSegments) {
    work.page.document = work.documentSegments.apply(documentValues);
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
