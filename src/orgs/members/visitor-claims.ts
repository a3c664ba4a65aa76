import type { KeyObject } from 'node:crypto';
import { sign } from 'jsonwebtoken';
import type { Role } from '../../platform/policy/roles';

export const VISITOR_CLAIMS_ISSUER = 'bindery';
export const VISITOR_CLAIMS_TTL_SECONDS = 60 * 60;
/** The instance secret's purpose whose key signs visitor claims. */
export const VISITOR_CLAIMS_PURPOSE = 'docs-visitor-claims';

export interface VisitorClaims {
  userId: string;
  organizationId: string;
  role: Role | null;
  email: string;
}

/**
 * The member's claims for visitor-authenticated sites: a JWT, HS256 with the instance secret's
 * key for visitor claims,
 * issued at `now` (the injected Clock, not the wall clock) and valid for one hour.
 */
export function signVisitorClaims(claims: VisitorClaims, secret: KeyObject, now: Date): string {
  return sign(
    {
      organization: claims.organizationId,
      role: claims.role,
      email: claims.email,
      iat: Math.floor(now.getTime() / 1000),
    },
    secret,
    {
      algorithm: 'HS256',
      subject: claims.userId,
      issuer: VISITOR_CLAIMS_ISSUER,
      expiresIn: VISITOR_CLAIMS_TTL_SECONDS,
    },
  );
}
