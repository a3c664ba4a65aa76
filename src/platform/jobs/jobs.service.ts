import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { setMaxListeners } from 'node:events';
import PgBoss from 'pg-boss';
import type { EntityManager } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { GuardedClient } from '../database/guarded-client';
import { whileHoldingStartLock } from '../database/start-lock';
import { type CronTimer, everyCronTime } from './cron-timer';
import { transactionExecutor } from '../database/transaction-executor';
import { currentTracing, type JobSpan, type TracedJob } from '../tracing/tracing';

export const JOBS_DATABASE_URL = Symbol('JOBS_DATABASE_URL');

/** How long a worker waits before asking an empty queue again. */
const POLL_MS = 1_000;

/**
 * Key of a job's data that holds the W3C traceparent of the span that queued it, when tracing
 * is on (see src/platform/tracing); taken out before the handler sees the data.
 */
const TRACEPARENT = '_traceparent';

/** The job a handler works: `retryCount` failed attempts so far, of at most `retryLimit` retries. */
export interface JobInfo {
  id: string;
  name: string;
  retryCount: number;
  retryLimit: number;
}

export type JobHandler<T> = (data: T, job: JobInfo) => Promise<void>;

export interface SendOptions extends PgBoss.SendOptions {
  /**
   * Queue the job in this transaction: it exists, and runs, only once the transaction commits.
   * A manager outside a transaction queues it at once.
   */
  manager?: EntityManager;
}

/** How this process works a queue. */
export interface WorkerOptions {
  /** How long the worker waits before asking its empty queue again; POLL_MS by default. */
  pollIntervalMs?: number;
  /** Jobs of the queue at work at once in this process (1 by default). */
  concurrency?: number;
  /**
   * For a queue whose jobs all ask for the same work (no data of their own: "dispatch what
   * waits"): up to this many waiting jobs are fetched together and done by one run of the
   * handler, which then completes (or fails) them all. Only with `concurrency` 1. The worker
   * waits `pollIntervalMs` after each run, so that what arrives meanwhile is done together.
   */
  coalesce?: number;
}

export type QueueOptions = Omit<PgBoss.Queue, 'name'> & WorkerOptions;

/** The jobs of one queue, by state, as pg-boss holds them now (every process together). */
export interface QueueCounts {
  queue: string;
  /** Waiting to run: created, or to be retried. */
  waiting: number;
  /** At work in some process. */
  active: number;
  /** Failed for good, kept until pg-boss archives them. */
  failed: number;
}

interface QueueDefinition {
  handler: JobHandler<never>;
  options: PgBoss.Queue;
  worker: Required<WorkerOptions>;
}

/**
 * Background work on pg-boss queues in the same PostgreSQL. Modules `define` their queues
 * while the application initializes; workers run in the API process unless JOBS_IN_PROCESS is
 * false, in which case `npm run worker` processes do the work. Handlers must be idempotent and
 * record their outcome on the resource they serve.
 */
@Injectable()
export class JobsService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Jobs');
  private readonly queues = new Map<string, QueueDefinition>();
  private readonly schedules = new Map<string, string>();
  private readonly cronTimers: CronTimer[] = [];
  private readonly boss: PgBoss;
  private started = false;
  /** Stops the workers' loops at shutdown. */
  private readonly stopping = new AbortController();
  /** One loop per queue this process works, so that shutdown can let them end. */
  private readonly workers: Promise<void>[] = [];
  /** The jobs at work now (id → queue), failed at shutdown if they outlast the wait. */
  private readonly active = new Map<string, string>();
  /** Runs of a handler that failed in this process since it started, by queue (for metrics). */
  readonly failures = new Map<string, number>();
  private stoppedWorking?: Promise<void>;
  private stopped?: Promise<void>;
  /** Tracing, when on: jobs carry the trace that queued them, and each run gets a span. */
  private readonly tracing = currentTracing();

  constructor(
    @Inject(JOBS_DATABASE_URL) private readonly url: string,
    private readonly config: AppConfig,
  ) {
    this.boss = new PgBoss({
      connectionString: url,
      schema: 'pgboss',
      max: 3,
      // The cron schedules are this service's (everyCronTime), not pg-boss's timekeeper.
      schedule: false,
      // pg-boss hands its options to pg's Pool: its connections listen for their own errors.
      ...{ Client: GuardedClient },
    });
    this.boss.on('error', (error) => this.logger.error({ err: error }, 'Job queue error'));
    // Every queue's loop waits on the signal between polls: one listener per queue.
    setMaxListeners(0, this.stopping.signal);
  }

  /**
   * A queue and its handler. `pollIntervalMs` and `concurrency` say how this process works it:
   * a queue whose jobs must start quickly (webhook deliveries) polls more often than the
   * default second, and one whose jobs wait on other servers runs several at once.
   */
  define<T>(name: string, handler: JobHandler<T>, options: QueueOptions = {}): void {
    if (this.started) throw new Error(`Queue ${name} defined after start`);
    if (this.queues.has(name)) throw new Error(`Queue ${name} defined twice`);
    const { pollIntervalMs = POLL_MS, concurrency = 1, coalesce = 1, ...queue } = options;
    if (!(pollIntervalMs >= 10)) throw new Error(`Queue ${name}: pollIntervalMs below 10 ms`);
    if (!(Number.isInteger(concurrency) && concurrency >= 1)) {
      throw new Error(`Queue ${name}: concurrency must be a positive integer`);
    }
    if (!(Number.isInteger(coalesce) && coalesce >= 1 && (coalesce === 1 || concurrency === 1))) {
      throw new Error(`Queue ${name}: coalesce must be a positive integer, with concurrency 1`);
    }
    this.queues.set(name, {
      handler: handler as JobHandler<never>,
      options: { name, ...queue },
      worker: { pollIntervalMs, concurrency, coalesce },
    });
  }

  /**
   * Runs queue `name` (already defined) on a cron schedule, in UTC, in the processes that work
   * the queues (JOBS_IN_PROCESS): each sends the job at each time the schedule names, keyed by
   * that time, and pg-boss keeps one (sendScheduled), so several API or worker processes run
   * it once.
   */
  schedule(name: string, cron: string): void {
    if (this.started) throw new Error(`Schedule for ${name} added after start`);
    if (!this.queues.has(name)) throw new Error(`Unknown queue ${name}`);
    this.schedules.set(name, cron);
  }

  async send<T extends object>(name: string, data: T, options: SendOptions = {}): Promise<string> {
    const id = await this.sendUnlessQueued(name, data, options);
    if (!id) throw new Error(`Job not queued on ${name} (a singleton already holds its place)`);
    return id;
  }

  /**
   * `send`, for a job that the queue's policy may find already queued (a `short` queue holds
   * one waiting job per `singletonKey`): answers null then, the waiting job doing the work.
   */
  async sendUnlessQueued<T extends object>(
    name: string,
    data: T,
    options: SendOptions = {},
  ): Promise<string | null> {
    if (!this.queues.has(name)) throw new Error(`Unknown queue ${name}`);
    const { manager, ...sendOptions } = options;
    const db = manager && transactionExecutor(manager);
    const traceparent = this.tracing?.traceparent();
    const payload =
      traceparent && isPlainObject(data) ? { ...data, [TRACEPARENT]: traceparent } : data;
    return this.boss.send(name, payload, {
      retryLimit: 3,
      retryBackoff: true,
      ...sendOptions,
      ...(db ? { db } : {}),
    });
  }

  /** The queues defined, by name. */
  get queueNames(): string[] {
    return [...this.queues.keys()];
  }

  /**
   * How many jobs each defined queue holds, by state: one grouped count on pg-boss's job table
   * (live jobs only: pg-boss moves finished ones to its archive).
   */
  async counts(): Promise<QueueCounts[]> {
    const names = this.queueNames;
    const counts = new Map(
      names.map((queue) => [queue, { queue, waiting: 0, active: 0, failed: 0 }]),
    );
    if (!this.started || names.length === 0) return [...counts.values()];
    const { rows } = (await this.boss.getDb().executeSql(COUNT_JOBS, [names])) as {
      rows: { name: string; state: string; count: number }[];
    };
    for (const { name, state, count } of rows) {
      const entry = counts.get(name);
      if (!entry) continue;
      if (state === 'active') entry.active += count;
      else if (state === 'failed') entry.failed += count;
      else entry.waiting += count;
    }
    return [...counts.values()];
  }

  /**
   * Puts a job failed for good back in its queue, with one more attempt: it runs again as soon
   * as a worker polls. False when the job is not (or no longer) failed.
   */
  async retry(name: string, id: string): Promise<boolean> {
    // pg-boss's types say void; it answers how many jobs it changed.
    const result = (await this.boss.retry(name, id)) as unknown as { affected?: number } | void;
    return (result?.affected ?? 0) > 0;
  }

  /** State of a job, for tests and diagnostics. */
  async state(name: string, id: string): Promise<string | undefined> {
    const job = await this.boss.getJobById(name, id, { includeArchive: true });
    return job?.state;
  }

  async onApplicationBootstrap(): Promise<void> {
    // pg-boss creates its queues (and, in a worker, its own) at start: one process at a time.
    await whileHoldingStartLock(this.url, async () => {
      await this.boss.start();
      this.started = true;
      for (const [name, queue] of this.queues) await this.boss.createQueue(name, queue.options);
    });
    if (this.config.JOBS_IN_PROCESS) {
      for (const [name, queue] of this.queues) this.workers.push(this.work(name, queue));
      for (const [name, cron] of this.schedules) {
        this.cronTimers.push(everyCronTime(cron, (due) => void this.sendScheduled(name, due)));
      }
    }
  }

  onApplicationShutdown(): Promise<void> {
    return this.stop();
  }

  /**
   * Stops the workers (no job is fetched any more) and lets the jobs at work end (up to
   * SHUTDOWN_TIMEOUT_MS in all). A job still running then is recorded failed, so pg-boss
   * retries it (in another process, or at the next start) as its options say. Jobs can still be
   * sent until `stop`: shutdown calls this while the requests in flight drain, and they may
   * queue theirs. Calling it again waits for the first.
   */
  stopWorking(): Promise<void> {
    this.stoppedWorking ??= this.stopWorkers();
    return this.stoppedWorking;
  }

  /**
   * `stopWorking`, then stops pg-boss: nothing can be sent any more. The application calls it
   * as it closes, before the database closes; calling it again waits for the first.
   */
  stop(): Promise<void> {
    this.stopped ??= this.stopWorking().then(async () => {
      if (this.started) await this.boss.stop({ graceful: true, wait: true, timeout: 1_000 });
    });
    return this.stopped;
  }

  /**
   * The job of `name`'s schedule for its time `due` (everyCronTime), unless a process sent it
   * already: keyed by that time, pg-boss keeps one per minute of the database's clock.
   */
  async sendScheduled(name: string, due: Date): Promise<void> {
    try {
      await this.sendUnlessQueued(
        name,
        {},
        { singletonKey: `cron ${due.toISOString()}`, singletonSeconds: 60 },
      );
    } catch (error) {
      // The next time sends it again.
      this.logger.error({ err: error, queue: name }, 'Scheduled job not sent');
    }
  }

  private async stopWorkers(): Promise<void> {
    for (const timer of this.cronTimers) timer.stop();
    if (!this.started) return;
    this.stopping.abort();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled(this.workers),
      new Promise((resolve) => (timer = setTimeout(resolve, this.config.SHUTDOWN_TIMEOUT_MS))),
    ]);
    clearTimeout(timer);
    for (const [id, name] of this.active) {
      await this.boss
        .fail(name, id, { message: 'The process shut down while the job was at work' })
        .catch((error: unknown) => this.logger.error({ err: error, queue: name, jobId: id }));
    }
  }

  /**
   * Works queue `name` until shutdown, up to `concurrency` jobs at once: fetch as many as there
   * are free places, run each handler (within the job's expiry), record it completed or failed
   * (pg-boss retries it as its options say); ask again at once while jobs come, after
   * `pollIntervalMs` when none did. The loop is ours rather than pg-boss's `work`, so that
   * shutdown can await it: nothing of it runs after the application has closed.
   */
  private async work(name: string, queue: QueueDefinition): Promise<void> {
    const { signal } = this.stopping;
    const { pollIntervalMs, concurrency, coalesce } = queue.worker;
    const running = new Set<Promise<void>>();
    while (!signal.aborted) {
      if (running.size >= concurrency) {
        await Promise.race(running);
        if (coalesce > 1) await pause(pollIntervalMs, signal);
        continue;
      }
      let jobs: PgBoss.JobWithMetadata<unknown>[] = [];
      try {
        jobs =
          (await this.boss.fetch(name, {
            batchSize: coalesce > 1 ? coalesce : concurrency - running.size,
            includeMetadata: true,
          })) ?? [];
      } catch (error) {
        this.logger.error({ err: error, queue: name }, 'Job fetch failed');
      }
      if (jobs.length === 0) {
        await pause(pollIntervalMs, signal);
        continue;
      }
      const runs = coalesce > 1 ? [jobs] : jobs.map((job) => [job]);
      for (const batch of runs) {
        const done: Promise<void> = this.run(name, queue.handler, batch).finally(() =>
          running.delete(done),
        );
        running.add(done);
      }
    }
    await Promise.allSettled(running);
  }

  /**
   * Runs the handler for `jobs[0]` (the others, coalesced, share its run and its outcome), in a
   * span of its own when tracing is on.
   */
  private run(
    name: string,
    handler: JobHandler<never>,
    jobs: PgBoss.JobWithMetadata<unknown>[],
  ): Promise<void> {
    const [job] = jobs;
    const { data, traceparent } = withoutTraceparent(job.data);
    if (!this.tracing) return this.runHandler(name, handler, jobs, data);
    const traced: TracedJob = {
      queue: name,
      id: job.id,
      attempt: job.retryCount + 1,
      retryLimit: job.retryLimit,
      traceparent,
      coalesced: jobs
        .slice(1)
        .map((each) => ({ id: each.id, traceparent: withoutTraceparent(each.data).traceparent })),
    };
    return this.tracing.traceJob(traced, (span) =>
      this.runHandler(name, handler, jobs, data, span),
    );
  }

  private async runHandler(
    name: string,
    handler: JobHandler<never>,
    jobs: PgBoss.JobWithMetadata<unknown>[],
    data: unknown,
    span?: JobSpan,
  ): Promise<void> {
    const [job] = jobs;
    const ids = jobs.map((each) => each.id);
    for (const id of ids) this.active.set(id, name);
    const info = { id: job.id, name, retryCount: job.retryCount, retryLimit: job.retryLimit };
    try {
      await withinSeconds(handler(data as never, info), job.expireInSeconds);
      await this.boss.complete(name, ids);
    } catch (error) {
      span?.fail(error);
      this.logger.error({ err: error, queue: name, jobId: job.id }, 'Job failed');
      this.failures.set(name, (this.failures.get(name) ?? 0) + 1);
      const message = error instanceof Error ? error.message : String(error);
      for (const id of ids) {
        await this.boss
          .fail(name, id, { message })
          .catch((failure: unknown) =>
            this.logger.error({ err: failure, queue: name, jobId: id }, 'Job not recorded'),
          );
      }
    } finally {
      for (const id of ids) this.active.delete(id);
    }
  }
}

/** Live jobs of the given queues by state (pg-boss keeps its job table partitioned by queue). */
const COUNT_JOBS = `
  SELECT name, state::text AS state, count(*)::int AS count
  FROM pgboss.job
  WHERE name = ANY($1::text[]) AND state IN ('created', 'retry', 'active', 'failed')
  GROUP BY name, state`;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/** A job's data as its handler sees it, and the traceparent it was queued with, if any. */
function withoutTraceparent(data: unknown): { data: unknown; traceparent?: string } {
  if (!isPlainObject(data) || !(TRACEPARENT in data)) return { data };
  const { [TRACEPARENT]: traceparent, ...rest } = data;
  return { data: rest, traceparent: typeof traceparent === 'string' ? traceparent : undefined };
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** `work`, or a rejection once it has run longer than `seconds` (the job's expiry). */
async function withinSeconds(work: Promise<void>, seconds: number | undefined): Promise<void> {
  if (!seconds) return work;
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`Job ran longer than its expiry (${seconds} s)`)),
          seconds * 1000,
        );
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
