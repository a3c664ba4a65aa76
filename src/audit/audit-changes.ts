/**
 * What a write changed, as the audit log keeps it: the request body's fields and values, with
 * secrets never stored and the whole kept small.
 */
export const REDACTED = '[redacted]';

/** Largest summary kept, in bytes of JSON. */
export const MAX_CHANGES_BYTES = 4096;

const MAX_STRING_CHARS = 256;
const MAX_ARRAY_ITEMS = 20;
const MAX_OBJECT_KEYS = 50;
const MAX_DEPTH = 6;

/** Keys whose values are secrets, compared without case, `-` or `_`. */
const SECRET_KEY =
  /(token|secret|password|passphrase|credential|signature|jwt|cookie|authorization|^key$|(private|api|share|signing|access)key$)/;

const isSecretKey = (key: string) => SECRET_KEY.test(key.toLowerCase().replace(/[-_]/g, ''));

/** Bindery's own tokens (`bnd_…`, `bnd_admin_…`), wherever they appear. */
const isSecretValue = (value: string) => value.startsWith('bnd_');

/** `https://user:secret@host/…` → `https://[redacted]@host/…` (Git remotes carry credentials). */
const URL_CREDENTIALS = /^([a-z][a-z0-9+.-]*:\/\/)[^/@\s]+@/i;

function summarise(value: unknown, depth: number): unknown {
  if (typeof value === 'string') {
    if (isSecretValue(value)) return REDACTED;
    const safe = value.replace(URL_CREDENTIALS, `$1${REDACTED}@`);
    return safe.length > MAX_STRING_CHARS ? `${safe.slice(0, MAX_STRING_CHARS)}…` : safe;
  }
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return Array.isArray(value) ? '[…]' : '{…}';
  if (Array.isArray(value)) {
    const items = value.slice(0, MAX_ARRAY_ITEMS).map((item) => summarise(item, depth + 1));
    if (value.length > MAX_ARRAY_ITEMS) items.push(`… ${value.length - MAX_ARRAY_ITEMS} more`);
    return items;
  }
  const summary: Record<string, unknown> = {};
  const keys = Object.keys(value);
  for (const key of keys.slice(0, MAX_OBJECT_KEYS)) {
    const field = (value as Record<string, unknown>)[key];
    summary[key] = isSecretKey(key) ? REDACTED : summarise(field, depth + 1);
  }
  if (keys.length > MAX_OBJECT_KEYS) summary['…'] = `${keys.length - MAX_OBJECT_KEYS} more`;
  return summary;
}

/**
 * The body's summary: its fields and values with every secret replaced by `[redacted]`
 * (fields named like a token, secret, password, private key or key; any `bnd_` value;
 * credentials in URLs), long strings, arrays and objects cut. When that is still over 4 KB, only the
 * field names are kept (`{truncated: true, fields}`). null for no body.
 */
export function summariseChanges(body: unknown): Record<string, unknown> | null {
  if (body === undefined || body === null) return null;
  if (typeof body !== 'object') return null;
  const summary = summarise(body, 0);
  const wrapped = (Array.isArray(summary) ? { items: summary } : summary) as Record<
    string,
    unknown
  >;
  if (Buffer.byteLength(JSON.stringify(wrapped)) <= MAX_CHANGES_BYTES) return wrapped;
  const fields = Array.isArray(body) ? ['items'] : Object.keys(body).slice(0, MAX_OBJECT_KEYS);
  return { truncated: true, fields };
}
