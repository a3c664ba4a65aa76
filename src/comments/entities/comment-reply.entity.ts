import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { JSONDocument } from '../../content-engine/documents/document';
import { User } from '../../users/entities/user.entity';
import { Comment } from './comment.entity';

/** A reply to a comment; it goes with its comment. */
@Entity('comment_replies')
@Index('IDX_comment_replies_comment_id_posted_at', ['commentId', 'postedAt', 'id'])
export class CommentReply {
  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'PK_comment_replies' })
  id!: string;

  @Column({ type: 'varchar', length: 32 })
  commentId!: string;

  @ManyToOne(() => Comment, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'comment_id', foreignKeyConstraintName: 'FK_comment_replies_comment_id' })
  comment?: Comment;

  @Index('IDX_comment_replies_author_id')
  @Column({ type: 'varchar', length: 32 })
  authorId!: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'author_id', foreignKeyConstraintName: 'FK_comment_replies_author_id' })
  author?: User;

  @Column({ type: 'jsonb' })
  body!: JSONDocument;

  /** The markdown it was written in, served as is with `format=markdown`; null for a document. */
  @Column({ type: 'text', nullable: true })
  bodyMarkdown!: string | null;

  @Column({ type: 'timestamptz' })
  postedAt!: Date;

  @Column({ type: 'timestamptz', nullable: true })
  editedAt!: Date | null;
}
