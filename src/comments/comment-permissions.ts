import { atLeast, type Role } from '../platform/policy/roles';

/** GitBook's `permissions` of a Comment or CommentReply. */
export interface CommentPermissions {
  view: boolean;
  edit: boolean;
  delete: boolean;
  reply: boolean;
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
