/**
 * Whether a sign-in may send its code to `uri`: an http(s) URL, without credentials, that
 * starts with one of `prefixes` (SSO_REDIRECT_URLS). The prefix must end where a URL part
 * does: `https://tools.example.com` admits `https://tools.example.com/cb` but not
 * `https://tools.example.com.evil.test/`, and `http://localhost:8080/callback` not
 * `http://localhost:8080/callbackx`.
 */
export function isAllowedRedirectUri(uri: string, prefixes: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return false;
  if (url.username || url.password) return false;
  return prefixes.some((prefix) => {
    if (!uri.startsWith(prefix)) return false;
    if (/[/?#]$/.test(prefix) || uri.length === prefix.length) return true;
    return ['/', '?', '#'].includes(uri[prefix.length]);
  });
}

/** `uri` with `code` added to its query (other parameters kept, a `code` replaced). */
export function withCode(uri: string, code: string): string {
  const url = new URL(uri);
  url.searchParams.set('code', code);
  return url.toString();
}
