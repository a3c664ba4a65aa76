import Ajv, { type ValidateFunction } from 'ajv';
import type { KeyObject } from 'node:crypto';
import { decode, verify } from 'jsonwebtoken';
import { LRUCache } from 'lru-cache';
import type { VisitorClaims } from '../../../platform/conditions/evaluate';

type Json = Record<string, unknown>;

/** A verified visitor token: its claims and when it expires, if it says. */
export interface SignedVisitor {
  claims: Json;
  expiresAt: Date | null;
  /** Signed with the instance's key: a member's `docsVisitorClaims`, not the site's visitor. */
  member?: true;
}

/**
 * The visitor's token, verified with one of `keys` (HS256, secret KeyObjects): the site's visitor
 * key, or the instance's key for the organization's own members (`docsVisitorClaims`). Null for
 * a token that is malformed, tampered, expired, or signed with another key.
 */
export function verifyVisitorToken(
  token: string,
  keys: { key: KeyObject; organization?: string }[],
  now: Date,
): SignedVisitor | null {
  const clockTimestamp = Math.floor(now.getTime() / 1000);
  for (const { key, organization } of keys) {
    try {
      const payload = verify(token, key, { algorithms: ['HS256'], clockTimestamp });
      if (typeof payload !== 'object' || payload === null) return null;
      if (organization !== undefined && payload.organization !== organization) continue;
      const { exp } = payload as { exp?: number };
      return {
        claims: payload as Json,
        expiresAt: typeof exp === 'number' ? new Date(exp * 1000) : null,
        ...(organization !== undefined ? { member: true as const } : {}),
      };
    } catch {
      // The next key, if any.
    }
  }
  return null;
}

/** Whether a token is shaped as a JWT at all (a visitor-safe check before verifying). */
export function isJwtShaped(token: string): boolean {
  return decode(token) !== null;
}

const ajv = new Ajv({ allErrors: false, validateSchema: false, strict: false });
const validators = new LRUCache<string, ValidateFunction>({ max: 2000 });

function validatorFor(schema: Json): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.compile(schema);
    validators.set(key, validate);
  }
  return validate;
}

/**
 * The visitor's claims as conditions read them, checked against the site's adaptive schema
 * when it has one: each claim the schema declares is kept when its value matches the claim's
 * schema, and every other claim is dropped, signed or not. Without a schema, the claims are
 * kept as given. So a condition only ever sees claims of the declared shape; a visitor whose
 * claims do not match sees what a visitor without them sees.
 */
export function visitorClaims(
  signed: Json | null,
  unsigned: Json,
  adaptiveSchema: Json | null,
): VisitorClaims {
  if (!adaptiveSchema) return { claims: { ...(signed ?? {}), unsigned: { ...unsigned } } };
  const properties = (adaptiveSchema.properties ?? {}) as Json;
  const unsignedSchema = (properties.unsigned as Json | undefined)?.properties as Json | undefined;
  const { unsigned: _ignored, ...signedSchema } = properties;
  return {
    claims: {
      ...matching(signed ?? {}, signedSchema),
      unsigned: matching(unsigned, unsignedSchema ?? {}),
    },
  };
}

function matching(claims: Json, schema: Json): Json {
  const kept: Json = {};
  for (const [name, claimSchema] of Object.entries(schema)) {
    if (!Object.prototype.hasOwnProperty.call(claims, name)) continue;
    if (validatorFor(claimSchema as Json)(claims[name])) kept[name] = claims[name];
  }
  return kept;
}
