import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ChangeRequest } from '../../change-requests/entities/change-request.entity';
import { Revision } from '../../content-engine/entities/revision.entity';
import type { JSONDocument } from '../../content-engine/documents/document';
import { Space } from '../../spaces/entities/space.entity';
import { User } from '../../users/entities/user.entity';

export const COMMENT_STATUSES = ['open', 'resolved'] as const;
export type CommentStatus = (typeof COMMENT_STATUSES)[number];

/**
 * A comment in a thread: a space's own comments (`changeRequestId` null) or a change request's.
 * It targets the revision it was made on (the space's primary, or the change request's head),
 * optionally a page of it, a block of that page, a cell of that block's table. The open count of
 * its thread (`spaces.comments` or `change_requests.comments`) follows every insert, status
 * change and delete, in the same transaction. Belongs to its organization through its space.
 */
@Entity('comments')
@Index('IDX_comments_space_id_posted_at', ['spaceId', 'postedAt', 'id'], {
  where: `"change_request_id" IS NULL`,
})
@Index('IDX_comments_change_request_id_posted_at', ['changeRequestId', 'postedAt', 'id'])
export class Comment {
  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'PK_comments' })
  id!: string;

  @Column({ type: 'varchar', length: 32 })
  spaceId!: string;

  @ManyToOne(() => Space, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'space_id', foreignKeyConstraintName: 'FK_comments_space_id' })
  space?: Space;

  /** The change request whose thread it is in; null for the space's own comments. */
  @Column({ type: 'varchar', length: 32, nullable: true })
  changeRequestId!: string | null;

  @ManyToOne(() => ChangeRequest, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'change_request_id',
    foreignKeyConstraintName: 'FK_comments_change_request_id',
  })
  changeRequest?: ChangeRequest | null;

  /** The revision commented on. */
  @Column({ type: 'varchar', length: 32 })
  revision!: string;

  @ManyToOne(() => Revision)
  @JoinColumn({ name: 'revision', foreignKeyConstraintName: 'FK_comments_revision' })
  commentedRevision?: Revision;

  /** The page of `revision` it is about, if any. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  pageId!: string | null;

  /** The key of the block (or inline) of that page it is about, if any. */
  @Column({ type: 'varchar', length: 256, nullable: true })
  nodeId!: string | null;

  /** With a table node: the record (row) and definition (column) of the cell. */
  @Column({ type: 'varchar', length: 256, nullable: true })
  tableCellRecord!: string | null;

  @Column({ type: 'varchar', length: 256, nullable: true })
  tableCellDefinition!: string | null;

  @Index('IDX_comments_author_id')
  @Column({ type: 'varchar', length: 32 })
  authorId!: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'author_id', foreignKeyConstraintName: 'FK_comments_author_id' })
  author?: User;

  @Column({ type: 'jsonb' })
  body!: JSONDocument;

  /** The markdown it was written in, served as is with `format=markdown`; null for a document. */
  @Column({ type: 'text', nullable: true })
  bodyMarkdown!: string | null;

  @Column({ type: 'varchar', length: 16 })
  status!: CommentStatus;

  @Column({ type: 'timestamptz', nullable: true })
  resolvedAt!: Date | null;

  @Index('IDX_comments_resolved_by')
  @Column({ type: 'varchar', length: 32, nullable: true })
  resolvedBy!: string | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'resolved_by', foreignKeyConstraintName: 'FK_comments_resolved_by' })
  resolver?: User | null;

  @Column({ type: 'timestamptz' })
  postedAt!: Date;

  /** When its author last changed its body; null while never edited. */
  @Column({ type: 'timestamptz', nullable: true })
  editedAt!: Date | null;
}
