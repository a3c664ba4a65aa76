import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { Role } from '../../platform/policy/roles';
import { Organization } from '../../orgs/entities/organization.entity';
import { User } from '../../users/entities/user.entity';

/**
 * An invitation emailed to an address of no user yet: whoever follows its signed link before
 * `expiresAt` becomes a user with that address and a member with `role` (null: a guest). One
 * per address and organization: inviting the address again renews it (a new link and expiry).
 * Accepting or revoking it deletes it.
 */
@Entity('email_invites')
@Index('IDX_email_invites_organization_id_created_at', ['organizationId', 'createdAt', 'id'])
@Index('UQ_email_invites_organization_id_email', ['organizationId', 'email'], { unique: true })
export class EmailInvite {
  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'PK_email_invites' })
  id!: string;

  @Column({ type: 'varchar', length: 32 })
  organizationId!: string;

  @ManyToOne(() => Organization, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'organization_id',
    foreignKeyConstraintName: 'FK_email_invites_organization_id',
  })
  organization?: Organization;

  /** The address invited, lower-cased. */
  @Column({ type: 'varchar', length: 320 })
  email!: string;

  @Column({ type: 'varchar', length: 16, nullable: true })
  role!: Role | null;

  /** The member joins as an SSO member. */
  @Column({ type: 'boolean' })
  sso!: boolean;

  /** The admin who invited; null once that user is gone. */
  @Index('IDX_email_invites_invited_by')
  @Column({ type: 'varchar', length: 32, nullable: true })
  invitedBy!: string | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'invited_by', foreignKeyConstraintName: 'FK_email_invites_invited_by' })
  inviter?: User | null;

  @Column({ type: 'timestamptz' })
  createdAt!: Date;

  /** When its link stops working: a whole second, as the link carries it. */
  @Column({ type: 'timestamptz' })
  expiresAt!: Date;
}
