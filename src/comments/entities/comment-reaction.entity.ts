import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { User } from '../../users/entities/user.entity';
import { Comment } from './comment.entity';
import { CommentReply } from './comment-reply.entity';

/** Longest emoji of a reaction, in characters. */
export const MAX_EMOJI_CHARS = 32;

/** One user's reaction with one emoji to a comment: at most one row per user and emoji. */
@Entity('comment_reactions')
export class CommentReaction {
  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'PK_comment_reactions' })
  commentId!: string;

  @ManyToOne(() => Comment, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'comment_id', foreignKeyConstraintName: 'FK_comment_reactions_comment_id' })
  comment?: Comment;

  @PrimaryColumn({
    type: 'varchar',
    length: MAX_EMOJI_CHARS,
    primaryKeyConstraintName: 'PK_comment_reactions',
  })
  emoji!: string;

  @Index('IDX_comment_reactions_user_id')
  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'PK_comment_reactions' })
  userId!: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'FK_comment_reactions_user_id' })
  user?: User;

  @Column({ type: 'timestamptz' })
  reactedAt!: Date;
}

/** One user's reaction with one emoji to a reply: at most one row per user and emoji. */
@Entity('comment_reply_reactions')
export class CommentReplyReaction {
  @PrimaryColumn({
    type: 'varchar',
    length: 32,
    primaryKeyConstraintName: 'PK_comment_reply_reactions',
  })
  replyId!: string;

  @ManyToOne(() => CommentReply, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'reply_id',
    foreignKeyConstraintName: 'FK_comment_reply_reactions_reply_id',
  })
  reply?: CommentReply;

  @PrimaryColumn({
    type: 'varchar',
    length: MAX_EMOJI_CHARS,
    primaryKeyConstraintName: 'PK_comment_reply_reactions',
  })
  emoji!: string;

  @Index('IDX_comment_reply_reactions_user_id')
  @PrimaryColumn({
    type: 'varchar',
    length: 32,
    primaryKeyConstraintName: 'PK_comment_reply_reactions',
  })
  userId!: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'FK_comment_reply_reactions_user_id' })
  user?: User;

  @Column({ type: 'timestamptz' })
  reactedAt!: Date;
}
