import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { WebhookDelivery } from './webhook-delivery.entity';

/** One request of a delivery: what the endpoint answered (its first KB), or why it failed. */
@Entity('webhook_delivery_attempts')
@Index('UQ_webhook_delivery_attempts_delivery_id_number', ['deliveryId', 'number'], {
  unique: true,
})
export class WebhookDeliveryAttempt {
  @PrimaryColumn({
    type: 'varchar',
    length: 32,
    primaryKeyConstraintName: 'PK_webhook_delivery_attempts',
  })
  id!: string;

  @Column({ type: 'varchar', length: 32 })
  deliveryId!: string;

  @ManyToOne(() => WebhookDelivery, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'delivery_id',
    foreignKeyConstraintName: 'FK_webhook_delivery_attempts_delivery_id',
  })
  delivery?: WebhookDelivery;

  /** 1 for the first attempt. */
  @Column({ type: 'integer' })
  number!: number;

  @Column({ type: 'timestamptz' })
  attemptedAt!: Date;

  @Column({ type: 'integer' })
  durationMs!: number;

  /** The endpoint's status; null when it gave none (network error, timeout, refused address). */
  @Column({ type: 'integer', nullable: true })
  statusCode!: number | null;

  /** The first KB of the endpoint's answer. */
  @Column({ type: 'text', nullable: true })
  response!: string | null;

  @Column({ type: 'text', nullable: true })
  error!: string | null;
}
