import type { PagePathChange } from '../../content-engine/tree/page-path-changes';

/**
 * GitBook's `SiteRedirectSourcePath`: `/`-separated segments of unreserved characters or
 * percent-escapes, optionally ending in `*` (a wildcard: what starts with the rest) or `/*`
 * (what lies below the rest); no other `*`.
 */
export const SOURCE_PATH_PATTERN =
  /^\/(?!\*)(?!.*\*.+)(?:[A-Za-z0-9\-._~+]|%[0-9A-Fa-f]{2})+(?:\/(?:[A-Za-z0-9\-._~+]|%[0-9A-Fa-f]{2})+)*(?:\/\*|\*)?$/;
export const MAX_SOURCE_LENGTH = 512;

export function isSourcePath(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.length <= MAX_SOURCE_LENGTH &&
    SOURCE_PATH_PATTERN.test(value)
  );
}

/** A source as it is matched: its key, and for a wildcard the key its matches start with. */
export interface SourceKey {
  /** The whole source, normalized: what is unique in a site. */
  key: string;
  /** A wildcard's: the key of the path before its `*` (`/old/` for `/old/*`); else null. */
  wildcardPrefix: string | null;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    // A lone escape of a byte that is not UTF-8 on its own: compare it as written.
    return segment;
  }
}

/** Percent-encodes what the source pattern does not allow as it is. */
export function encodeSourceSegment(text: string): string {
  return encodeURIComponent(text).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** One character of a path as its key spells it: lower-cased, then encoded. */
const keyOf = (text: string) => encodeSourceSegment(text.toLowerCase());

/**
 * The key of a source path: each segment decoded, lower-cased and encoded again, so that
 * `/Guides/%C3%89t%C3%A9`, `/guides/été` (as a browser escapes it) and `/GUIDES/%c3%a9t%c3%a9`
 * are one path. A `%2F` stays part of its segment.
 */
export function sourceKey(source: string): SourceKey {
  const wildcard = source.endsWith('*');
  const path = wildcard ? source.slice(0, -1) : source;
  const key = path
    .split('/')
    .map((segment) => keyOf(decodeSegment(segment)))
    .join('/');
  return wildcard ? { key: `${key}*`, wildcardPrefix: key } : { key, wildcardPrefix: null };
}

/**
 * What a wildcard captured of `path` (a source path without `*`) below `wildcardPrefix`, one
 * of its keys' starts: the rest of the path as it was written (case kept, encoded as sources
 * are), or null when the path does not start with the prefix.
 */
export function capturedSuffix(path: string, wildcardPrefix: string): string | null {
  let matched = '';
  let rest: string[] | null = null;
  const segments = path.split('/');
  for (const [index, segment] of segments.entries()) {
    const pieces = [
      ...(index > 0 ? [{ key: '/', text: '/' }] : []),
      ...[...decodeSegment(segment)].map((c) => ({ key: keyOf(c), text: encodeSourceSegment(c) })),
    ];
    for (const piece of pieces) {
      if (rest) {
        rest.push(piece.text);
      } else if (matched.length < wildcardPrefix.length) {
        matched += piece.key;
        if (!wildcardPrefix.startsWith(matched)) return null;
      } else {
        rest = [piece.text];
      }
    }
  }
  if (matched !== wildcardPrefix) return null;
  return (rest ?? []).join('');
}

/** The segments of a path (`a/b`) as a source spells them. */
export function sourceSegments(path: string): string[] {
  return path
    .split('/')
    .filter((segment) => segment !== '')
    .map(encodeSourceSegment);
}

/** A path that a moved page left, as a source, and the page. */
export interface LeftPath {
  source: string;
  key: string;
  pageId: string;
}

/**
 * The paths, in a site, that the moved pages of one site space left (`prefix`: the segments of
 * the site space in the site), as sources. A path that a page of the space is at now is left
 * out (the same page with its slug's case changed, or another page moved there), and so is one
 * that is not a valid source.
 */
export function leftPaths(prefix: string[], changes: PagePathChange[]): LeftPath[] {
  const pathOf = (pagePath: string) => `/${[...prefix, ...sourceSegments(pagePath)].join('/')}`;
  const taken = new Set(changes.map((change) => sourceKey(pathOf(change.to)).key));
  return changes.flatMap((change) => {
    const source = pathOf(change.from);
    if (!isSourcePath(source)) return [];
    const { key } = sourceKey(source);
    return taken.has(key) ? [] : [{ source, key, pageId: change.pageId }];
  });
}

/**
 * The source, in a site, of a path of a space (`path`: segments separated by `/`, as text or
 * URL-escaped: a segment that decodes is decoded first) shown under `prefix` (the segments of
 * the site space in the site, encoded), with its key; null when the path has no segment, has a
 * `.` or `..` segment (no browser asks for those), or the source would not be a valid one.
 */
export function spacePathSource(
  prefix: string[],
  path: string,
): (SourceKey & { source: string }) | null {
  const segments = path
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => encodeSourceSegment(decodeSegment(segment)));
  if (segments.length === 0 || segments.some((segment) => /^\.\.?$/.test(segment))) return null;
  const source = `/${[...prefix, ...segments].join('/')}`;
  if (!isSourcePath(source)) return null;
  return { source, ...sourceKey(source) };
}
