import { Injectable } from '@nestjs/common';
import { EntityManager, In, SelectQueryBuilder } from 'typeorm';
import { User } from '../users/entities/user.entity';
import { CommentReactionsService } from './comment-reactions.service';
import {
  commentNotFound,
  type CommentView,
  inThread,
  replyNotFound,
  type ReplyView,
  type Thread,
} from './comment-thread';
import { Comment } from './entities/comment.entity';
import { CommentReply } from './entities/comment-reply.entity';

interface ReplierRow {
  comment_id: string;
  author_id: string;
  count: number;
  updated_at: Date | string;
}

/**
 * Comments and replies with what their wire shape needs (authors, reactions, repliers), read
 * with the given manager: inside a write's transaction, they show what it wrote.
 */
@Injectable()
export class CommentViews {
  constructor(private readonly reactions: CommentReactionsService) {}

  /** The thread's comments, with their author and resolver. */
  comments(manager: EntityManager, thread: Thread): SelectQueryBuilder<Comment> {
    const { sql, params } = inThread(thread);
    return manager
      .getRepository(Comment)
      .createQueryBuilder('c')
      .innerJoinAndSelect('c.author', 'author')
      .leftJoinAndSelect('c.resolver', 'resolver')
      .where(sql, params);
  }

  /** The replies to comment `commentId`, with their author. */
  replies(manager: EntityManager, commentId: string): SelectQueryBuilder<CommentReply> {
    return manager
      .getRepository(CommentReply)
      .createQueryBuilder('r')
      .innerJoinAndSelect('r.author', 'author')
      .where('r.comment_id = :commentId', { commentId });
  }

  async comment(manager: EntityManager, thread: Thread, commentId: string): Promise<CommentView> {
    const comment = await this.comments(manager, thread)
      .andWhere('c.id = :commentId', { commentId })
      .getOne();
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
    const reply = await this.replies(manager, commentId)
      .andWhere('r.id = :replyId', { replyId })
      .getOne();
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
    const replierRows: ReplierRow[] = await manager.query(
      `SELECT comment_id, author_id, COUNT(*)::int AS count, MAX(posted_at) AS updated_at
         FROM comment_replies WHERE comment_id = ANY($1::varchar[])
        GROUP BY comment_id, author_id
        ORDER BY updated_at DESC, author_id`,
      [ids],
    );
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
