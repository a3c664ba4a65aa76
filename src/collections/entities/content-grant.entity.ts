import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Member } from '../../orgs/entities/member.entity';
import { Organization } from '../../orgs/entities/organization.entity';
import { Team } from '../../orgs/teams/entities/team.entity';
import type { Role } from '../../platform/policy/roles';

export const CONTENT_RESOURCE_TYPES = ['collection', 'space'] as const;
export type ContentResourceType = (typeof CONTENT_RESOURCE_TYPES)[number];
/** What a grant is on: a collection or space (content), or a site. */
export type GrantedResourceType = ContentResourceType | 'site';

/**
 * A role on one collection, space or site given to one organization member or one team. Grants
 * on a collection reach everything inside it; grants on a site reach the site (its settings and
 * structure, its published face), not the spaces it publishes. Removing the member or the team
 * removes its grants.
 */
@Entity('content_grants')
@Check('CHK_content_grants_grantee', `("user_id" IS NULL) <> ("team_id" IS NULL)`)
@Index('UQ_content_grants_resource_user', ['resourceType', 'resourceId', 'userId'], {
  unique: true,
  where: `"user_id" IS NOT NULL`,
})
@Index('UQ_content_grants_resource_team', ['resourceType', 'resourceId', 'teamId'], {
  unique: true,
  where: `"team_id" IS NOT NULL`,
})
@Index('IDX_content_grants_organization_id_user_id', ['organizationId', 'userId'])
@Index('IDX_content_grants_organization_id_team_id', ['organizationId', 'teamId'])
@Index('IDX_content_grants_resource_created_at', ['resourceType', 'resourceId', 'createdAt', 'id'])
export class ContentGrant {
  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'PK_content_grants' })
  id!: string;

  @Column({ type: 'varchar', length: 32 })
  organizationId!: string;

  @ManyToOne(() => Organization, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'organization_id',
    foreignKeyConstraintName: 'FK_content_grants_organization_id',
  })
  organization?: Organization;

  @Column({ type: 'varchar', length: 16 })
  resourceType!: GrantedResourceType;

  @Column({ type: 'varchar', length: 32 })
  resourceId!: string;

  @Column({ type: 'varchar', length: 32, nullable: true })
  userId!: string | null;

  @ManyToOne(() => Member, { onDelete: 'CASCADE' })
  @JoinColumn([
    {
      name: 'organization_id',
      referencedColumnName: 'organizationId',
      foreignKeyConstraintName: 'FK_content_grants_member',
    },
    {
      name: 'user_id',
      referencedColumnName: 'userId',
      foreignKeyConstraintName: 'FK_content_grants_member',
    },
  ])
  member?: Member;

  @Column({ type: 'varchar', length: 32, nullable: true })
  teamId!: string | null;

  @ManyToOne(() => Team, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'team_id', foreignKeyConstraintName: 'FK_content_grants_team_id' })
  team?: Team;

  @Column({ type: 'varchar', length: 16 })
  role!: Role;

  @Column({ type: 'timestamptz' })
  createdAt!: Date;
}
