import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../../platform/clock/clock';
import { AppConfig } from '../../platform/config/app-config';
import { newId } from '../../platform/ids/ids';
import { OutboundHttp, OutboundHttpError } from '../../platform/outbound-http';
import { SealedText } from '../../platform/settings/sealed-text';
import { WebhookDeliveryAttempt } from '../entities/webhook-delivery-attempt.entity';
import { WebhookSigner } from '../webhook-secrets';
import { WebhooksRepository } from '../webhooks.repository';
import { type DeliverJob, DeliveryJobs } from './delivery-jobs';
import {
  type ClaimedDelivery,
  type NextDelivery,
  WebhookDeliveriesRepository,
} from './webhook-deliveries.repository';

export const SECRET_PURPOSE = 'webhook-secret';
export const USER_AGENT = 'Bindery-Webhooks/1';
/** The part of an endpoint's answer kept with an attempt. */
const RESPONSE_EXCERPT_BYTES = 1024;
/** Deliveries (of different resources) claimed and sent at once, per round of a job. */
export const ROUND_SIZE = 16;
/** Rounds one job works at most; the rest of its deliveries go on in a job of their own. */
export const MAX_ROUNDS = 8;

type FailureOutcome = 'retrying' | 'failed';

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
    private readonly deliveryJobs: DeliveryJobs,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  /** Works a delivery job: its lanes (one per webhook) side by side. */
  async deliver(job: DeliverJob): Promise<void> {
    await Promise.all(job.lanes.map((lane) => this.deliverLane(lane)));
  }

  /**
   * Works a lane in rounds: claim its deliveries whose turn it is (the first pending one of
   * each resource, up to ROUND_SIZE), send them side by side, record the successes together;
   * until none is left to claim (after MAX_ROUNDS, the rest is queued again, so a job ends
   * within its expiry however slow the endpoint). A delivery whose predecessor another job
   * holds is left to that job, which takes it up once its predecessor is delivered; one whose
   * predecessor is waiting for a retry waits with it.
   */
  private async deliverLane(ids: string[]): Promise<void> {
    let waiting = ids;
    for (let round = 0; waiting.length > 0; round += 1) {
      if (round === MAX_ROUNDS) return this.deliveryJobs.requeue(waiting);
      const now = this.clock.now();
      const leaseUntil = new Date(now.getTime() + this.config.WEBHOOK_TIMEOUT_MS + 5_000);
      const claimed = await this.deliveries.claim(waiting, now, leaseUntil, ROUND_SIZE);
      if (claimed.length === 0) return;
      const taken = new Set(claimed.map((delivery) => delivery.id));
      waiting = waiting.filter((id) => !taken.has(id));
      // Those whose turn has come go in the next round (another job holding one of them
      // leaves it to whichever claims it first); those due later are queued for then.
      const mine = new Set(waiting);
      const later: NextDelivery[] = [];
      for (const delivery of await this.attempt(claimed, now)) {
        if (delivery.nextAttemptAt > this.clock.now()) later.push(delivery);
        else if (!mine.has(delivery.id)) waiting.push(delivery.id);
      }
      await this.deliveryJobs.queue(later);
    }
  }

  /**
   * One attempt of each claimed delivery, side by side, each outcome recorded; answers the
   * deliveries whose turn has come (after a success, or a delivery that failed for good).
   */
  private async attempt(claimed: ClaimedDelivery[], now: Date): Promise<NextDelivery[]> {
    // The deliveries of a round are mostly of one webhook: its secrets are unsealed once.
    const signers = new Map<string, WebhookSigner>();
    const signerOf = (delivery: ClaimedDelivery) => {
      const key = `${delivery.secret} ${delivery.previousSecret ?? ''}`;
      const signer = signers.get(key) ?? this.signer(delivery, now);
      signers.set(key, signer);
      return signer;
    };
    const results = await Promise.all(
      claimed.map((delivery) => this.send(delivery, signerOf(delivery), now)),
    );
    const delivered: WebhookDeliveryAttempt[] = [];
    const next: NextDelivery[] = [];
    for (const [index, delivery] of claimed.entries()) {
      const result = results[index];
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
        delivered.push(attempt);
        continue;
      }
      const outcome = await this.dataSource.transaction((manager) =>
        this.recordFailure(delivery, attempt, result, manager),
      );
      if (outcome === 'failed') {
        const head = await this.deliveries.headOf(delivery.webhookId, delivery.resourceKey);
        if (head) next.push(head);
      }
    }
    next.push(...(await this.deliveries.recordDelivered(delivered, this.clock.now())));
    return next;
  }

  /** Signs with the webhook's secret, and its previous one until that expires. */
  private signer(delivery: ClaimedDelivery, now: Date): WebhookSigner {
    const secrets = [this.sealed.unseal(SECRET_PURPOSE, delivery.secret)];
    const { previousSecret, previousSecretExpiresAt } = delivery;
    if (previousSecret && previousSecretExpiresAt && previousSecretExpiresAt > now) {
      secrets.push(this.sealed.unseal(SECRET_PURPOSE, previousSecret));
    }
    return new WebhookSigner(secrets);
  }

  private async send(
    delivery: ClaimedDelivery,
    signer: WebhookSigner,
    now: Date,
  ): Promise<AttemptResult> {
    const body = JSON.stringify({ ...delivery.payload, installationId: delivery.webhookId });
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
          'webhook-signature': signer.sign(delivery.eventId, now, body),
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
  ): Promise<FailureOutcome> {
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
      await this.deliveryJobs.queue(
        [{ id: delivery.id, webhookId: delivery.webhookId, nextAttemptAt }],
        manager,
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
}

/** Text PostgreSQL can store: an answer's NUL characters are dropped. */
function storableText(text: string): string {
  return text.split('\u0000').join('');
}
