import { REDACTED, redactUrl } from '../logging/redact';

/** The most characters of a job's error message an answer carries. */
export const MAX_JOB_ERROR_CHARS = 1000;

/**
 * The error message pg-boss stored for a failed run (`output`): Bindery's workers store
 * `{message}`, pg-boss's expiry `{value: {message}}`. Null when there is none.
 */
export function jobErrorMessage(output: unknown): string | null {
  if (typeof output === 'string') return output;
  if (output === null || typeof output !== 'object') return null;
  const record = output as Record<string, unknown>;
  if (typeof record.message === 'string') return record.message;
  if ('value' in record) return jobErrorMessage(record.value);
  return null;
}

/**
 * A job's error message as the admin API may show it. Errors quote what failed, and that can
 * carry a secret: a Git remote with its credentials (`https://user:token@host`), a signed URL,
 * a bearer token, a Bindery token or a `password=…` pair. Those are replaced by `[REDACTED]`,
 * and the message is cut to MAX_JOB_ERROR_CHARS.
 */
export function redactJobError(message: string): string {
  const redacted = message
    // Credentials in a URL's user information.
    .replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@]+@/gi, `$1${REDACTED}@`)
    // Secret query parameters (signature, token, key, …).
    .replace(/\bhttps?:\/\/[^\s"'<>]+/gi, (url) => redactUrl(url))
    .replace(/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/g, `$1 ${REDACTED}`)
    .replace(/\bbnd_(?:admin_)?[A-Za-z0-9_-]{43}\b/g, REDACTED)
    // JSON Web Tokens (visitor tokens, site tokens).
    .replace(/\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g, REDACTED)
    .replace(
      /\b((?:api[_-]?)?(?:password|passwd|secret|token|api[_-]?key|private[_-]?key|authorization)["']?\s*[=:]\s*)(["']?)[^\s"',;&]+\2/gi,
      `$1${REDACTED}`,
    );
  return redacted.length > MAX_JOB_ERROR_CHARS
    ? `${redacted.slice(0, MAX_JOB_ERROR_CHARS - 1)}…`
    : redacted;
}
