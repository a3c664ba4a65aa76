/**
 * Where a URL of a published site points, before any site is read: its host and decoded path
 * segments, and what the instance's sites URL (`SITES_URL`, with `{organization}`) makes of it.
 */
export interface ParsedSiteUrl {
  /** `https://docs.example.com`: the scheme and host the visitor used (canonical URLs keep it). */
  origin: string;
  /** Lower case, without a port. */
  host: string;
  /** The path's segments, percent-decoded, without empty ones. */
  segments: string[];
}

/** Where a site sits on the instance's sites URL: its organization's key and its own. */
export interface PlatformSiteKey {
  /** The organization's hostname or id, or null when SITES_URL names no organization. */
  organization: string | null;
  /** The site's basename or id. */
  site: string;
  /** How many path segments the sites URL and the site's key took. */
  consumed: number;
}

const MAX_URL_LENGTH = 4096;
const PLACEHOLDER = 'bindery-organization-placeholder';

/** The URL as a site URL, or null when it is not an absolute http(s) URL. */
export function parseSiteUrl(url: string): ParsedSiteUrl | null {
  if (url.length > MAX_URL_LENGTH) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  const segments: string[] = [];
  for (const raw of parsed.pathname.split('/')) {
    if (raw === '') continue;
    try {
      segments.push(decodeURIComponent(raw));
    } catch {
      segments.push(raw);
    }
  }
  return { origin: parsed.origin, host: parsed.hostname.toLowerCase(), segments };
}

/**
 * The platform site a URL names under `sitesUrl` (e.g. `https://docs.example.com/{organization}`
 * or `https://{organization}.docs.example.com`): the organization from the host or path, then
 * the next segment for the site. Ports are ignored on both sides. Null when the URL is not
 * under the sites URL.
 */
export function platformSiteKey(sitesUrl: string, url: ParsedSiteUrl): PlatformSiteKey | null {
  const template = new URL(sitesUrl.replace('{organization}', PLACEHOLDER));
  let organization: string | null = null;

  const hostPattern = template.hostname.toLowerCase();
  if (hostPattern.includes(PLACEHOLDER)) {
    const [before, after] = hostPattern.split(PLACEHOLDER);
    if (!url.host.startsWith(before) || !url.host.endsWith(after)) return null;
    const key = url.host.slice(before.length, url.host.length - after.length);
    if (!/^[a-z0-9][a-z0-9-]*$/.test(key)) return null;
    organization = key;
  } else if (hostPattern !== url.host) {
    return null;
  }

  const templateSegments = template.pathname.split('/').filter((segment) => segment !== '');
  if (url.segments.length < templateSegments.length + 1) return null;
  for (const [index, expected] of templateSegments.entries()) {
    const actual = url.segments[index];
    if (decodeURIComponent(expected) === PLACEHOLDER) organization = actual;
    else if (decodeURIComponent(expected) !== actual) return null;
  }
  return {
    organization,
    site: url.segments[templateSegments.length],
    consumed: templateSegments.length + 1,
  };
}

/**
 * The proxy origins (`example.com/docs`, as sites store them) a URL could be under: its host,
 * then its host with each longer prefix of its path.
 */
export function proxyCandidates(url: ParsedSiteUrl): string[] {
  const candidates = [url.host];
  for (let length = 1; length <= Math.min(url.segments.length, 8); length++) {
    candidates.push(`${url.host}/${url.segments.slice(0, length).join('/')}`);
  }
  return candidates;
}

/** `/a/b/`: a base path as the renderer wants it, starting and ending with `/`. */
export function basePathOf(segments: string[]): string {
  return segments.length === 0 ? '/' : `/${segments.map(encodeURIComponent).join('/')}/`;
}
