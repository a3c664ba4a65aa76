import { createHmac, type KeyObject, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../clock/clock';
import type { SecretKeyring } from '../settings/instance-secret';

/** What a signed URL carries for its signature to be checked, as received (parts may be missing). */
export interface SignedUrlQuery {
  expires?: unknown;
  signature?: unknown;
}

export type SignedUrlVerdict =
  | { valid: true; expires: number; remainingSeconds: number }
  | { valid: false; reason: 'invalid' | 'expired' };

/** A payload part: strings and numbers, JSON-encoded so that no part can bleed into another. */
export type SignedPart = string | number;

/**
 * Signed, expiring URLs that carry their own authorization (file downloads, PDF exports): an
 * HMAC-SHA256 over a JSON array of the parts the URL grants, expiry included, keyed by the
 * instance secret's key for `purpose`, which keeps a signature for one kind of URL from being
 * accepted by another. Each user says where the expiry sits among its parts, and maps a
 * refusal to its own error.
 */
export class UrlSigner {
  constructor(
    private readonly secret: Pick<SecretKeyring, 'signingKey' | 'verificationKeys'>,
    private readonly clock: Clock,
    private readonly purpose: string,
    readonly ttlSeconds: number,
  ) {}

  /** Unix time (seconds) at which a URL signed now stops being valid. */
  expiresFromNow(): number {
    return this.nowSeconds() + this.ttlSeconds;
  }

  sign(parts: readonly SignedPart[]): string {
    return signWith(this.secret.signingKey(this.purpose), parts);
  }

  /**
   * Checks `query.signature` against the parts made by `partsOf` from the URL's expiry, then the
   * expiry; `remainingSeconds` never exceeds the time to live.
   */
  verify(
    query: SignedUrlQuery,
    partsOf: (expires: number) => readonly SignedPart[],
  ): SignedUrlVerdict {
    const { expires, signature } = query;
    if (typeof expires !== 'string' || !/^\d{1,12}$/.test(expires)) {
      return { valid: false, reason: 'invalid' };
    }
    const expiresAt = Number(expires);
    if (typeof signature !== 'string') return { valid: false, reason: 'invalid' };
    const given = Buffer.from(signature);
    const parts = partsOf(expiresAt);
    // Signed with the current secret, or with one of SECRET_KEY_PREVIOUS during a rotation.
    const matches = this.secret.verificationKeys(this.purpose).some((key) => {
      const expected = Buffer.from(signWith(key, parts));
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
    if (!matches) return { valid: false, reason: 'invalid' };
    const remainingSeconds = expiresAt - this.nowSeconds();
    if (remainingSeconds <= 0) return { valid: false, reason: 'expired' };
    return {
      valid: true,
      expires: expiresAt,
      remainingSeconds: Math.min(remainingSeconds, this.ttlSeconds),
    };
  }

  private nowSeconds(): number {
    return Math.floor(this.clock.now().getTime() / 1000);
  }
}

function signWith(key: KeyObject, parts: readonly SignedPart[]): string {
  return createHmac('sha256', key).update(JSON.stringify(parts)).digest('base64url');
}
