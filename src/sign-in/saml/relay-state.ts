import type { SignedPart, UrlSigner } from '../../platform/urls/url-signer';

/** What a sign-in started here carries through the identity provider and back. */
export interface RelayStateClaims {
  providerId: string;
  /** The AuthnRequest's ID: the response must answer this very request. */
  requestId: string;
  /** Where the sign-in sends its one-time code; null: it ends on a page showing the token. */
  redirectUri: string | null;
}

export type RelayStateVerdict =
  { valid: true; claims: RelayStateClaims } | { valid: false; reason: 'invalid' | 'expired' };

/**
 * The RelayState of a sign-in started here: its claims, base64url JSON, then `.` and an
 * HMAC (UrlSigner: keyed by the instance secret for this purpose, expiry included). The
 * identity provider hands it back unchanged with its response; nothing in it is secret, but
 * nobody can make or alter one.
 */
export class RelayStates {
  constructor(private readonly signer: UrlSigner) {}

  make(claims: RelayStateClaims): string {
    const expires = this.signer.expiresFromNow();
    const payload: Payload = [
      claims.providerId,
      claims.requestId,
      claims.redirectUri ?? '',
      expires,
    ];
    const encoded = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `${encoded}.${this.signer.sign(signedParts(payload))}`;
  }

  read(relayState: unknown): RelayStateVerdict {
    if (typeof relayState !== 'string' || relayState.length > 4096) {
      return { valid: false, reason: 'invalid' };
    }
    const dot = relayState.indexOf('.');
    const payload = dot > 0 ? parsePayload(relayState.slice(0, dot)) : null;
    if (!payload) return { valid: false, reason: 'invalid' };
    const [providerId, requestId, redirectUri, expires] = payload;
    const verdict = this.signer.verify(
      { expires: String(expires), signature: relayState.slice(dot + 1) },
      (at) => signedParts([providerId, requestId, redirectUri, at]),
    );
    if (!verdict.valid) return verdict;
    return { valid: true, claims: { providerId, requestId, redirectUri: redirectUri || null } };
  }
}

type Payload = [string, string, string, number];

function signedParts(payload: Payload): readonly SignedPart[] {
  return ['saml-relay-state', ...payload];
}

function parsePayload(encoded: string): Payload | null {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (
    !Array.isArray(value) ||
    value.length !== 4 ||
    typeof value[0] !== 'string' ||
    typeof value[1] !== 'string' ||
    typeof value[2] !== 'string' ||
    !Number.isSafeInteger(value[3])
  ) {
    return null;
  }
  return value as Payload;
}
