import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { OutboxEvent } from '../../platform/events/outbox-event.entity';
import { Webhook } from './webhook.entity';

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * One event for one webhook. `pending` until an attempt succeeds (`delivered`) or the retries
 * run out (`failed`); `nextAttemptAt` is when it may be tried, `leaseUntil` marks an attempt
 * under way (a worker that dies mid-attempt leaves it, and the delivery is taken up again once
 * it passes). Deliveries of one resource to one webhook go out in `sequence` order.
 */
@Entity('webhook_deliveries')
@Index('IDX_webhook_deliveries_webhook_id_sequence', ['webhookId', 'sequence'])
@Index('IDX_webhook_deliveries_webhook_id_status_sequence', ['webhookId', 'status', 'sequence'])
@Index('IDX_webhook_deliveries_pending_resource', ['webhookId', 'resourceKey', 'sequence'], {
  where: `"status" = 'pending'`,
})
@Index('IDX_webhook_deliveries_pending_next_attempt_at', ['nextAttemptAt'], {
  where: `"status" = 'pending'`,
})
@Index('IDX_webhook_deliveries_event_id', ['eventId'])
@Index('IDX_webhook_deliveries_finished_at', ['finishedAt'], {
  where: `"finished_at" IS NOT NULL`,
})
export class WebhookDelivery {
  @PrimaryColumn({
    type: 'varchar',
    length: 32,
    primaryKeyConstraintName: 'PK_webhook_deliveries',
  })
  id!: string;

  /** Order of creation: the order of delivery of one resource's events, and of the list. */
  @Index('UQ_webhook_deliveries_sequence', { unique: true })
  @Column({ type: 'bigint', generated: 'increment' })
  sequence!: string;

  @Column({ type: 'varchar', length: 32 })
  webhookId!: string;

  @ManyToOne(() => Webhook, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'webhook_id',
    foreignKeyConstraintName: 'FK_webhook_deliveries_webhook_id',
  })
  webhook?: Webhook;

  @Column({ type: 'varchar', length: 40 })
  eventId!: string;

  @ManyToOne(() => OutboxEvent, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_id', foreignKeyConstraintName: 'FK_webhook_deliveries_event_id' })
  event?: OutboxEvent;

  @Column({ type: 'varchar', length: 64 })
  eventType!: string;

  @Column({ type: 'varchar', length: 128 })
  resourceKey!: string;

  @Column({ type: 'varchar', length: 16 })
  status!: DeliveryStatus;

  @Column({ type: 'integer', default: 0 })
  attempts!: number;

  @Column({ type: 'timestamptz', nullable: true })
  nextAttemptAt!: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  leaseUntil!: Date | null;

  /** The delivery this one repeats (redeliverWebhookDelivery). */
  @Column({ type: 'varchar', length: 32, nullable: true })
  redeliveryOf!: string | null;

  @Column({ type: 'timestamptz' })
  createdAt!: Date;

  /** When it was delivered or failed for good. */
  @Column({ type: 'timestamptz', nullable: true })
  finishedAt!: Date | null;
}
