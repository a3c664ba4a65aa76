import { Injectable } from '@nestjs/common';
import { sign, verify } from 'jsonwebtoken';
import { Clock } from '../clock/clock';
import { InstanceSecret } from '../settings/instance-secret';

/** The instance secret's purpose whose key signs site tokens. */
const SITE_TOKEN_PURPOSE = 'site-api-tokens';
/** A site token outlives the renderer's refresh margin (120 s) by far: it lives 1 to 25 hours. */
const MIN_LIFETIME_MS = 60 * 60 * 1000;
/** Tokens end at 00:05 UTC, so that one visitor's token is the same all day (cache keys). */
const DAY_END_OFFSET_MS = 5 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * What a site token says: GitBook's `SiteAPIToken` (`kind: "site"`, the organization, site,
 * site space, section and space the URL resolved to, the spaces of the site this visitor may
 * read, the visitor's claims and type), plus `shareLink`, the id of the share link that opened
 * a `share-link` site (checked again on every read, so revoking it closes the site at once),
 * and `authenticated` when a `visitor-auth` site let the visitor in.
 */
export interface SiteTokenClaims {
  kind: 'site';
  organization: string;
  site: string;
  siteSpace: string;
  siteSection?: string;
  space: string;
  spaces: string[];
  claims?: Record<string, unknown>;
  visitorType?: 'human' | 'agent';
  shareLink?: string;
  /** The visitor was authenticated by the site's visitor authentication (`visitor-auth`). */
  authenticated?: true;
  /**
   * A member's preview (`getSitePublishingPreviewById`): the site opens whether published or
   * not, whatever its visibility; `draft`: with its draft external links.
   */
  preview?: { draft: boolean };
}

/**
 * Signs and verifies site tokens: short-lived JWTs (HS256, a key derived from the instance
 * secret) that the published-content lookup hands to a site renderer, which reads that site's
 * published content with them and nothing else. A token is stable for a day for the same
 * visitor and site space (no `iat`, `exp` at the next 00:05 UTC at least an hour away), so a
 * renderer's caches, keyed on it, work; content changes reach it by revalidation.
 */
@Injectable()
export class SiteTokens {
  constructor(
    private readonly secret: InstanceSecret,
    private readonly clock: Clock,
  ) {}

  /** A token for `claims`, expiring at the end of the day bucket or at `notAfter`, if sooner. */
  sign(claims: SiteTokenClaims, notAfter?: Date): { token: string; expiresAt: Date } {
    const now = this.clock.now().getTime();
    let end = Math.floor(now / DAY_MS) * DAY_MS + DAY_END_OFFSET_MS;
    while (end - now < MIN_LIFETIME_MS) end += DAY_MS;
    if (notAfter && notAfter.getTime() < end) end = notAfter.getTime();
    const exp = Math.floor(end / 1000);
    const token = sign({ ...claims, exp }, this.secret.signingKey(SITE_TOKEN_PURPOSE), {
      algorithm: 'HS256',
      noTimestamp: true,
    });
    return { token, expiresAt: new Date(exp * 1000) };
  }

  /** The claims of a valid, unexpired site token; null for anything else. */
  verify(token: string): SiteTokenClaims | null {
    const clockTimestamp = Math.floor(this.clock.now().getTime() / 1000);
    for (const key of this.secret.verificationKeys(SITE_TOKEN_PURPOSE)) {
      try {
        const payload = verify(token, key, { algorithms: ['HS256'], clockTimestamp });
        return isSiteToken(payload) ? payload : null;
      } catch {
        // Try the next key (SECRET_KEY_PREVIOUS); expired or tampered tokens fail them all.
      }
    }
    return null;
  }
}

function isSiteToken(payload: unknown): payload is SiteTokenClaims {
  const claims = payload as Partial<SiteTokenClaims> | null;
  return (
    typeof claims === 'object' &&
    claims !== null &&
    claims.kind === 'site' &&
    typeof claims.organization === 'string' &&
    typeof claims.site === 'string' &&
    typeof claims.siteSpace === 'string' &&
    typeof claims.space === 'string' &&
    Array.isArray(claims.spaces) &&
    claims.spaces.every((space) => typeof space === 'string')
  );
}

/** Whether a bearer token is shaped as a JWT (API tokens are base64url: no dots). */
export function looksLikeJwt(token: string): boolean {
  return /^[\w-]+\.[\w-]+\.[\w-]*$/.test(token);
}
