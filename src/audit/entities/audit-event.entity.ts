import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** Who made a change: a user (with the API token used) or the instance administrator. */
export type AuditActorType = 'user' | 'support' | 'integration' | 'installation';

/**
 * One successful write through the API, recorded after it committed. It keeps no foreign key:
 * an event outlives the organization, user, token or resource it names (a deletion is recorded
 * too), until the retention job removes it.
 */
@Entity('audit_events')
@Index('IDX_audit_events_organization_id_occurred_at', ['organizationId', 'occurredAt', 'id'])
@Index('IDX_audit_events_organization_id_action', ['organizationId', 'action', 'occurredAt', 'id'])
@Index('IDX_audit_events_organization_id_actor_id', [
  'organizationId',
  'actorId',
  'occurredAt',
  'id',
])
@Index('IDX_audit_events_organization_id_target_id', [
  'organizationId',
  'targetId',
  'occurredAt',
  'id',
])
@Index('IDX_audit_events_occurred_at', ['occurredAt'])
export class AuditEvent {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_audit_events' })
  id!: string;

  /** null: an instance-level event (the admin API, a user's own tokens), listed nowhere. */
  @Column({ type: 'varchar', length: 32, nullable: true })
  organizationId!: string | null;

  @Column({ type: 'timestamptz' })
  occurredAt!: Date;

  /** Stable action name (`space.created`). */
  @Column({ type: 'varchar', length: 100 })
  action!: string;

  /** The route's GitBook `operationId`. */
  @Column({ type: 'varchar', length: 100 })
  operationId!: string;

  @Column({ type: 'varchar', length: 16 })
  actorType!: AuditActorType;

  /**
   * The user's id, `admin` for the instance administrator, or the integration's or
   * installation's id.
   */
  @Column({ type: 'varchar', length: 64 })
  actorId!: string;

  @Column({ type: 'varchar', length: 256, nullable: true })
  actorLabel!: string | null;

  /** The API token record the user called with. */
  @Column({ type: 'varchar', length: 32, nullable: true })
  tokenId!: string | null;

  @Column({ type: 'varchar', length: 64 })
  targetType!: string;

  @Column({ type: 'varchar', length: 256 })
  targetId!: string;

  @Column({ type: 'varchar', length: 256, nullable: true })
  targetLabel!: string | null;

  @Column({ type: 'varchar', length: 8 })
  method!: string;

  /** The request's `X-Request-Id`. */
  @Column({ type: 'varchar', length: 128, nullable: true })
  requestId!: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  ipAddress!: string | null;

  @Column({ type: 'varchar', length: 512, nullable: true })
  userAgent!: string | null;

  /** The request body's fields, secrets redacted, at most a few kilobytes. */
  @Column({ type: 'jsonb', nullable: true })
  changes!: Record<string, unknown> | null;
}
