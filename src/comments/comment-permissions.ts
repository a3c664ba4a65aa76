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
 * Why the caller may not make the update asked of a comment or reply by `authorId`, by the
 * rules `commentPermissions` shows (the body is its author's; resolving and reacting need the
 * comment role), checked in that order; null when it may.
 */
export function updateDenial(
  caller: Caller,
  authorId: string,
  noun: CommentNoun,
  asked: UpdateAsked,
): DomainError | null {
  const may = commentPermissions(caller.role, authorId === caller.userId);
  if (asked.body && !may.edit) {
    return new DomainError(
      'forbidden',
      'NotCommentAuthor',
      `Only the author of a ${noun} can edit it.`,
    );
  }
  if (asked.resolved && !may.reply) return needsCommentRole('Resolving a comment');
  if (asked.reactions && !may.reply) return needsCommentRole(`Reacting to a ${noun}`);
  return null;
}

/** Why the caller may not delete a comment or reply by `authorId` (its author or a space admin may). */
export function deleteDenial(
  caller: Caller,
  authorId: string,
  noun: CommentNoun,
): DomainError | null {
  if (commentPermissions(caller.role, authorId === caller.userId).delete) return null;
  return new DomainError(
    'forbidden',
    'CommentDeleteNotAllowed',
    `Only the author of a ${noun} or an admin of the space can delete it.`,
  );
}

/** What an update body (as sent) asks to change. */
export function updateAsked(body: unknown): UpdateAsked {
  const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  return {
    body: fields.body !== undefined,
    resolved: fields.resolved !== undefined,
    reactions: fields.addedReactions !== undefined || fields.removedReactions !== undefined,
  };
}

const needsCommentRole = (doing: string) =>
  new DomainError(
    'forbidden',
    'CommentRoleRequired',
    `${doing} needs the comment role (or higher) on this space.`,
  );
