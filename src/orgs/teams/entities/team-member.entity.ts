import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Member } from '../../entities/member.entity';
import { Team } from './team.entity';

export const TEAM_ROLES = ['owner', 'member'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

/**
 * A member's place in a team. It references the organization membership, so removing a
 * member from the organization removes it from every team at once.
 */
@Entity('team_members')
@Index('IDX_team_members_team_id_added_at', ['teamId', 'addedAt', 'userId'])
@Index('IDX_team_members_organization_id_user_id_added_at', [
  'organizationId',
  'userId',
  'addedAt',
  'teamId',
])
export class TeamMember {
  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'PK_team_members' })
  teamId!: string;

  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'PK_team_members' })
  userId!: string;

  @Column({ type: 'varchar', length: 32 })
  organizationId!: string;

  @ManyToOne(() => Team, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'team_id', foreignKeyConstraintName: 'FK_team_members_team_id' })
  team?: Team;

  @ManyToOne(() => Member, { onDelete: 'CASCADE' })
  @JoinColumn([
    {
      name: 'organization_id',
      referencedColumnName: 'organizationId',
      foreignKeyConstraintName: 'FK_team_members_member',
    },
    {
      name: 'user_id',
      referencedColumnName: 'userId',
      foreignKeyConstraintName: 'FK_team_members_member',
    },
  ])
  member?: Member;

  @Column({ type: 'varchar', length: 16, default: 'member' })
  role!: TeamRole;

  @Column({ type: 'timestamptz' })
  addedAt!: Date;
}
