import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Organization } from '../../orgs/entities/organization.entity';

/**
 * An organization's endpoint for events: which it wants (`events`, `*` for all; limited to some
 * spaces or sites), its signing secret (sealed; the previous one stays valid until
 * `previousSecretExpiresAt` after a rotation) and its failure state: failed attempts in a row
 * since its last success, and why it was disabled.
 */
@Entity('webhooks')
@Index('IDX_webhooks_organization_id_created_at', ['organizationId', 'createdAt', 'id'])
export class Webhook {
  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'PK_webhooks' })
  id!: string;

  @Column({ type: 'varchar', length: 32 })
  organizationId!: string;

  @ManyToOne(() => Organization, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organization_id', foreignKeyConstraintName: 'FK_webhooks_organization_id' })
  organization?: Organization;

  @Column({ type: 'text' })
  url!: string;

  @Column({ type: 'varchar', length: 64, array: true })
  events!: string[];

  /** Empty: every space (and events about no space). */
  @Column({ type: 'varchar', length: 32, array: true })
  spaceIds!: string[];

  @Column({ type: 'varchar', length: 32, array: true })
  siteIds!: string[];

  @Column({ type: 'boolean' })
  active!: boolean;

  /** `whsec_…`, sealed with the instance key (SealedText). */
  @Column({ type: 'text' })
  secret!: string;

  @Column({ type: 'text', nullable: true })
  previousSecret!: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  previousSecretExpiresAt!: Date | null;

  /** Failed attempts since the last successful one. */
  @Column({ type: 'integer', default: 0 })
  consecutiveFailures!: number;

  /** The first of those failed attempts; null after a success. */
  @Column({ type: 'timestamptz', nullable: true })
  failingSince!: Date | null;

  @Column({ type: 'text', nullable: true })
  disabledReason!: string | null;

  @Column({ type: 'timestamptz' })
  createdAt!: Date;

  @Column({ type: 'timestamptz' })
  updatedAt!: Date;
}
