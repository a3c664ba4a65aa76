/**
 * Values that grant access travel in some URLs (signed download and PDF links carry a
 * `signature`, share links a `shareKey`, visitor links a token). A log line keeps the URL, with
 * such values replaced, so that reading the logs never gives anyone that access.
 */
export const REDACTED = '[REDACTED]';

/** Query parameters whose values are secrets, compared without case, `-` or `_`. */
const SECRET_PARAMETERS = new Set([
  'signature',
  'sig',
  'sharekey',
  'token',
  'accesstoken',
  'visitortoken',
  'jwttoken',
  'jwt',
  'key',
  'apikey',
  'secret',
  'password',
  'code',
]);

const normalise = (name: string) => name.toLowerCase().replace(/[-_]/g, '');

function isSecretParameter(rawName: string): boolean {
  let name = rawName;
  try {
    name = decodeURIComponent(rawName.replace(/\+/g, ' '));
  } catch {
    // A malformed escape: judge the name as it is.
  }
  return SECRET_PARAMETERS.has(normalise(name));
}

/** `url` (a path with its query, or an absolute URL) with the values of secret parameters redacted. */
export function redactUrl(url: string): string {
  const queryStart = url.indexOf('?');
  if (queryStart < 0) return url;
  const hashStart = url.indexOf('#', queryStart);
  const query = url.slice(queryStart + 1, hashStart < 0 ? undefined : hashStart);
  const redacted = query
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      if (equals < 0 || !isSecretParameter(pair.slice(0, equals))) return pair;
      return `${pair.slice(0, equals)}=${REDACTED}`;
    })
    .join('&');
  return `${url.slice(0, queryStart)}?${redacted}${hashStart < 0 ? '' : url.slice(hashStart)}`;
}

/** Request headers never written to a log, as pino `redact` paths. */
export const SECRET_HEADER_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
];
