import { DomainError } from '../platform/errors/domain-error';
import { atLeast, type Role } from '../platform/policy/roles';

/** GitBook's `permissions` of a Comment or CommentReply. */
export interface CommentPermissions {
  view: boolean;
  edit: boolean;
  delete: boolean;
  reply: boolean;
}

/** Who acts on a thread: the user and its effective role on the space. */
export interface Caller {
  userId: string;
  role: Role | null;
}

/** How messages name what is acted on. */
export type CommentNoun = 'comment' | 'reply';

/** What an update of a comment or a reply asks to change. */
export interface UpdateAsked {
  body: boolean;
  resolved: boolean;
  reactions: boolean;
}

/**
 * What a caller whose effective role on the space is `role` may do with a comment or reply:
 * whoever sees the space sees its comments; only the author changes the body (even an admin
 * may not); the author or a space admin deletes it; replying and reacting (and resolving) need
 * the comment role.
 */
export function commentPermissions(role: Role | null, isAuthor: boolean): CommentPermissions {
  return {
    view: true,
    edit: isAuthor,
    delete: isAuthor || atLeast(role, 'admin'),
    reply: atLeast(role, 'comment'),
  };
}

/**
 * 403 unless the caller may make the update asked of a comment or reply by `authorId`, by the
 * rules `commentPermissions` shows: the body is its author's; resolving and reacting need the
 * comment role. Checked in that order.
 */
export function assertMayUpdate(
  caller: Caller,
  authorId: string,
  noun: CommentNoun,
  asked: UpdateAsked,
): void {
  const may = commentPermissions(caller.role, authorId === caller.userId);
  if (asked.body && !may.edit) {
    throw new DomainError(
      'forbidden',
      'NotCommentAuthor',
      `Only the author of a ${noun} can edit it.`,
    );
  }
  if (asked.resolved && !may.reply) throw needsCommentRole('Resolving a comment');
  if (asked.reactions && !may.reply) throw needsCommentRole(`Reacting to a ${noun}`);
}

/** 403 unless the caller may delete a comment or reply by `authorId`: its author or a space admin. */
export function assertMayDelete(caller: Caller, authorId: string, noun: CommentNoun): void {
  if (!commentPermissions(caller.role, authorId === caller.userId).delete) {
    throw new DomainError(
      'forbidden',
      'CommentDeleteNotAllowed',
      `Only the author of a ${noun} or an admin of the space can delete it.`,
    );
  }
}

const needsCommentRole = (doing: string) =>
  new DomainError(
    'forbidden',
    'CommentRoleRequired',
    `${doing} needs the comment role (or higher) on this space.`,
  );
