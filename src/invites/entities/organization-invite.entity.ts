import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Collection } from '../../collections/entities/collection.entity';
import type { Role } from '../../platform/policy/roles';
import { Space } from '../../spaces/entities/space.entity';
import { User } from '../../users/entities/user.entity';
import { Organization } from '../../orgs/entities/organization.entity';

/**
 * An invite link to an organization: whoever holds its id may join with `role` (null: as a
 * guest) while the organization has `inviteLinks` on. An invite to one space or collection
 * (`spaceId` or `collectionId`) also grants `level` there; its `role` is null, so that a user
 * who is not a member yet joins as a guest. The id is the secret of the link.
 */
@Entity('organization_invites')
@Index('IDX_organization_invites_organization_id_created_at', ['organizationId', 'createdAt', 'id'])
@Index('IDX_organization_invites_space_id', ['spaceId'], { where: `"space_id" IS NOT NULL` })
@Index('IDX_organization_invites_collection_id', ['collectionId'], {
  where: `"collection_id" IS NOT NULL`,
})
@Check(
  'CHK_organization_invites_target',
  `("space_id" IS NULL OR "collection_id" IS NULL) AND (("level" IS NULL) = ("space_id" IS NULL AND "collection_id" IS NULL))`,
)
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

  /** The space a space invite is to. */
  @Column({ type: 'varchar', length: 32, nullable: true })
  spaceId!: string | null;

  @ManyToOne(() => Space, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'space_id', foreignKeyConstraintName: 'FK_organization_invites_space_id' })
  space?: Space | null;

  /** The collection a collection invite is to. */
  @Column({ type: 'varchar', length: 32, nullable: true })
  collectionId!: string | null;

  @ManyToOne(() => Collection, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'collection_id',
    foreignKeyConstraintName: 'FK_organization_invites_collection_id',
  })
  collection?: Collection | null;

  /** The role a space or collection invite grants there; null for an organization invite. */
  @Column({ type: 'varchar', length: 16, nullable: true })
  level!: Role | null;

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
