import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { Role } from '../../../platform/policy/roles';
import { User } from '../../../users/entities/user.entity';
import { Organization } from '../../entities/organization.entity';

/**
 * An invite link to an organization: whoever holds its id may join with `role` (null: as a
 * guest) while the organization has `inviteLinks` on. The id is the secret of the link.
 */
@Entity('organization_invites')
@Index('IDX_organization_invites_organization_id_created_at', ['organizationId', 'createdAt', 'id'])
export class OrganizationInvite {
  @PrimaryColumn({
    type: 'varchar',
    length: 32,
    primaryKeyConstraintName: 'PK_organization_invites',
  })
  id!: string;

  @Column({ type: 'varchar', length: 32 })
  organizationId!: string;

  @ManyToOne(() => Organization, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'organization_id',
    foreignKeyConstraintName: 'FK_organization_invites_organization_id',
  })
  organization?: Organization;

  @Column({ type: 'varchar', length: 16, nullable: true })
  role!: Role | null;

  /** The admin who created it; null once that user is gone. */
  @Column({ type: 'varchar', length: 32, nullable: true })
  createdBy!: string | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL' })
  @JoinColumn({
    name: 'created_by',
    foreignKeyConstraintName: 'FK_organization_invites_created_by',
  })
  creator?: User;

  @Column({ type: 'timestamptz' })
  createdAt!: Date;
}
