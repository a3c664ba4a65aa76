import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ContentObject } from './content-object.entity';

export const REVISION_TYPES = ['edits', 'merge', 'rollback', 'update', 'computed'] as const;
export type RevisionType = (typeof REVISION_TYPES)[number];

/** Git commit details of a revision imported from or exported to Git. */
export interface RevisionGit {
  oid: string;
  message: string;
  createdByDocs: boolean;
  url?: string;
  ref?: string;
}

/**
 * An immutable state of a space's content: a root tree (a content object) and the revisions
 * it was made from. Rows are never updated; they go with their space.
 */
@Entity('revisions')
@Index('IDX_revisions_space_id_created_at', ['spaceId', 'createdAt', 'id'])
export class Revision {
  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'PK_revisions' })
  id!: string;

  @Column({ type: 'varchar', length: 32 })
  spaceId!: string;

  // Foreign keys to the tables of modules above the engine name their entities by name, so the
  // engine imports none of them; the relations exist for the keys only and are never loaded.
  @ManyToOne('Space', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'space_id', foreignKeyConstraintName: 'FK_revisions_space_id' })
  protected readonly space?: never;

  @Column({ type: 'varchar', length: 32, array: true })
  parents!: string[];

  @Column({ type: 'varchar', length: 16 })
  type!: RevisionType;

  @Index('IDX_revisions_tree')
  @Column({ type: 'char', length: 64 })
  tree!: string;

  @ManyToOne(() => ContentObject)
  @JoinColumn({ name: 'tree', foreignKeyConstraintName: 'FK_revisions_tree' })
  treeObject?: ContentObject;

  @Index('IDX_revisions_author_id')
  @Column({ type: 'varchar', length: 32, nullable: true })
  authorId!: string | null;

  @ManyToOne('User', { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'author_id', foreignKeyConstraintName: 'FK_revisions_author_id' })
  protected readonly author?: never;

  @Column({ type: 'jsonb', nullable: true })
  git!: RevisionGit | null;

  @Column({ type: 'timestamptz' })
  createdAt!: Date;
}
