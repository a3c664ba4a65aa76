import { posix } from 'node:path';
import { gitRelativeUrl } from '../../content-engine/refs/markdown-refs';

/**
 * The link targets a page's markdown writes, as written (angle brackets taken off, anchors
 * kept): markdown links and images, and the `url`, `src` and `href` attributes of block tags
 * and HTML. Fenced code is left out. A hint only (see PageGitForm.links): what it finds is
 * used for a ref to the same target, never made a ref.
 */
export function linkTargetsIn(markdown: string): string[] {
  const text = markdown.replace(
    /^([ \t]*)(`{3,}|~{3,})[^\n]*\n[\s\S]*?(?:\n\1\2[ \t]*(?=\n|$)|$)/gm,
    '',
  );
  const targets: string[] = [];
  for (const match of text.matchAll(/\]\(\s*(?:<([^>\n]*)>|([^)\s]+))/g)) {
    targets.push(match[1] ?? match[2]);
  }
  for (const match of text.matchAll(/\b(?:url|src|href)="([^"\n]*)"/g)) targets.push(match[1]);
  return targets;
}

/** A URL with a scheme, or to another host (`//host/x`). */
export function isAbsoluteUrl(url: string): boolean {
  return /^[a-z][a-z0-9+.-]*:|^\/\//i.test(url);
}

/**
 * The path (relative to the content root) a relative link of the file `from` leads to, without
 * its anchor or query (a folder without its trailing slash); undefined when it cannot be read.
 */
export function targetPath(from: string, url: string): string | undefined {
  const dir = posix.dirname(from);
  const target = url.replace(/[#?].*$/, '');
  let decoded: string;
  try {
    decoded = decodeURI(target);
  } catch {
    return undefined;
  }
  const path = posix.normalize(posix.join(dir === '.' ? '' : dir, decoded)).replace(/\/+$/, '');
  return path === '.' ? '' : path;
}

/**
 * The targets a page's file wrote otherwise than GitBook would (PageGitForm.links), by the path
 * they lead to among `known` paths (pages and files; a folder leads to its README.md), and by
 * that path and `#anchor` for those written with an anchor: what to write instead of GitBook's
 * form (without the anchor, which the ref gives).
 */
export function writtenTargets(
  from: string,
  links: readonly string[] | undefined,
  known: (path: string) => boolean,
): Map<string, string> {
  const written = new Map<string, string>();
  for (const link of links ?? []) {
    const hashAt = link.indexOf('#');
    const target = hashAt >= 0 ? link.slice(0, hashAt) : link;
    const path = knownTarget(from, target, known);
    if (path === undefined) continue;
    if (hashAt >= 0) {
      const key = `${path}#${decodeFragment(link.slice(hashAt + 1))}`;
      if (!written.has(key)) written.set(key, target);
    }
    if (!written.has(path)) written.set(path, target);
  }
  return written;
}

/**
 * Links the page at `from` wrote otherwise than GitBook would to a `known` path: the links as
 * written (backslash escapes taken off), anchors kept.
 */
export function writtenOtherwise(
  from: string,
  markdown: string,
  known: (path: string) => boolean,
): string[] {
  const links = new Set<string>();
  for (const written of linkTargetsIn(markdown)) {
    const link = unescapeMarkdown(written);
    const target = link.replace(/#.*$/, '');
    if (target === '' || isAbsoluteUrl(target) || target.startsWith('/')) continue;
    const path = knownTarget(from, target, known);
    if (path !== undefined && target !== gitRelativeUrl(from, path)) links.add(link);
  }
  return [...links];
}

function unescapeMarkdown(text: string): string {
  return text.replace(/\\([!-/:-@[-`{-~])/g, '$1');
}

function decodeFragment(fragment: string): string {
  try {
    return decodeURIComponent(fragment);
  } catch {
    return fragment;
  }
}

/** The known path a relative link leads to (a folder: its README.md), if any. */
export function knownTarget(
  from: string,
  url: string,
  known: (path: string) => boolean,
): string | undefined {
  const path = targetPath(from, url);
  if (path === undefined) return undefined;
  if (path !== '' && known(path)) return path;
  const readme = posix.join(path, 'README.md');
  return known(readme) ? readme : undefined;
}
