import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Clock } from '../platform/clock/clock';
import { invalidInput } from '../platform/errors/domain-error';
import type { CommentNoun } from './comment-permissions';
import { CommentReactionsRepository } from './comment-reactions.repository';
import type { ReactionRow } from './comment-thread';
import type { UpdateCommentDto } from './dto/comment.dto';

/** The emojis an update adds and removes, each once. */
export interface ReactionChanges {
  added: string[];
  removed: string[];
}

/**
 * The reactions to comments and to replies, alike: one row per user and emoji, with no more
 * than one of each.
 */
@Injectable()
export class CommentReactionsService {
  constructor(
    private readonly repository: CommentReactionsRepository,
    private readonly clock: Clock,
  ) {}

  /** Adds and removes the caller's reactions; adding one it has, or removing one it has not, does nothing. */
  async react(
    manager: EntityManager,
    to: CommentNoun,
    subjectId: string,
    userId: string,
    { added, removed }: ReactionChanges,
  ): Promise<void> {
    if (added.length > 0) {
      await this.repository.add(to, subjectId, userId, added, this.clock.now(), manager);
    }
    if (removed.length > 0) {
      await this.repository.remove(to, subjectId, userId, removed, manager);
    }
  }

  /** The reactions to each of the comments (or replies) `subjectIds`, oldest first, in one query. */
  async of(
    manager: EntityManager,
    to: CommentNoun,
    subjectIds: string[],
  ): Promise<Map<string, ReactionRow[]>> {
    const found = await this.repository.findForSubjects(to, subjectIds, manager);
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
