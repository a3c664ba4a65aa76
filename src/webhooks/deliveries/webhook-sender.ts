import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../../platform/clock/clock';
import { AppConfig } from '../../platform/config/app-config';
import { newId } from '../../platform/ids/ids';
import { JobsService } from '../../platform/jobs/jobs.service';
import { OutboundHttp, OutboundHttpError } from '../../platform/outbound-http';
import { SealedText } from '../../platform/settings/sealed-text';
import { WebhookDeliveryAttempt } from '../entities/webhook-delivery-attempt.entity';
import { signWebhook } from '../webhook-secrets';
import { WebhooksRepository } from '../webhooks.repository';
import { type ClaimedDelivery, WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { DELIVER_QUEUE, type DeliverJob } from './webhook-dispatcher';

export const SECRET_PURPOSE = 'webhook-secret';
export const USER_AGENT = 'Bindery-Webhooks/1';
/** The part of an endpoint's answer kept with an attempt. */
const RESPONSE_EXCERPT_BYTES = 1024;
/** Deliveries of different resources attempted at once by one job. */
const PARALLEL_RESOURCES = 8;

type Outcome = 'delivered' | 'retrying' | 'failed' | 'skipped';

/** What an attempt came to; after a success, the next pending delivery of its resource. */
interface Attempted {
  outcome: Outcome;
  delivery: ClaimedDelivery | null;
  next?: { id: string; nextAttemptAt: Date } | null;
}

/** What an attempt got: a status (and the answer's start), or an error. */
interface AttemptResult {
  statusCode: number | null;
  response: string | null;
  error: string | null;
  durationMs: number;
}

/**
 * Attempts deliveries. A delivery is sent when it is the first pending one of its webhook and
 * resource (later ones wait for it), through the outbound helper (private addresses refused
 * unless OUTBOUND_ALLOW_PRIVATE) within WEBHOOK_TIMEOUT_MS, signed as Standard Webhooks says.
 * A 2xx delivers it; anything else is a failed attempt, retried after the next delay of
 * WEBHOOK_RETRY_SCHEDULE, and the delivery fails once they are spent. A webhook whose every
 * attempt failed from a failed delivery's first attempt to its last (a day, by default) is
 * disabled.
 */
@Injectable()
export class WebhookSender {
  private readonly logger = new Logger('Webhooks');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly webhooks: WebhooksRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly outbound: OutboundHttp,
    private readonly sealed: SealedText,
    private readonly jobs: JobsService,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  /**
   * Works a delivery job: the deliveries of each webhook and resource one after another, in
   * order, until one must wait (a retry); different resources side by side.
   */
  async deliver(job: DeliverJob): Promise<void> {
    const keys = await this.deliveries.keysOf(job.deliveryIds);
    const queues = new Map<string, string[]>();
    for (const key of keys) {
      const name = `${key.webhookId} ${key.resourceKey}`;
      queues.set(name, [...(queues.get(name) ?? []), key.id]);
    }
    const pending = [...queues.values()];
    const lanes = Array.from({ length: Math.min(PARALLEL_RESOURCES, pending.length) }, async () => {
      for (let ids = pending.shift(); ids; ids = pending.shift()) await this.deliverInOrder(ids);
    });
    await Promise.all(lanes);
  }

  /** Deliveries of one webhook and resource, in order; then the next one's turn is queued. */
  private async deliverInOrder(ids: string[]): Promise<void> {
    let last: Attempted | null = null;
    for (const id of ids) {
      const attempted = await this.attempt(id);
      if (attempted.outcome === 'skipped' || attempted.outcome === 'retrying') return;
      last = attempted;
    }
    if (!last?.delivery) return;
    if (last.outcome === 'delivered') {
      // The statement that recorded the success read whose turn it is.
      if (last.next) await this.queue(last.next);
    } else {
      await this.queueNext(last.delivery.webhookId, last.delivery.resourceKey);
    }
  }

  /** One attempt of a delivery, if it is its turn. */
  async attempt(id: string): Promise<Attempted> {
    const now = this.clock.now();
    const leaseUntil = new Date(now.getTime() + this.config.WEBHOOK_TIMEOUT_MS + 5_000);
    const delivery = await this.deliveries.claim(id, now, leaseUntil);
    if (!delivery) return { outcome: 'skipped', delivery: null };
    const result = await this.send(delivery, now);
    const attempt = Object.assign(new WebhookDeliveryAttempt(), {
      id: newId(),
      deliveryId: delivery.id,
      number: delivery.attempts + 1,
      attemptedAt: now,
      durationMs: result.durationMs,
      statusCode: result.statusCode,
      response: result.response && storableText(result.response),
      error: result.error,
    });
    if (result.error === null) {
      const next = await this.deliveries.recordDelivered(
        attempt,
        delivery.webhookId,
        this.clock.now(),
      );
      return { outcome: 'delivered', delivery, next };
    }
    const outcome = await this.dataSource.transaction((manager) =>
      this.recordFailure(delivery, attempt, result, manager),
    );
    return { outcome, delivery };
  }

  private async send(delivery: ClaimedDelivery, now: Date): Promise<AttemptResult> {
    const body = JSON.stringify({ ...delivery.payload, installationId: delivery.webhookId });
    const secrets = [this.sealed.unseal(SECRET_PURPOSE, delivery.secret)];
    const { previousSecret, previousSecretExpiresAt } = delivery;
    if (previousSecret && previousSecretExpiresAt && previousSecretExpiresAt > now) {
      secrets.push(this.sealed.unseal(SECRET_PURPOSE, previousSecret));
    }
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    try {
      const response = await this.outbound.fetch(delivery.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': USER_AGENT,
          'webhook-id': delivery.eventId,
          'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
          'webhook-signature': signWebhook(secrets, delivery.eventId, now, body),
        },
        body,
        timeoutMs: this.config.WEBHOOK_TIMEOUT_MS,
        maxBytes: RESPONSE_EXCERPT_BYTES,
        truncate: true,
      });
      const ok = response.status >= 200 && response.status < 300;
      return {
        statusCode: response.status,
        response: response.body.toString('utf8'),
        error: ok ? null : `The endpoint answered ${response.status}.`,
        durationMs: elapsed(),
      };
    } catch (error) {
      const message =
        error instanceof OutboundHttpError
          ? error.message
          : `The request failed: ${error instanceof Error ? error.message : String(error)}`;
      return { statusCode: null, response: null, error: message, durationMs: elapsed() };
    }
  }

  /** A failed attempt and what follows from it (a retry, or the end), in one transaction. */
  private async recordFailure(
    delivery: ClaimedDelivery,
    attempt: WebhookDeliveryAttempt,
    result: AttemptResult,
    manager: EntityManager,
  ): Promise<Outcome> {
    await this.deliveries.insertAttempt(attempt, manager);
    const { number, attemptedAt: at } = attempt;
    const finishedAt = this.clock.now();
    const failure = await this.webhooks.recordFailure(delivery.webhookId, at, manager);
    const delays = this.config.webhookRetryDelaysMs;
    if (number <= delays.length) {
      const delay = delays[number - 1];
      const nextAttemptAt = new Date(at.getTime() + delay);
      await this.deliveries.update(
        delivery.id,
        { attempts: number, nextAttemptAt, leaseUntil: null },
        manager,
      );
      await this.jobs.send<DeliverJob>(
        DELIVER_QUEUE,
        { deliveryIds: [delivery.id] },
        { manager, startAfter: new Date(Date.now() + delay) },
      );
      return 'retrying';
    }
    await this.deliveries.update(
      delivery.id,
      { status: 'failed', attempts: number, nextAttemptAt: null, leaseUntil: null, finishedAt },
      manager,
    );
    const firstAttemptAt = (await this.deliveries.firstAttemptAt(delivery.id, manager)) ?? at;
    if (failure && failure.failingSince <= firstAttemptAt) {
      const reason =
        `Every delivery attempt failed from ${failure.failingSince.toISOString()} to ` +
        `${at.toISOString()} (${failure.consecutiveFailures} in a row, the last: ` +
        `${result.statusCode === null ? result.error : `HTTP ${result.statusCode}`}), and ` +
        `delivery ${delivery.id} ran out of retries.`;
      await this.webhooks.update(
        delivery.webhookId,
        { active: false, disabledReason: reason, updatedAt: finishedAt },
        manager,
      );
      this.logger.warn({ webhookId: delivery.webhookId, reason }, 'Webhook disabled');
    }
    return 'failed';
  }

  /** Queues the next pending delivery of a webhook and resource, for when it is due. */
  async queueNext(webhookId: string, resourceKey: string, manager?: EntityManager): Promise<void> {
    const next = await this.deliveries.headOf(webhookId, resourceKey, manager);
    if (next) await this.queue(next, manager);
  }

  private async queue(
    delivery: { id: string; nextAttemptAt: Date },
    manager?: EntityManager,
  ): Promise<void> {
    const wait = delivery.nextAttemptAt.getTime() - this.clock.now().getTime();
    await this.jobs.send<DeliverJob>(
      DELIVER_QUEUE,
      { deliveryIds: [delivery.id] },
      { manager, ...(wait > 0 ? { startAfter: new Date(Date.now() + wait) } : {}) },
    );
  }
}

/** Text PostgreSQL can store: an answer's NUL characters are dropped. */
function storableText(text: string): string {
  return text.split('\u0000').join('');
}
