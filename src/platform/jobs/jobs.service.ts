import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import PgBoss from 'pg-boss';
import { AppConfig } from '../config/app-config';

export const JOBS_DATABASE_URL = Symbol('JOBS_DATABASE_URL');

/** How long shutdown waits for the jobs at work to end. */
const SHUTDOWN_WAIT_MS = 10_000;

export type JobHandler<T> = (data: T, job: { id: string; name: string }) => Promise<void>;

interface QueueDefinition {
  handler: JobHandler<never>;
  options: PgBoss.Queue;
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
  private readonly boss: PgBoss;
  private started = false;
  /** Handlers running now, so that shutdown can let them end. */
  private readonly running = new Set<Promise<void>>();

  constructor(
    @Inject(JOBS_DATABASE_URL) url: string,
    private readonly config: AppConfig,
  ) {
    // Only processes that work the queues keep the cron schedules running.
    this.boss = new PgBoss({
      connectionString: url,
      schema: 'pgboss',
      max: 3,
      schedule: config.JOBS_IN_PROCESS,
    });
    this.boss.on('error', (error) => this.logger.error({ err: error }, 'Job queue error'));
  }

  define<T>(name: string, handler: JobHandler<T>, options: Omit<PgBoss.Queue, 'name'> = {}): void {
    if (this.started) throw new Error(`Queue ${name} defined after start`);
    if (this.queues.has(name)) throw new Error(`Queue ${name} defined twice`);
    this.queues.set(name, { handler: handler as JobHandler<never>, options: { name, ...options } });
  }

  /**
   * Runs queue `name` (already defined) on a cron schedule, in UTC. pg-boss keeps one schedule
   * per queue across every process, so several API or worker processes send it once.
   */
  schedule(name: string, cron: string): void {
    if (this.started) throw new Error(`Schedule for ${name} added after start`);
    if (!this.queues.has(name)) throw new Error(`Unknown queue ${name}`);
    this.schedules.set(name, cron);
  }

  async send<T extends object>(
    name: string,
    data: T,
    options: PgBoss.SendOptions = {},
  ): Promise<string> {
    if (!this.queues.has(name)) throw new Error(`Unknown queue ${name}`);
    const id = await this.boss.send(name, data, { retryLimit: 3, retryBackoff: true, ...options });
    if (!id) throw new Error(`Job not queued on ${name} (a singleton already holds its place)`);
    return id;
  }

  /** State of a job, for tests and diagnostics. */
  async state(name: string, id: string): Promise<string | undefined> {
    const job = await this.boss.getJobById(name, id, { includeArchive: true });
    return job?.state;
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.boss.start();
    this.started = true;
    for (const [name, queue] of this.queues) {
      await this.boss.createQueue(name, queue.options);
      if (this.config.JOBS_IN_PROCESS) {
        await this.boss.work(name, { batchSize: 1, pollingIntervalSeconds: 1 }, (jobs) =>
          this.run(name, queue.handler, jobs),
        );
      }
    }
    if (this.config.JOBS_IN_PROCESS) {
      for (const [name, cron] of this.schedules)
        await this.boss.schedule(name, cron, {}, { tz: 'UTC' });
    }
  }

  /**
   * Stops fetching, waits for the handlers at work (pg-boss waits only for those it knows of:
   * a job fetched while stopping still runs), up to SHUTDOWN_WAIT_MS in all.
   */
  async onApplicationShutdown(): Promise<void> {
    if (!this.started) return;
    const deadline = Date.now() + SHUTDOWN_WAIT_MS;
    await this.boss.stop({ graceful: true, wait: true, timeout: SHUTDOWN_WAIT_MS });
    while (this.running.size > 0 && Date.now() < deadline) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled(this.running),
        new Promise((resolve) => (timer = setTimeout(resolve, deadline - Date.now()))),
      ]);
      clearTimeout(timer);
    }
  }

  private async run(name: string, handler: JobHandler<never>, jobs: PgBoss.Job<unknown>[]) {
    for (const job of jobs) {
      const work = handler(job.data as never, { id: job.id, name });
      this.running.add(work);
      try {
        await work;
      } catch (error) {
        this.logger.error({ err: error, queue: name, jobId: job.id }, 'Job failed');
        throw error;
      } finally {
        this.running.delete(work);
      }
    }
  }
}
