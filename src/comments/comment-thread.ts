import type { ChangeRequest } from '../change-requests/entities/change-request.entity';
import type { MemberRecord } from '../orgs/members/members.repository';
import { notFound } from '../platform/errors/domain-error';
import type { SpaceAccess } from '../spaces/space-access.resolver';
import type { User } from '../users/entities/user.entity';
import type { Caller } from './comment-permissions';
import type { Comment } from './entities/comment.entity';
import type { CommentReply } from './entities/comment-reply.entity';

/** Which thread a route is about: a space's own comments, or a change request's. */
export interface ThreadRef {
  space: SpaceAccess;
  /** The change request's id or number; null for the space's own comments. */
  changeRequestId: string | null;
}

/** A thread as resolved for one caller. */
export interface Thread {
  spaceId: string;
  /** Null for the space's own comments. */
  changeRequest: ChangeRequest | null;
  /** The revision new comments are made on: the space's primary or the change request's head. */
  revision: string;
  caller: Caller;
}

/** One user's reaction, in the order reactions were made. */
export interface ReactionRow {
  emoji: string;
  user: User;
  reactedAt: Date;
}

/** A comment with what its wire shape needs. */
export interface CommentView {
  thread: Thread;
  comment: Comment;
  reactions: ReactionRow[];
  /** Per user who replied, latest first. */
  repliers: { user: User; count: number; updatedAt: Date }[];
  replies: number;
}

export interface ReplyView {
  thread: Thread;
  reply: CommentReply;
  reactions: ReactionRow[];
}

/** A commenter: an organization member and when it last commented or replied in the thread. */
export interface CommenterRecord extends MemberRecord {
  lastActivityAt: Date;
}

export const commentNotFound = () => notFound('Comment');
export const replyNotFound = () => notFound('Comment reply');

/** Which comments a thread holds: a change request's, or the space's own (of no change request). */
export interface CommentThreadScope {
  spaceId: string;
  changeRequestId: string | null;
}

/** Which comments the thread holds, as its repository reads them. */
export function threadScope(thread: Thread): CommentThreadScope {
  return { spaceId: thread.spaceId, changeRequestId: thread.changeRequest?.id ?? null };
}
