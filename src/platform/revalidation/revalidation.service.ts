import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { JobsService, type JobInfo } from '../jobs/jobs.service';
import { OutboundHttp } from '../outbound-http';
import { cacheTag } from './cache-tags';
import { revalidationSignature } from './revalidation-signature';

export const REVALIDATION_QUEUE = 'renderer-revalidation';

/** The renderer's client: see RevalidationModule for why it is not the shared one. */
export const RENDERER_HTTP = Symbol('RENDERER_HTTP');

export interface RevalidationJob {
  tags: string[];
}

/**
 * A job waits this long before it is sent, and, while it waits, asking again for the same tags
 * adds nothing (the queue's `short` policy keeps one waiting job per tag set): a burst of edits
 * is one request.
 */
export const COALESCE_SECONDS = 2;
/**
 * Retries of a request the renderer refused or did not answer, 1–2 s after the first attempt,
 * then twice as long each time (pg-boss's backoff): one to two minutes in all, time for a
 * renderer to restart. After that its cache expires by itself (a day at most).
 */
export const RETRY_LIMIT = 6;
const RETRY_DELAY_SECONDS = 1;

/**
 * Tells GitBook's site renderer (RENDERER_URL) to revalidate what it cached under some cache
 * tags, when what Bindery answered for them changed: `POST <RENDERER_URL>/~gitbook/revalidate`
 * with `{"tags": [...]}`, signed with RENDERER_SECRET when set. The request goes out from a job
 * (retried until the renderer answers 2xx); without RENDERER_URL nothing is queued.
 *
 * Call it once a change is made: with the transaction's `manager`, the job is queued in that
 * transaction (none for a write that rolls back, none lost for one that commits); without, at
 * once, after the write committed. A revalidation too many is harmless: the renderer refetches.
 */
@Injectable()
export class Revalidation implements OnModuleInit {
  private readonly logger = new Logger('Revalidation');
  private readonly listeners: ((tags: string[]) => void)[] = [];

  constructor(
    private readonly jobs: JobsService,
    private readonly config: AppConfig,
    @Inject(RENDERER_HTTP) private readonly http: OutboundHttp,
  ) {}

  onModuleInit(): void {
    this.jobs.define<RevalidationJob>(
      REVALIDATION_QUEUE,
      ({ tags }, job) => this.deliver(tags, job),
      { policy: 'short', expireInSeconds: 60 },
    );
  }

  /**
   * Calls `listener` with the tags of every change made in this process (renderer or not):
   * the process's own caches of what those tags cover (published lookups) drop it.
   */
  onChange(listener: (tags: string[]) => void): void {
    this.listeners.push(listener);
  }

  /** Whether RENDERER_URL is set: callers may skip the work of finding tags when it is not. */
  get enabled(): boolean {
    return this.config.rendererUrl !== undefined;
  }

  /** A site changed: its settings, structure, customization, share links, redirects, … */
  site(siteId: string, manager?: EntityManager): Promise<void> {
    return this.tags([cacheTag.site(siteId)], manager);
  }

  /** The content of these spaces changed (their primary revision moved). */
  spaces(spaceIds: string[], manager?: EntityManager): Promise<void> {
    return this.tags(spaceIds.map(cacheTag.space), manager);
  }

  /**
   * Revalidates `tags` (any of the renderer's, see cacheTag). In a transaction, a failure to
   * queue fails the transaction; after it, it is logged, not thrown: the change is made, and
   * the renderer's cache expires in a day anyway.
   */
  async tags(tags: string[], manager?: EntityManager): Promise<void> {
    const unique = [...new Set(tags)].sort();
    if (unique.length === 0) return;
    for (const listener of this.listeners) listener(unique);
    if (!this.enabled) return;
    try {
      await this.jobs.sendUnlessQueued<RevalidationJob>(
        REVALIDATION_QUEUE,
        { tags: unique },
        {
          manager,
          singletonKey: unique.join(','),
          startAfter: COALESCE_SECONDS,
          retryLimit: RETRY_LIMIT,
          retryDelay: RETRY_DELAY_SECONDS,
          retryBackoff: true,
        },
      );
    } catch (error) {
      if (manager?.queryRunner?.isTransactionActive) throw error;
      this.logger.error({ err: error, tags: unique }, 'Could not queue a renderer revalidation');
    }
  }

  /** The job: one request; throws (pg-boss retries) unless the renderer answered 2xx. */
  async deliver(tags: string[], job: Pick<JobInfo, 'retryCount' | 'retryLimit'>): Promise<void> {
    const rendererUrl = this.config.rendererUrl;
    if (rendererUrl === undefined) return; // RENDERER_URL was unset since: nobody to tell.
    const body = Buffer.from(JSON.stringify({ tags }));
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.config.RENDERER_SECRET) {
      headers['x-gitbook-signature'] = revalidationSignature(body, this.config.RENDERER_SECRET);
    }
    let problem: string;
    try {
      const response = await this.http.fetch(`${rendererUrl}/~gitbook/revalidate`, {
        method: 'POST',
        headers,
        body,
      });
      if (response.status >= 200 && response.status < 300) return;
      problem = `the renderer answered ${response.status}`;
    } catch (error) {
      problem = error instanceof Error ? error.message : String(error);
    }
    if (job.retryCount >= job.retryLimit) {
      this.logger.error(
        { tags, attempts: job.retryCount + 1 },
        `Gave up revalidating the renderer's cache: ${problem}`,
      );
    }
    throw new Error(`Renderer revalidation failed: ${problem}`);
  }
}
