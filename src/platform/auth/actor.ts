import type { Request } from 'express';
import type { AccessNeed, ResolvedAccess, ResourceType } from '../policy/access';

/**
 * The user behind a token, as the users module reads it (its `User` entity has this shape); the
 * platform names only what it needs, so it does not depend on the users module.
 */
export interface ActorUser {
  id: string;
  email: string;
  displayName: string;
  photoUrl: string | null;
  disabled: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export interface UserActor {
  kind: 'user';
  userId: string;
  /** The user, read with the token in the same query. */
  user: ActorUser;
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
  access?: Map<string, Promise<ResolvedAccess | null>>;
  /** An action whose rule reads the body, left by the guard for DeferredAccessInterceptor. */
  deferredDecision?: {
    resource: ResourceType;
    need: AccessNeed;
    access: ResolvedAccess;
    request: { userId: string; params: Record<string, string> };
  };
}
