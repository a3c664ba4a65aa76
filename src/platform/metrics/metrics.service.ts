import { Injectable, Logger } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { JobsService, QueueCounts } from '../jobs/jobs.service';
import { cachedFor } from './cached';
import { HttpMetrics } from './http-metrics';

/** How long one count of the job queues serves scrapes: a scrape storm costs one query. */
const JOB_COUNTS_TTL_MS = 10_000;
/** How long the count may take before a scrape goes without the queue gauges. */
const JOB_COUNTS_TIMEOUT_MS = 2_000;

/** The `pg` pool's counters (pg.Pool). */
interface PgPool {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
  options?: { max?: number };
}

/**
 * The Prometheus registry of this process, when metrics are on (METRICS_ENABLED or
 * METRICS_TOKEN): Node's default process metrics, HTTP requests (see HttpMetrics), the
 * database pool, and the job queues. Pool and queue gauges are read when scraped: the pool's
 * counters in memory, the queues with one grouped count cached for JOB_COUNTS_TTL_MS.
 */
@Injectable()
export class Metrics {
  private readonly logger = new Logger('Metrics');
  readonly registry?: Registry;
  readonly http?: HttpMetrics;

  constructor(config: AppConfig, dataSource: DataSource, jobs: JobsService) {
    if (!config.metricsEnabled) return;
    const registry = new Registry();
    this.registry = registry;
    collectDefaultMetrics({ register: registry });
    this.http = new HttpMetrics(registry);
    registerPoolGauges(registry, () => (dataSource.driver as { master?: PgPool }).master);
    const counts = cachedFor(JOB_COUNTS_TTL_MS, () =>
      withinMs(jobs.counts(), JOB_COUNTS_TIMEOUT_MS),
    );
    const queueCounts = async (): Promise<QueueCounts[]> => {
      try {
        return await counts();
      } catch (error) {
        this.logger.warn({ err: error }, 'Job queue counts unavailable for metrics');
        return [];
      }
    };
    registerJobMetrics(registry, queueCounts, jobs);
  }

  get contentType(): string {
    return this.registry?.contentType ?? 'text/plain';
  }

  /** The exposition text (Prometheus text format 0.0.4). */
  render(): Promise<string> {
    if (!this.registry) throw new Error('Metrics are off');
    return this.registry.metrics();
  }
}

function registerPoolGauges(registry: Registry, pool: () => PgPool | undefined): void {
  const gauge = (name: string, help: string, read: (pool: PgPool) => number | undefined) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        const current = pool();
        const value = current && read(current);
        if (value !== undefined) this.set(value);
      },
    });
  gauge('db_pool_connections', 'Connections the database pool holds open.', (p) => p.totalCount);
  gauge('db_pool_idle_connections', 'Open pool connections not in use.', (p) => p.idleCount);
  gauge(
    'db_pool_waiting_clients',
    'Queries waiting for a pool connection (all in use).',
    (p) => p.waitingCount,
  );
  gauge('db_pool_max_connections', 'Size of the pool (DATABASE_POOL_SIZE).', (p) => p.options?.max);
}

function registerJobMetrics(
  registry: Registry,
  counts: () => Promise<QueueCounts[]>,
  jobs: JobsService,
): void {
  const byQueue = (name: string, help: string, read: (counts: QueueCounts) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['queue'],
      registers: [registry],
      async collect() {
        this.reset();
        for (const entry of await counts()) this.set({ queue: entry.queue }, read(entry));
      },
    });
  byQueue(
    'job_queue_depth',
    'Jobs waiting to run (created, or to retry), by queue, across every process.',
    (c) => c.waiting,
  );
  byQueue('job_queue_active', 'Jobs at work, by queue, across every process.', (c) => c.active);
  byQueue(
    'job_queue_failed',
    'Jobs failed for good (retries spent) that pg-boss still keeps, by queue.',
    (c) => c.failed,
  );
  new Counter({
    name: 'jobs_failed_total',
    help: 'Job runs whose handler failed in this process (retried or not), by queue.',
    labelNames: ['queue'],
    registers: [registry],
    collect() {
      this.reset();
      for (const queue of jobs.queueNames) this.inc({ queue }, jobs.failures.get(queue) ?? 0);
    },
  });
}

/** `work`, or a rejection after `ms`. */
async function withinMs<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`No answer within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
