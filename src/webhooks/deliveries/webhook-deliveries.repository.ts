import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { paginate } from '../../platform/pagination/keyset';
import type { Page } from '../../platform/pagination/page';
import type { PageQueryDto } from '../../platform/pagination/page-query.dto';
import { WebhookDeliveryAttempt } from '../entities/webhook-delivery-attempt.entity';
import { type DeliveryStatus, WebhookDelivery } from '../entities/webhook-delivery.entity';

/** A delivery claimed for an attempt, with what the attempt sends and where. */
export interface ClaimedDelivery {
  id: string;
  webhookId: string;
  eventId: string;
  resourceKey: string;
  attempts: number;
  /** The event's body, as recorded. */
  payload: Record<string, unknown>;
  url: string;
  /** The webhook's sealed secrets: the current one, the previous one until it expires. */
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
}

/** A pending delivery whose turn has come (or comes at `nextAttemptAt`). */
export interface NextDelivery {
  id: string;
  webhookId: string;
  nextAttemptAt: Date;
}

/**
 * The `webhook_deliveries` and `webhook_delivery_attempts` tables. A delivery is attempted
 * only when it is the first pending one of its webhook and resource (`IDX_…_pending_resource`),
 * due, and not leased to an attempt under way.
 */
@Injectable()
export class WebhookDeliveriesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * New deliveries, in one statement whatever their number (a dispatch makes hundreds); their
   * `sequence` follows the order given.
   */
  async insertMany(
    deliveries: WebhookDelivery[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    if (deliveries.length === 0) return;
    const column = <K extends keyof WebhookDelivery>(key: K) =>
      deliveries.map((delivery) => delivery[key]);
    await manager.query(
      `INSERT INTO webhook_deliveries
         (id, webhook_id, event_id, event_type, resource_key, status, attempts,
          next_attempt_at, lease_until, redelivery_of, created_at, finished_at)
       SELECT id, webhook_id, event_id, event_type, resource_key, status, attempts,
              next_attempt_at, lease_until, redelivery_of, created_at, finished_at
         FROM unnest($1::varchar[], $2::varchar[], $3::varchar[], $4::varchar[],
                     $5::varchar[], $6::varchar[], $7::integer[], $8::timestamptz[],
                     $9::timestamptz[], $10::varchar[], $11::timestamptz[], $12::timestamptz[])
              WITH ORDINALITY AS d(id, webhook_id, event_id, event_type, resource_key, status,
                                   attempts, next_attempt_at, lease_until, redelivery_of,
                                   created_at, finished_at, position)
        ORDER BY position`,
      [
        column('id'),
        column('webhookId'),
        column('eventId'),
        column('eventType'),
        column('resourceKey'),
        column('status'),
        column('attempts'),
        column('nextAttemptAt'),
        column('leaseUntil'),
        column('redeliveryOf'),
        column('createdAt'),
        column('finishedAt'),
      ],
    );
  }

  /** The webhook's deliveries, newest first, of one status if given. */
  page(
    webhookId: string,
    status: DeliveryStatus | undefined,
    query: PageQueryDto,
  ): Promise<Page<WebhookDelivery>> {
    const builder = this.dataSource.manager
      .getRepository(WebhookDelivery)
      .createQueryBuilder('delivery')
      .where('delivery.webhook_id = :webhookId', { webhookId });
    if (status) builder.andWhere('delivery.status = :status', { status });
    return paginate(builder, query, {
      keys: [{ sql: 'delivery.sequence', of: (delivery) => delivery.sequence }],
      direction: 'DESC',
    });
  }

  findInWebhook(
    webhookId: string,
    id: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<WebhookDelivery | null> {
    return manager.getRepository(WebhookDelivery).findOneBy({ id, webhookId });
  }

  attemptsOf(deliveryId: string): Promise<WebhookDeliveryAttempt[]> {
    return this.dataSource.manager
      .getRepository(WebhookDeliveryAttempt)
      .find({ where: { deliveryId }, order: { number: 'ASC' } });
  }

  /** The event a delivery carries (its body), for the detail of a delivery. */
  async payloadOf(eventId: string): Promise<Record<string, unknown> | null> {
    // `events` is the platform's outbox: read here, beside the delivery it belongs to.
    const rows: { payload: Record<string, unknown> }[] = await this.dataSource.manager.query(
      `SELECT payload FROM events WHERE id = $1`,
      [eventId],
    );
    return rows[0]?.payload ?? null;
  }

  /**
   * Takes, for an attempt until `leaseUntil`, up to `limit` of these deliveries (first in
   * delivery order) that may be attempted at `now`: pending, due, not leased to another
   * attempt, their webhook active, and no earlier delivery of their webhook and resource
   * pending (so at most one per resource). Answers what to send, in delivery order. The
   * events' bodies are read from the platform's `events` table in the same statement; rows
   * another attempt is taking at the same moment are left to it.
   */
  async claim(
    ids: string[],
    now: Date,
    leaseUntil: Date,
    limit: number,
  ): Promise<ClaimedDelivery[]> {
    if (ids.length === 0) return [];
    const rows: {
      id: string;
      webhook_id: string;
      event_id: string;
      resource_key: string;
      attempts: number;
      payload: Record<string, unknown>;
      url: string;
      secret: string;
      previous_secret: string | null;
      previous_secret_expires_at: Date | null;
    }[] = await this.dataSource.manager.query(
      `WITH candidates AS (
         SELECT d.id FROM webhook_deliveries d
          WHERE d.id = ANY($1)
            AND d.status = 'pending'
            AND d.next_attempt_at <= $2
            AND (d.lease_until IS NULL OR d.lease_until < $2)
            AND EXISTS (SELECT 1 FROM webhooks w WHERE w.id = d.webhook_id AND w.active)
            AND NOT EXISTS (
              SELECT 1 FROM webhook_deliveries e
               WHERE e.webhook_id = d.webhook_id AND e.resource_key = d.resource_key
                 AND e.status = 'pending' AND e.sequence < d.sequence)
          ORDER BY d.sequence
          LIMIT $4
          FOR UPDATE OF d SKIP LOCKED),
       claimed AS (
         UPDATE webhook_deliveries d SET lease_until = $3
           FROM candidates c WHERE d.id = c.id
         RETURNING d.id, d.webhook_id, d.event_id, d.resource_key, d.attempts, d.sequence)
       SELECT c.id, c.webhook_id, c.event_id, c.resource_key, c.attempts, ev.payload,
              w.url, w.secret, w.previous_secret, w.previous_secret_expires_at
         FROM claimed c
         JOIN events ev ON ev.id = c.event_id
         JOIN webhooks w ON w.id = c.webhook_id
        ORDER BY c.sequence`,
      [ids, now, leaseUntil, limit],
    );
    return rows.map((row) => ({
      id: row.id,
      webhookId: row.webhook_id,
      eventId: row.event_id,
      resourceKey: row.resource_key,
      attempts: row.attempts,
      payload: row.payload,
      url: row.url,
      secret: row.secret,
      previousSecret: row.previous_secret,
      previousSecretExpiresAt: row.previous_secret_expires_at
        ? new Date(row.previous_secret_expires_at)
        : null,
    }));
  }

  /**
   * Successful attempts (of different resources), in one statement: the attempts recorded,
   * their deliveries delivered, their webhooks' failure state cleared (`webhooks`, this
   * module's other table, in the same statement so that a round of deliveries costs one round
   * trip), and, for each, the next pending delivery of its webhook and resource read, whose
   * turn it now is. Deliveries whose webhook was deleted meanwhile are skipped.
   */
  async recordDelivered(
    attempts: WebhookDeliveryAttempt[],
    finishedAt: Date,
  ): Promise<NextDelivery[]> {
    if (attempts.length === 0) return [];
    const column = <K extends keyof WebhookDeliveryAttempt>(key: K) =>
      attempts.map((attempt) => attempt[key]);
    const rows: { id: string; webhook_id: string; next_attempt_at: Date }[] =
      await this.dataSource.manager.query(
        `WITH input AS (
           SELECT * FROM unnest($1::varchar[], $2::varchar[], $3::integer[],
                                $4::timestamptz[], $5::integer[], $6::integer[], $7::text[])
                    AS i(id, delivery_id, number, attempted_at, duration_ms, status_code, response)),
         attempt AS (
           INSERT INTO webhook_delivery_attempts
             (id, delivery_id, number, attempted_at, duration_ms, status_code, response, error)
           SELECT i.id, i.delivery_id, i.number, i.attempted_at, i.duration_ms, i.status_code,
                  i.response, NULL
             FROM input i
            WHERE EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.id = i.delivery_id)),
         delivered AS (
           UPDATE webhook_deliveries d
              SET status = 'delivered', attempts = i.number, next_attempt_at = NULL,
                  lease_until = NULL, finished_at = $8
             FROM input i
            WHERE d.id = i.delivery_id
          RETURNING d.webhook_id, d.resource_key, d.sequence),
         cleared AS (
           UPDATE webhooks SET consecutive_failures = 0, failing_since = NULL
            WHERE id IN (SELECT webhook_id FROM delivered)
              AND (consecutive_failures <> 0 OR failing_since IS NOT NULL))
         SELECT n.id, n.webhook_id, n.next_attempt_at
           FROM delivered d
           CROSS JOIN LATERAL (
             SELECT n.id, n.webhook_id, n.next_attempt_at FROM webhook_deliveries n
              WHERE n.webhook_id = d.webhook_id AND n.resource_key = d.resource_key
                AND n.status = 'pending' AND n.sequence > d.sequence
              ORDER BY n.sequence
              LIMIT 1) n`,
        [
          column('id'),
          column('deliveryId'),
          column('number'),
          column('attemptedAt'),
          column('durationMs'),
          column('statusCode'),
          column('response'),
          finishedAt,
        ],
      );
    return rows.map((row) => ({
      id: row.id,
      webhookId: row.webhook_id,
      nextAttemptAt: new Date(row.next_attempt_at),
    }));
  }

  async insertAttempt(attempt: WebhookDeliveryAttempt, manager: EntityManager): Promise<void> {
    await manager.insert(
      WebhookDeliveryAttempt,
      attempt as QueryDeepPartialEntity<WebhookDeliveryAttempt>,
    );
  }

  async update(
    id: string,
    changes: QueryDeepPartialEntity<WebhookDelivery>,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.update(WebhookDelivery, { id }, changes);
  }

  /** The first attempt's time of a delivery, if it has one. */
  async firstAttemptAt(deliveryId: string, manager: EntityManager): Promise<Date | null> {
    const rows: { attempted_at: Date }[] = await manager.query(
      `SELECT attempted_at FROM webhook_delivery_attempts
        WHERE delivery_id = $1 ORDER BY number LIMIT 1`,
      [deliveryId],
    );
    return rows[0] ? new Date(rows[0].attempted_at) : null;
  }

  /** The first pending delivery of a webhook and resource, with when it is due. */
  async headOf(
    webhookId: string,
    resourceKey: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<NextDelivery | null> {
    const rows: { id: string; next_attempt_at: Date }[] = await manager.query(
      `SELECT id, next_attempt_at FROM webhook_deliveries
        WHERE webhook_id = $1 AND resource_key = $2 AND status = 'pending'
        ORDER BY sequence LIMIT 1`,
      [webhookId, resourceKey],
    );
    const row = rows[0];
    return row ? { id: row.id, webhookId, nextAttemptAt: new Date(row.next_attempt_at) } : null;
  }

  /**
   * Deliveries that could be attempted at `now` but may have no job to do it (a worker died
   * mid-attempt, a job was lost): the due, unleased first pending delivery of each webhook
   * and resource, of active webhooks, at most `limit`, in delivery order.
   */
  async dueHeads(now: Date, limit: number): Promise<NextDelivery[]> {
    const rows: { id: string; webhook_id: string; next_attempt_at: Date }[] =
      await this.dataSource.manager.query(
        `SELECT d.id, d.webhook_id, d.next_attempt_at FROM webhook_deliveries d
         JOIN webhooks w ON w.id = d.webhook_id AND w.active
        WHERE d.status = 'pending'
          AND d.next_attempt_at <= $1
          AND (d.lease_until IS NULL OR d.lease_until < $1)
          AND NOT EXISTS (
            SELECT 1 FROM webhook_deliveries e
             WHERE e.webhook_id = d.webhook_id AND e.resource_key = d.resource_key
               AND e.status = 'pending' AND e.sequence < d.sequence)
        ORDER BY d.next_attempt_at, d.sequence
        LIMIT $2`,
        [now, limit],
      );
    return rows.map((row) => ({
      id: row.id,
      webhookId: row.webhook_id,
      nextAttemptAt: new Date(row.next_attempt_at),
    }));
  }

  /** The first pending delivery of each resource of a webhook (to send once it is enabled). */
  async pendingHeadsOf(webhookId: string, manager: EntityManager): Promise<string[]> {
    const rows: { id: string }[] = await manager.query(
      `SELECT DISTINCT ON (resource_key) id FROM webhook_deliveries
        WHERE webhook_id = $1 AND status = 'pending'
        ORDER BY resource_key, sequence
        LIMIT 1000`,
      [webhookId],
    );
    return rows.map((row) => row.id);
  }

  /** Removes the deliveries finished before `cutoff` (their attempts go with them). */
  async purgeFinishedBefore(cutoff: Date): Promise<number> {
    const rows: { count: string }[] = await this.dataSource.manager.query(
      `WITH gone AS (DELETE FROM webhook_deliveries
                      WHERE finished_at IS NOT NULL AND finished_at < $1 RETURNING 1)
       SELECT count(*) AS count FROM gone`,
      [cutoff],
    );
    return Number(rows[0]?.count ?? 0);
  }
}
