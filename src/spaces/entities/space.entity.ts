import {
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  type Relation,
} from 'typeorm';
import type { DefaultLevel } from '../../collections/entities/collection.entity';
import { Collection } from '../../collections/entities/collection.entity';
import { Revision } from '../../content-engine/entities/revision.entity';
import { Organization } from '../../orgs/entities/organization.entity';
import { User } from '../../users/entities/user.entity';

export const CONTENT_VISIBILITIES = [
  'public',
  'unlisted',
  'share-link',
  'visitor-auth',
  'in-collection',
  'private',
] as const;
export type ContentVisibility = (typeof CONTENT_VISIBILITIES)[number];

export const SPACE_EDIT_MODES = ['live', 'locked'] as const;
export type SpaceEditMode = (typeof SPACE_EDIT_MODES)[number];

/** GitBook's `MergeRulesSpaceConfiguration`, validated on the way in. */
export type SpaceMergeRules =
  { type: 'inherit' } | { type: 'none' } | { type: 'rules'; rules: object[] };

/** GitBook's `GitSyncState`, written by the Git integration. */
export interface GitSyncState {
  repoName?: string;
  installationProvider?: 'github' | 'gitlab' | 'github-legacy';
  integration?: string;
  url?: string;
  updatedAt?: string;
}

/** GitBook's `VisitorAuth`. */
export type VisitorAuth = { backend: 'custom' } | { backend: 'integration'; integration: string };

/**
 * A space: content (its primary revision) in an organization, at the root or in a collection,
 * ordered among its siblings (spaces and collections share `position` within a parent).
 * Deleting sets `deletedAt`; the purge job removes it for good seven days later. The counts
 * are kept true by the modules that change them, in the same transaction as the change.
 */
@Entity('spaces')
@Index('IDX_spaces_organization_id_created_at', ['organizationId', 'createdAt', 'id'], {
  where: `"deleted_at" IS NULL`,
})
@Index('IDX_spaces_parent_id_created_at', ['parentId', 'createdAt', 'id'], {
  where: `"deleted_at" IS NULL`,
})
@Index(
  'IDX_spaces_organization_id_parent_id_position',
  ['organizationId', 'parentId', 'position'],
  {
    where: `"deleted_at" IS NULL`,
  },
)
@Index('IDX_spaces_deleted_at', ['deletedAt'], { where: `"deleted_at" IS NOT NULL` })
export class Space {
  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'PK_spaces' })
  id!: string;

  @Column({ type: 'varchar', length: 32 })
  organizationId!: string;

  @ManyToOne(() => Organization, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organization_id', foreignKeyConstraintName: 'FK_spaces_organization_id' })
  organization?: Organization;

  /** The collection it is in; null at the organization root (or once that collection is gone). */
  @Column({ type: 'varchar', length: 32, nullable: true })
  parentId!: string | null;

  @ManyToOne(() => Collection, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'parent_id', foreignKeyConstraintName: 'FK_spaces_parent_id' })
  parent?: Collection | null;

  @Column({ type: 'varchar', length: 50 })
  title!: string;

  @Column({ type: 'varchar', length: 50, nullable: true })
  emoji!: string | null;

  /** An icon URL, the alternative to `emoji`. */
  @Column({ type: 'varchar', length: 2048, nullable: true })
  icon!: string | null;

  @Column({ type: 'varchar', length: 16 })
  visibility!: ContentVisibility;

  @Column({ type: 'varchar', length: 8 })
  editMode!: SpaceEditMode;

  @Column({ type: 'varchar', length: 16, nullable: true })
  defaultLevel!: DefaultLevel;

  @Column({ type: 'varchar', length: 8, nullable: true })
  language!: string | null;

  @Column({ type: 'jsonb' })
  mergeRules!: SpaceMergeRules;

  @Column({ type: 'jsonb', nullable: true })
  gitSync!: GitSyncState | null;

  @Column({ type: 'jsonb', nullable: true })
  visitorAuth!: VisitorAuth | null;

  /** The primary revision; checked at commit, so a space and its first revision go in together. */
  @Index('IDX_spaces_revision_id')
  @Column({ type: 'varchar', length: 32 })
  revisionId!: string;

  @ManyToOne(() => Revision, { deferrable: 'INITIALLY DEFERRED' })
  @JoinColumn({ name: 'revision_id', foreignKeyConstraintName: 'FK_spaces_revision_id' })
  revision?: Relation<Revision>;

  /** Order among the spaces and collections of its parent; bigint, handed back as a string. */
  @Column({ type: 'bigint' })
  position!: string;

  /** Open comments. */
  @Column({ type: 'integer', default: 0 })
  comments!: number;

  @Column({ type: 'integer', default: 0 })
  changeRequests!: number;

  @Column({ type: 'integer', default: 0 })
  changeRequestsOpen!: number;

  @Column({ type: 'integer', default: 0 })
  changeRequestsDraft!: number;

  @Index('IDX_spaces_created_by')
  @Column({ type: 'varchar', length: 32, nullable: true })
  createdBy!: string | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'created_by', foreignKeyConstraintName: 'FK_spaces_created_by' })
  creator?: User | null;

  @Column({ type: 'timestamptz' })
  createdAt!: Date;

  @Column({ type: 'timestamptz' })
  updatedAt!: Date;

  @Column({ type: 'timestamptz', nullable: true })
  deletedAt!: Date | null;
}
