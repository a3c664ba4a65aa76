import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { Role } from '../../platform/policy/roles';
import { User } from '../../users/entities/user.entity';
import { Organization } from './organization.entity';

/** A user's membership of an organization; `role` null is a guest. */
@Entity('organization_members')
@Index('IDX_organization_members_user_id', ['userId', 'organizationId'])
@Index('IDX_organization_members_organization_id_joined_at', [
  'organizationId',
  'joinedAt',
  'userId',
])
@Index('IDX_organization_members_organization_id_last_seen_at', [
  'organizationId',
  'lastSeenAt',
  'userId',
])
export class Member {
  @PrimaryColumn({
    type: 'varchar',
    length: 32,
    primaryKeyConstraintName: 'PK_organization_members',
  })
  organizationId!: string;

  @PrimaryColumn({
    type: 'varchar',
    length: 32,
    primaryKeyConstraintName: 'PK_organization_members',
  })
  userId!: string;

  @ManyToOne(() => Organization, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'organization_id',
    foreignKeyConstraintName: 'FK_organization_members_organization_id',
  })
  organization?: Organization;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'FK_organization_members_user_id' })
  user?: User;

  @Column({ type: 'varchar', length: 16, nullable: true })
  role!: Role | null;

  @Column({ type: 'boolean', default: false })
  sso!: boolean;

  @Column({ type: 'boolean', default: false })
  disabled!: boolean;

  @Column({ type: 'timestamptz' })
  joinedAt!: Date;

  @Column({ type: 'timestamptz', nullable: true })
  lastSeenAt!: Date | null;
}
