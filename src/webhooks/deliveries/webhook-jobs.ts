import { Injectable, OnApplicationBootstrap, OnModuleInit } from '@nestjs/common';
import { Clock } from '../../platform/clock/clock';
import { AppConfig } from '../../platform/config/app-config';
import { EventOutbox } from '../../platform/events/event-outbox';
import { OutboxEventsRepository } from '../../platform/events/outbox-events.repository';
import { JobsService } from '../../platform/jobs/jobs.service';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { DELIVER_QUEUE, type DeliverJob, DeliveryJobs } from './delivery-jobs';
import { DISPATCH_QUEUE, WebhookDispatcher } from './webhook-dispatcher';
import { MAX_ROUNDS, WebhookSender } from './webhook-sender';

const SWEEP_QUEUE = 'webhooks-sweep';
const PURGE_QUEUE = 'webhooks-purge';
/** The delivery queue is asked this often when empty, so that a delivery starts at once. */
const POLL_MS = 100;
/**
 * The dispatch queue is asked this often, and dispatches at most this often: the events of
 * that time are dispatched together, their deliveries sent in one job (fewer statements per
 * event under load, for at most this much more lag).
 */
const DISPATCH_INTERVAL_MS = 200;
/** Delivery jobs at work at once in one process (each waits on an endpoint). */
const DELIVERY_CONCURRENCY = 8;
/** Deliveries a sweep queues at most. */
const SWEEP_LIMIT = 500;

/**
 * The webhooks' background work. A transaction that records events queues one dispatch job
 * (the outbox's listener), which makes the deliveries and queues their job; deliveries retry
 * with jobs that start later. A sweep every minute (and once a delivery's lease has run out
 * after a process starts) dispatches what a lost job left and queues the deliveries due that
 * no job holds: those of a worker that died mid-attempt. A daily purge keeps EVENT_RETENTION_DAYS.
 */
@Injectable()
export class WebhookJobs implements OnModuleInit, OnApplicationBootstrap {
  constructor(
    private readonly jobs: JobsService,
    private readonly outbox: EventOutbox,
    private readonly events: OutboxEventsRepository,
    private readonly dispatcher: WebhookDispatcher,
    private readonly sender: WebhookSender,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly deliveryJobs: DeliveryJobs,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    const leaseSeconds = Math.ceil(this.config.WEBHOOK_TIMEOUT_MS / 1000) + 5;
    // Every dispatch job asks for the same work (dispatch what waits): those waiting together
    // are done by one run.
    this.jobs.define(DISPATCH_QUEUE, () => this.dispatcher.dispatch().then(() => undefined), {
      pollIntervalMs: DISPATCH_INTERVAL_MS,
      coalesce: 200,
    });
    this.jobs.define<DeliverJob>(DELIVER_QUEUE, (job) => this.sender.deliver(job), {
      pollIntervalMs: POLL_MS,
      concurrency: DELIVERY_CONCURRENCY,
      // A job longer than its rounds' leases has lost them: pg-boss retries it.
      expireInSeconds: leaseSeconds * (MAX_ROUNDS + 1),
    });
    this.jobs.define(SWEEP_QUEUE, () => this.sweep(), { policy: 'short' });
    this.jobs.define(PURGE_QUEUE, () => this.purge(), { policy: 'short' });
    this.jobs.schedule(SWEEP_QUEUE, '* * * * *');
    this.jobs.schedule(PURGE_QUEUE, '47 3 * * *');
    // One job row per transaction that records events, written in it: it exists if they do.
    this.outbox.listen(async (manager) => {
      await this.jobs.send(DISPATCH_QUEUE, {}, { manager, retryLimit: 5 });
    });
  }

  /**
   * A process that works the queues sweeps once the leases of attempts under way when it
   * started have run out: those of a process that stopped mid-attempt are then taken up.
   */
  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.JOBS_IN_PROCESS) return;
    const leaseMs = this.config.WEBHOOK_TIMEOUT_MS + 6_000;
    await this.jobs.sendUnlessQueued(
      SWEEP_QUEUE,
      {},
      { singletonKey: 'start', startAfter: new Date(Date.now() + leaseMs) },
    );
  }

  /** Dispatches what waits, and queues the deliveries due that no job may hold. */
  async sweep(): Promise<void> {
    if (await this.events.anyUndispatched()) await this.dispatcher.dispatch();
    await this.deliveryJobs.queue(await this.deliveries.dueHeads(this.clock.now(), SWEEP_LIMIT));
  }

  /** Removes events, and finished deliveries, older than EVENT_RETENTION_DAYS. */
  async purge(): Promise<void> {
    const cutoff = new Date(
      this.clock.now().getTime() - this.config.EVENT_RETENTION_DAYS * 86_400_000,
    );
    await this.deliveries.purgeFinishedBefore(cutoff);
    await this.events.purgeDispatchedBefore(cutoff);
  }
}
