import { Injectable } from '@nestjs/common';
import { EntityManager, In, type FindOptionsWhere } from 'typeorm';
import { Clock } from '../platform/clock/clock';
import { invalidInput } from '../platform/errors/domain-error';
import type { CommentNoun } from './comment-permissions';
import type { ReactionRow } from './comment-thread';
import type { UpdateCommentDto } from './dto/comment.dto';
import { CommentReaction, CommentReplyReaction } from './entities/comment-reaction.entity';

/** The emojis an update adds and removes, each once. */
export interface ReactionChanges {
  added: string[];
  removed: string[];
}

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

type ReactionEntity = CommentReaction | CommentReplyReaction;

/**
 * The reactions to comments and to replies, alike: one row per user and emoji, with no more
 * than one of each.
 */
@Injectable()
export class CommentReactionsService {
  constructor(private readonly clock: Clock) {}

  /** Adds and removes the caller's reactions; adding one it has, or removing one it has not, does nothing. */
  async react(
    manager: EntityManager,
    to: CommentNoun,
    subjectId: string,
    userId: string,
    { added, removed }: ReactionChanges,
  ): Promise<void> {
    const { table, column } = TABLES[to];
    if (added.length > 0) {
      await manager.query(
        `INSERT INTO ${table} (${column}, emoji, user_id, reacted_at)
         SELECT $1, e.emoji, $2, $3 FROM unnest($4::varchar[]) AS e(emoji)
         ON CONFLICT DO NOTHING`,
        [subjectId, userId, this.clock.now(), added],
      );
    }
    if (removed.length > 0) {
      await manager.query(
        `DELETE FROM ${table} WHERE ${column} = $1 AND user_id = $2 AND emoji = ANY($3::varchar[])`,
        [subjectId, userId, removed],
      );
    }
  }

  /** The reactions to each of the comments (or replies) `subjectIds`, oldest first, in one query. */
  async of(
    manager: EntityManager,
    to: CommentNoun,
    subjectIds: string[],
  ): Promise<Map<string, ReactionRow[]>> {
    const { entity, property } = TABLES[to];
    const found: ReactionEntity[] = await manager.find<ReactionEntity>(entity, {
      where: { [property]: In(subjectIds) } as FindOptionsWhere<ReactionEntity>,
      relations: { user: true },
      order: { reactedAt: 'ASC', userId: 'ASC', emoji: 'ASC' },
    });
    const bySubject = new Map<string, ReactionRow[]>(subjectIds.map((id) => [id, []]));
    for (const reaction of found) {
      const { emoji, user, reactedAt } = reaction;
      const subjectId = 'commentId' in reaction ? reaction.commentId : reaction.replyId;
      bySubject.get(subjectId)?.push({ emoji, user: user!, reactedAt });
    }
    return bySubject;
  }
}

/** The reactions an update asks for, each emoji once; null when it asks for none; 400 when one is both added and removed. */
export function reactionChanges(input: UpdateCommentDto): ReactionChanges | null {
  if (input.addedReactions === undefined && input.removedReactions === undefined) return null;
  const added = [...new Set(input.addedReactions ?? [])];
  const removed = [...new Set(input.removedReactions ?? [])];
  const both = added.find((emoji) => removed.includes(emoji));
  if (both !== undefined) {
    throw invalidInput(
      `addedReactions, removedReactions: ${both} cannot be both added and removed.`,
    );
  }
  return { added, removed };
}
