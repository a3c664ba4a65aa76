import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { StorageUploads } from '../orgs/storage/storage-uploads';
import { Clock } from '../platform/clock/clock';
import { AppConfig } from '../platform/config/app-config';
import { EventOutbox, userActor } from '../platform/events/event-outbox';
import { JobsService } from '../platform/jobs/jobs.service';
import { OutboundHttp } from '../platform/outbound-http';
import {
  convertFiles,
  crawlWebsite,
  type ConvertContext,
  type CrawlOptions,
  type ImportTree,
  type UploadedFile,
} from './convert/import-tree';
import type { ImportRun, ImportRunStatus } from './entities/import-run.entity';
import { ImportFailure, ImportWriter } from './import-writer';
import { ImportsRepository } from './imports.repository';

/** The queue of import runs, one job per run (`{runId}`). */
export const IMPORT_RUN_QUEUE = 'import-run';

export interface ImportJob {
  runId: string;
}

/** How often a running import writes its progress and looks for a cancel from elsewhere. */
const REPORT_EVERY_MS = 500;

/** Most warnings a run keeps (the first ones; a count of the others follows them). */
const MAX_WARNINGS = 500;

/** The abort reason of a cancelled run. */
class ImportCancelled extends Error {
  constructor() {
    super('The import was cancelled.');
  }
}

/**
 * Import runs in the background: `pending` → `in-progress` → `completed` (or `failed`, with its
 * `reason`; or `cancelled`). A run converts its source through the converters
 * (src/imports/convert: uploaded files, or a website crawled through OutboundHttp on its own
 * host, at most IMPORT_MAX_PAGES pages), reporting its progress and warnings as it goes, then
 * writes the pages into a change request (ImportWriter) in one transaction that also completes
 * the run. A cancel (cancelImportRun) aborts the run's signal in this process at once, and in
 * another within REPORT_EVERY_MS (the run reads its status as it reports).
 */
@Injectable()
export class ImportRunner implements OnModuleInit {
  private readonly logger = new Logger('ImportRunner');
  /** The runs at work in this process. */
  private readonly running = new Map<string, AbortController>();

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly jobs: JobsService,
    private readonly runs: ImportsRepository,
    private readonly writer: ImportWriter,
    private readonly uploads: StorageUploads,
    private readonly http: OutboundHttp,
    private readonly outbox: EventOutbox,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.jobs.define<ImportJob>(IMPORT_RUN_QUEUE, (job) => this.run(job.runId), {
      concurrency: 2,
      pollIntervalMs: 200,
    });
  }

  /** Queues the run in the caller's transaction: it starts once the run is committed. */
  async enqueue(runId: string, manager: EntityManager): Promise<void> {
    // Not retried: a run that fails says why, and one whose process died is answered failed.
    await this.jobs.send(IMPORT_RUN_QUEUE, { runId }, { manager, retryLimit: 0 });
  }

  /** Stops the run if this process works it (a cancel already recorded). */
  abort(runId: string): void {
    this.running.get(runId)?.abort(new ImportCancelled());
  }

  async run(runId: string): Promise<void> {
    const started = this.clock.now();
    const claimed = await this.runs.transition(runId, ['pending'], {
      status: 'in-progress',
      startedAt: started,
      updatedAt: started,
    });
    if (!claimed) return; // cancelled before it started
    const run = (await this.runs.findById(runId))!;
    const controller = new AbortController();
    this.running.set(runId, controller);
    const warnings: string[] = [];
    let dropped = 0;
    const progress = { done: 0, total: 0 };
    let reporting: Promise<void> | undefined;
    const report = async () => {
      const now = this.clock.now();
      await this.runs.report(runId, {
        pagesDone: progress.done,
        pagesTotal: progress.total,
        warnings: this.warningsOf(warnings, dropped),
        updatedAt: now,
      });
      if ((await this.runs.status(runId)) === 'cancelled') controller.abort(new ImportCancelled());
    };
    const timer = setInterval(() => {
      reporting ??= report()
        .catch((error: unknown) => this.logger.warn({ err: error, runId }, 'Import report failed'))
        .finally(() => (reporting = undefined));
    }, REPORT_EVERY_MS);
    const context: ConvertContext = {
      signal: controller.signal,
      progress: (done, total) => {
        progress.done = Math.max(0, Math.floor(done));
        progress.total = Math.max(progress.done, Math.floor(total));
      },
      warn: (message) => {
        if (warnings.length < MAX_WARNINGS) warnings.push(String(message).slice(0, 2000));
        else dropped++;
      },
    };
    let fetchError: string | undefined;
    try {
      const tree = await this.convert(run, context, (message) => (fetchError ??= message));
      controller.signal.throwIfAborted();
      let prepared;
      try {
        prepared = await this.writer.prepare(run, tree, {
          signal: controller.signal,
          warn: context.warn,
        });
      } catch (error) {
        if (error instanceof ImportFailure && fetchError) {
          throw new ImportFailure(`${error.message} ${fetchError}`);
        }
        throw error;
      }
      await this.runs.setPages(runId, prepared.pages);
      controller.signal.throwIfAborted();
      clearInterval(timer);
      await reporting;
      const total = prepared.pages.length;
      await this.dataSource.transaction(async (manager) => {
        const locked = await this.runs.lock(runId, manager);
        if (locked?.status !== 'in-progress') return;
        const changeRequestId = await this.writer.write(
          manager,
          run,
          prepared,
          this.subjectOf(run),
        );
        await this.runs.completePages(runId, manager);
        const now = this.clock.now();
        await this.runs.transition(
          runId,
          ['in-progress'],
          {
            status: 'completed',
            changeRequestId,
            pagesDone: total,
            pagesTotal: total,
            warnings: this.warningsOf(warnings, dropped),
            completedAt: now,
            updatedAt: now,
          },
          manager,
        );
        await this.recordFinished(manager, { ...run, changeRequestId }, 'completed', {
          pages: total,
        });
      });
      if (run.source.type === 'file') await this.uploads.discard(run.source.files);
    } catch (error) {
      if (controller.signal.aborted && controller.signal.reason instanceof ImportCancelled) {
        // The cancel recorded the run's status; what it had found stays with it.
        await this.runs
          .transition(runId, ['cancelled'], { warnings: this.warningsOf(warnings, dropped) })
          .catch(() => undefined);
        return;
      }
      const reason = reasonOf(error);
      if (!(error instanceof ImportFailure)) {
        this.logger.warn({ err: error, runId }, 'Import run failed');
      }
      await this.dataSource.transaction(async (manager) => {
        const failed = await this.runs.transition(
          runId,
          ['in-progress'],
          {
            status: 'failed',
            reason,
            warnings: this.warningsOf(warnings, dropped),
            pagesDone: progress.done,
            pagesTotal: progress.total,
            updatedAt: this.clock.now(),
          },
          manager,
        );
        if (failed) await this.recordFinished(manager, run, 'failed', { reason });
      });
    } finally {
      clearInterval(timer);
      await reporting;
      this.running.delete(runId);
    }
  }

  /** `import_run_finished`, in the transaction that records how the run ended. */
  async recordFinished(
    manager: EntityManager,
    run: Pick<ImportRun, 'id' | 'organizationId' | 'spaceId' | 'changeRequestId' | 'createdBy'>,
    status: Extract<ImportRunStatus, 'completed' | 'failed' | 'cancelled'>,
    fields: Record<string, unknown> = {},
    actorId: string | null = run.createdBy,
  ): Promise<void> {
    await this.outbox.record(manager, {
      type: 'import_run_finished',
      organizationId: run.organizationId,
      resource: { type: 'import-run', id: run.id },
      spaceId: run.spaceId,
      actor: actorId ? userActor(actorId) : { kind: 'system' },
      fields: {
        importRunId: run.id,
        spaceId: run.spaceId,
        ...(run.changeRequestId ? { changeRequestId: run.changeRequestId } : {}),
        status,
        ...fields,
      },
    });
  }

  private async convert(
    run: ImportRun,
    context: ConvertContext,
    onFetchError: (message: string) => void,
  ): Promise<ImportTree> {
    const source = run.source;
    if (source.type === 'website') {
      return crawlWebsite(
        {
          startUrl: source.url,
          maxPages: this.config.IMPORT_MAX_PAGES,
          fetch: this.sameHostFetch(source.url, onFetchError),
        },
        context,
      );
    }
    const files: UploadedFile[] = [];
    for (const key of source.files) {
      const file = await this.uploads.uploadedImportFile(run.organizationId, key);
      if (!file) throw new ImportFailure(`The uploaded file ${key} is gone: upload it again.`);
      files.push({ name: file.name, bytes: file.bytes });
    }
    return convertFiles(files, context);
  }

  /**
   * The crawler's fetch: through OutboundHttp (http(s) only, bounded, no private address unless
   * OUTBOUND_ALLOW_PRIVATE), and only on the start URL's host, redirects included: a crawl
   * never leaves its site.
   */
  private sameHostFetch(
    startUrl: string,
    onError: (message: string) => void,
  ): CrawlOptions['fetch'] {
    const host = new URL(startUrl).host;
    return async (url, signal) => {
      try {
        signal.throwIfAborted();
        if (hostOf(url) !== host) {
          throw new Error(`${url} is not on ${host}: an import stays on the site it starts from.`);
        }
        const response = await abortable(
          this.http.fetch(url, {
            headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
          }),
          signal,
        );
        if (hostOf(response.url) !== host) {
          throw new Error(`${url} redirects to ${response.url}, outside ${host}.`);
        }
        return {
          status: response.status,
          url: response.url,
          contentType: response.headers['content-type'],
          body: response.body,
        };
      } catch (error) {
        if (!signal.aborted) onError(`Could not fetch ${url}: ${reasonOf(error)}`);
        throw error;
      }
    };
  }

  private subjectOf(run: ImportRun): string {
    const source = run.source;
    if (source.type === 'website') return `Import from ${hostOf(source.url) ?? source.url}`;
    return source.files.length === 1
      ? 'Import of an uploaded file'
      : `Import of ${source.files.length} uploaded files`;
  }

  private warningsOf(warnings: string[], dropped: number): string[] {
    return dropped > 0 ? [...warnings, `…and ${dropped} more warnings.`] : [...warnings];
  }
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).host;
  } catch {
    return undefined;
  }
}

function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.slice(0, 2000) || 'The import failed.';
}

/** `promise`, or the signal's reason once it aborts first. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error as Error);
      },
    );
  });
}
