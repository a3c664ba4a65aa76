import type { Attributes } from '@opentelemetry/api';
import { REDACTED, redactUrl } from '../logging/redact';

/**
 * A span's attributes as they may leave the process. The URLs of requests received keep their
 * path, as in the logs, with the values of secret query parameters (signatures, share keys,
 * tokens) redacted (`redactUrl`); a URL called out (`outgoing`: a webhook, an S3 bucket, a
 * renderer) keeps only its origin, since its path may be the secret (a webhook's often is).
 * Headers, the Authorization header among them, and bodies are never attributes. Answers the
 * same object when nothing changes.
 */
export function redactSpanAttributes(outgoing: boolean, attributes: Attributes): Attributes {
  let copy: Attributes | undefined;
  const replace = (key: string, value: string | undefined) => {
    copy ??= { ...attributes };
    if (value === undefined) delete copy[key];
    else copy[key] = value;
  };
  for (const key of FULL_URLS) {
    const value = attributes[key];
    if (typeof value !== 'string') continue;
    const kept = outgoing ? originOf(value) : redactUrl(value);
    if (kept !== value) replace(key, kept);
  }
  for (const key of TARGETS) {
    const value = attributes[key];
    if (typeof value !== 'string') continue;
    if (outgoing) replace(key, undefined);
    else if (redactUrl(value) !== value) replace(key, redactUrl(value));
  }
  const query = attributes['url.query'];
  if (typeof query === 'string') {
    if (outgoing) replace('url.query', undefined);
    else {
      const kept = redactUrl(`?${query}`).slice(1);
      if (kept !== query) replace('url.query', kept);
    }
  }
  if (outgoing && typeof attributes['url.path'] === 'string') replace('url.path', undefined);
  return copy ?? attributes;
}

/** Absolute URLs: `url.full` (stable conventions, Nest's spans), `http.url` (older ones). */
const FULL_URLS = ['url.full', 'http.url'];
/** A path with its query (older conventions). */
const TARGETS = ['http.target'];

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return REDACTED;
  }
}
