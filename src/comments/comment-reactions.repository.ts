import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, type FindOptionsWhere } from 'typeorm';
import type { CommentNoun } from './comment-permissions';
import { CommentReaction, CommentReplyReaction } from './entities/comment-reaction.entity';

/** Where the reactions to a comment, or to a reply, are kept. */
const TABLES = {
  comment: {
    entity: CommentReaction,
    table: 'comment_reactions',
    column: 'comment_id',
    property: 'commentId',
  },
  reply: {
    entity: CommentReplyReaction,
    table: 'comment_reply_reactions',
    column: 'reply_id',
    property: 'replyId',
  },
} as const;

export type ReactionEntity = CommentReaction | CommentReplyReaction;

/** The `comment_reactions` and `comment_reply_reactions` tables: one row per user and emoji. */
@Injectable()
export class CommentReactionsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Adds the user's reactions `emojis` to the comment (or reply); those it has stay as they are. */
  async add(
    to: CommentNoun,
    subjectId: string,
    userId: string,
    emojis: string[],
    at: Date,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    const { table, column } = TABLES[to];
    await manager.query(
      `INSERT INTO ${table} (${column}, emoji, user_id, reacted_at)
         SELECT $1, e.emoji, $2, $3 FROM unnest($4::varchar[]) AS e(emoji)
         ON CONFLICT DO NOTHING`,
      [subjectId, userId, at, emojis],
    );
  }

  /** Removes the user's reactions `emojis` from the comment (or reply). */
  async remove(
    to: CommentNoun,
    subjectId: string,
    userId: string,
    emojis: string[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    const { table, column } = TABLES[to];
    await manager.query(
      `DELETE FROM ${table} WHERE ${column} = $1 AND user_id = $2 AND emoji = ANY($3::varchar[])`,
      [subjectId, userId, emojis],
    );
  }

  /** The reactions to the comments (or replies) `subjectIds`, with their users, oldest first. */
  findForSubjects(
    to: CommentNoun,
    subjectIds: string[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<ReactionEntity[]> {
    const { entity, property } = TABLES[to];
    return manager.find<ReactionEntity>(entity, {
      where: { [property]: In(subjectIds) } as FindOptionsWhere<ReactionEntity>,
      relations: { user: true },
      order: { reactedAt: 'ASC', userId: 'ASC', emoji: 'ASC' },
    });
  }
}
