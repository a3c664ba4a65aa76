import type { EntityManager, EntityTarget } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import type { DomainError } from '../platform/errors/domain-error';
import type { CommentNoun } from './comment-permissions';
import {
  commentNotFound,
  type CommentView,
  replyNotFound,
  type ReplyView,
  type Thread,
} from './comment-thread';
import type { RowLock } from './comment-threads.service';
import type { CommentViews } from './comment-views';
import type { PostCommentDto } from './dto/comment.dto';
import { Comment } from './entities/comment.entity';
import { CommentReply } from './entities/comment-reply.entity';

/** What the writes create, update and delete: a comment, or a reply to one. */
export type CommentItem = Comment | CommentReply;

/** Where an item is: comment `commentId` of the thread, or its reply `replyId`. */
export interface ItemAt {
  commentId: string;
  replyId?: string;
}

/**
 * What tells a comment from a reply when one is written; the rest is alike (CommentWritesService).
 * Either kind lives in a comment: a comment in itself, a reply in the comment it replies to.
 */
export interface CommentKind<View> {
  /** How messages name one; also whose reactions it has. */
  noun: CommentNoun;
  entity: EntityTarget<CommentItem>;
  /** Whether it counts in the thread's open comments (`comments`) while open. */
  countsOpen: boolean;
  /** The columns a new one takes from its thread and the input, besides its id, parent comment, author, body and times. */
  placement(thread: Thread, input: PostCommentDto): QueryDeepPartialEntity<CommentItem>;
  /** Item `id` of `comment`: the comment itself, or a reply to it (locked as asked); null when absent. */
  find(
    manager: EntityManager,
    comment: Comment,
    id: string,
    lock?: RowLock,
  ): Promise<CommentItem | null>;
  notFound(): DomainError;
  /** Item `id` of comment `commentId`, as the routes answer it. */
  view(
    views: CommentViews,
    manager: EntityManager,
    thread: Thread,
    commentId: string,
    id: string,
  ): Promise<View>;
}

export const COMMENTS: CommentKind<CommentView> = {
  noun: 'comment',
  entity: Comment,
  countsOpen: true,
  placement: (thread, input) => ({
    spaceId: thread.spaceId,
    changeRequestId: thread.changeRequest?.id ?? null,
    revision: thread.revision,
    pageId: input.page ?? null,
    nodeId: input.node ?? null,
    tableCellRecord: input.tableCell?.record ?? null,
    tableCellDefinition: input.tableCell?.definition ?? null,
    status: 'open',
    resolvedAt: null,
    resolvedBy: null,
  }),
  find: (_manager, comment) => Promise.resolve(comment),
  notFound: commentNotFound,
  view: (views, manager, thread, _commentId, id) => views.comment(manager, thread, id),
};

export const REPLIES: CommentKind<ReplyView> = {
  noun: 'reply',
  entity: CommentReply,
  countsOpen: false,
  placement: () => ({}),
  find: (manager, comment, id, lock) =>
    manager.findOne(CommentReply, {
      where: { id, commentId: comment.id },
      ...(lock ? { lock: { mode: lock } } : {}),
    }),
  notFound: replyNotFound,
  view: (views, manager, thread, commentId, id) => views.reply(manager, thread, commentId, id),
};
