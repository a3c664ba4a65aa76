import { Injectable } from '@nestjs/common';
import { EntityManager, In } from 'typeorm';
import { User } from '../users/entities/user.entity';
import { CommentReactionsService } from './comment-reactions.service';
import {
  commentNotFound,
  type CommentView,
  replyNotFound,
  type ReplyView,
  type Thread,
  threadScope,
} from './comment-thread';
import { CommentsRepository } from './comments.repository';
import { Comment } from './entities/comment.entity';
import { CommentReply } from './entities/comment-reply.entity';

/**
 * Comments and replies with what their wire shape needs (authors, reactions, repliers), read
 * with the given manager: inside a write's transaction, they show what it wrote.
 */
@Injectable()
export class CommentViews {
  constructor(
    private readonly comments: CommentsRepository,
    private readonly reactions: CommentReactionsService,
  ) {}

  async comment(manager: EntityManager, thread: Thread, commentId: string): Promise<CommentView> {
    const comment = await this.comments.findInThread(threadScope(thread), commentId, manager);
    if (!comment) throw commentNotFound();
    const [view] = await this.ofComments(manager, thread, [comment]);
    return view;
  }

  async reply(
    manager: EntityManager,
    thread: Thread,
    commentId: string,
    replyId: string,
  ): Promise<ReplyView> {
    const reply = await this.comments.findReply(commentId, replyId, manager);
    if (!reply) throw replyNotFound();
    const [view] = await this.ofReplies(manager, thread, [reply]);
    return view;
  }

  /** Reactions and repliers of a page of comments, in two queries (and one for the repliers' users). */
  async ofComments(
    manager: EntityManager,
    thread: Thread,
    comments: Comment[],
  ): Promise<CommentView[]> {
    if (comments.length === 0) return [];
    const ids = comments.map((comment) => comment.id);
    // One after the other: inside a transaction both run on the same connection.
    const reactions = await this.reactions.of(manager, 'comment', ids);
    const replierRows = await this.comments.repliersOf(ids, manager);
    const replierIds = [...new Set(replierRows.map((row) => row.author_id))];
    const users = new Map(
      (replierIds.length > 0 ? await manager.findBy(User, { id: In(replierIds) }) : []).map(
        (user) => [user.id, user],
      ),
    );
    return comments.map((comment) => {
      const repliers = replierRows
        .filter((row) => row.comment_id === comment.id && users.has(row.author_id))
        .map((row) => ({
          user: users.get(row.author_id)!,
          count: row.count,
          updatedAt: new Date(row.updated_at),
        }));
      return {
        thread,
        comment,
        reactions: reactions.get(comment.id) ?? [],
        repliers,
        replies: repliers.reduce((total, replier) => total + replier.count, 0),
      };
    });
  }

  /** Reactions of a page of replies, in one query. */
  async ofReplies(
    manager: EntityManager,
    thread: Thread,
    replies: CommentReply[],
  ): Promise<ReplyView[]> {
    if (replies.length === 0) return [];
    const reactions = await this.reactions.of(
      manager,
      'reply',
      replies.map((reply) => reply.id),
    );
    return replies.map((reply) => ({ thread, reply, reactions: reactions.get(reply.id) ?? [] }));
  }
}
