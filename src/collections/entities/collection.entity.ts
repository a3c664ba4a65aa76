import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Organization } from '../../orgs/entities/organization.entity';
import type { Role } from '../../platform/policy/roles';

/** A collection's default access: a role, `inherit` (from its parent, or the organization), or none. */
export type DefaultLevel = Role | 'inherit' | null;

/** A folder of spaces and sub-collections in an organization (GitBook's `Collection`). */
@Entity('collections')
@Index('IDX_collections_organization_id_parent_id_position', [
  'organizationId',
  'parentId',
  'position',
])
@Index('IDX_collections_organization_id_created_at', ['organizationId', 'createdAt', 'id'])
export class Collection {
  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'PK_collections' })
  id!: string;

  @Column({ type: 'varchar', length: 32 })
  organizationId!: string;

  @ManyToOne(() => Organization, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'organization_id',
    foreignKeyConstraintName: 'FK_collections_organization_id',
  })
  organization?: Organization;

  @Column({ type: 'varchar', length: 32, nullable: true })
  parentId!: string | null;

  @ManyToOne(() => Collection, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'parent_id', foreignKeyConstraintName: 'FK_collections_parent_id' })
  parent?: Collection;

  @Column({ type: 'varchar', length: 50 })
  title!: string;

  @Column({ type: 'varchar', length: 100, nullable: true })
  description!: string | null;

  @Column({ type: 'varchar', length: 16, nullable: true })
  defaultLevel!: DefaultLevel;

  /** Order among siblings; bigint, which pg hands back as a string. */
  @Column({ type: 'bigint' })
  position!: string;

  @Column({ type: 'timestamptz' })
  createdAt!: Date;

  @Column({ type: 'timestamptz' })
  updatedAt!: Date;
}
