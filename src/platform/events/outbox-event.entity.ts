import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** Who caused an event: a user (by the API), or Bindery itself (a job, a schedule). */
export type EventActor = { kind: 'user'; id: string } | { kind: 'system' };

/**
 * An event, written in the transaction of the change it tells of (the outbox): it exists if and
 * only if the change committed. The webhooks module delivers it; `dispatchedAt` records that it
 * has been handed to every webhook then subscribed.
 */
@Entity('events')
@Index('IDX_events_undispatched', ['sequence'], { where: '"dispatched_at" IS NULL' })
@Index('IDX_events_organization_id_created_at', ['organizationId', 'createdAt'])
export class OutboxEvent {
  /** `evt_…`: the `webhook-id` receivers drop repeats by. */
  @PrimaryColumn({ type: 'varchar', length: 40, primaryKeyConstraintName: 'PK_events' })
  id!: string;

  /** The order events were written in (commit order may differ by a few; delivery is by it). */
  @Index('UQ_events_sequence', { unique: true })
  @Column({ type: 'bigint', generated: 'increment' })
  sequence!: string;

  @Column({ type: 'varchar', length: 32 })
  organizationId!: string;

  /** `space_content_updated`, `change_request_merged`, … */
  @Column({ type: 'varchar', length: 64 })
  type!: string;

  /** The resource it is about (`space:<id>`): events of one resource are delivered in order. */
  @Column({ type: 'varchar', length: 128 })
  resourceKey!: string;

  /** The space and site it concerns, for webhooks limited to some. */
  @Column({ type: 'varchar', length: 32, nullable: true })
  spaceId!: string | null;

  @Column({ type: 'varchar', length: 32, nullable: true })
  siteId!: string | null;

  /** The body delivered (`installationId` aside, the webhook's own). */
  @Column({ type: 'jsonb' })
  payload!: Record<string, unknown>;

  @Column({ type: 'timestamptz' })
  createdAt!: Date;

  @Column({ type: 'timestamptz', nullable: true })
  dispatchedAt!: Date | null;
}
