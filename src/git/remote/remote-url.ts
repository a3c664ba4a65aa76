import { invalidInput } from '../../platform/errors/domain-error';

/** A repository URL split into what may be stored and shown, and its credentials. */
export interface RemoteUrl {
  /** The URL without user name and password. */
  url: string;
  credentials?: { username: string; password: string };
}

/**
 * Splits `raw` (`https://user:token@host/repo.git`) into a URL without credentials and the
 * credentials; 400 naming `field` for anything but an absolute http(s) URL.
 */
export function parseRemoteUrl(raw: string, field = 'url'): RemoteUrl {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw invalidInput(`${field}: not a valid URL; expected https://host/owner/repository.git.`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw invalidInput(`${field}: only http and https repository URLs are supported.`);
  }
  const username = safeDecode(parsed.username, field);
  const password = safeDecode(parsed.password, field);
  parsed.username = '';
  parsed.password = '';
  const url = parsed.href;
  return username === '' && password === ''
    ? { url }
    : { url, credentials: { username, password } };
}

/** The `Authorization` header for credentials (HTTP Basic, as git sends them). */
export function basicAuthorization(credentials: { username: string; password: string }): string {
  const pair = `${credentials.username}:${credentials.password}`;
  return `Basic ${Buffer.from(pair).toString('base64')}`;
}

/**
 * `text` with every occurrence of the credentials (raw, URL-encoded, or as Basic header) masked:
 * error messages of remote operations are stored and shown, credentials never are.
 */
export function redactCredentials(
  text: string,
  credentials: { username: string; password: string } | undefined,
): string {
  if (!credentials) return text;
  const secrets = [
    credentials.password,
    encodeURIComponent(credentials.password),
    Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64'),
  ].filter((secret) => secret.length > 0);
  let redacted = text;
  for (const secret of secrets) redacted = redacted.split(secret).join('***');
  return redacted;
}

function safeDecode(value: string, field: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    throw invalidInput(`${field}: the user name or password in the URL is malformed.`);
  }
}
