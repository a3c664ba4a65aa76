import { Injectable } from '@nestjs/common';
import { sign, verify } from 'jsonwebtoken';
import { Clock } from '../clock/clock';
import { InstanceSecret } from '../settings/instance-secret';

/** The instance secret's purpose whose key signs integration and installation tokens. */
const INTEGRATION_TOKEN_PURPOSE = 'integration-api-tokens';
/** How long a token lives: each event carries fresh ones, and a script asks again when it needs. */
export const INTEGRATION_TOKEN_LIFETIME_MS = 60 * 60 * 1000;

/**
 * What an integration's token says: it is the integration itself (GitBook's `integration`
 * security scheme), which reads and administers its own installations and creates their tokens.
 */
export interface IntegrationTokenClaims {
  kind: 'integration';
  integration: string;
}

/**
 * What an installation's token says (GitBook's `integration-installation` scheme): the
 * installation of `integration` on `organization`, holding the scopes the integration asked
 * for when the token was made.
 */
export interface InstallationTokenClaims {
  kind: 'installation';
  integration: string;
  installation: string;
  organization: string;
  scopes: string[];
}

export type IntegrationCallerClaims = IntegrationTokenClaims | InstallationTokenClaims;

/**
 * Signs and verifies the tokens integration scripts call Bindery's API with: short-lived JWTs
 * (HS256, a key derived from the instance secret, another purpose than site tokens'). Nothing
 * is stored: a token stops working when it expires, and at once when what it names is gone
 * (the access resolvers read the integration and the installation on every request).
 */
@Injectable()
export class IntegrationTokens {
  constructor(
    private readonly secret: InstanceSecret,
    private readonly clock: Clock,
  ) {}

  sign(claims: IntegrationCallerClaims): { token: string; expiresAt: Date } {
    const now = this.clock.now().getTime();
    const exp = Math.floor((now + INTEGRATION_TOKEN_LIFETIME_MS) / 1000);
    const token = sign(
      { ...claims, iat: Math.floor(now / 1000), exp },
      this.secret.signingKey(INTEGRATION_TOKEN_PURPOSE),
      { algorithm: 'HS256' },
    );
    return { token, expiresAt: new Date(exp * 1000) };
  }

  /** The claims of a valid, unexpired integration or installation token; null for anything else. */
  verify(token: string): IntegrationCallerClaims | null {
    const clockTimestamp = Math.floor(this.clock.now().getTime() / 1000);
    for (const key of this.secret.verificationKeys(INTEGRATION_TOKEN_PURPOSE)) {
      try {
        const payload = verify(token, key, { algorithms: ['HS256'], clockTimestamp });
        return callerClaims(payload);
      } catch {
        // Try the next key (SECRET_KEY_PREVIOUS); expired or tampered tokens fail them all.
      }
    }
    return null;
  }
}

/** The claims of a verified token's payload (its times left out), if it is one of these. */
function callerClaims(payload: unknown): IntegrationCallerClaims | null {
  if (typeof payload !== 'object' || payload === null) return null;
  const { kind, integration, installation, organization, scopes } = payload as Record<
    string,
    unknown
  >;
  if (typeof integration !== 'string') return null;
  if (kind === 'integration') return { kind, integration };
  if (
    kind === 'installation' &&
    typeof installation === 'string' &&
    typeof organization === 'string' &&
    Array.isArray(scopes) &&
    scopes.every((scope) => typeof scope === 'string')
  ) {
    return { kind, integration, installation, organization, scopes };
  }
  return null;
}
