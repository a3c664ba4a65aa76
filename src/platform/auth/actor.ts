import type { Request } from 'express';
import type { User } from '../../users/entities/user.entity';
import type { ResolvedAccess } from '../policy/access';

export interface UserActor {
  kind: 'user';
  userId: string;
  /** The user, read with the token in the same query. */
  user: User;
  /** SHA-256 of the token used, for per-token rate limits and audit. */
  tokenHash: string;
}

export interface AdminActor {
  kind: 'admin';
  tokenHash: string;
}

export type Actor = UserActor | AdminActor;

/** What the guards leave on the request for handlers and presenters. */
export interface AuthenticatedRequest extends Request {
  actor?: Actor;
  /** Access decided for this request, by `resource:id`, so it is computed once. */
  access?: Map<string, ResolvedAccess | null>;
}
