import { posix } from 'node:path';
import type { ContentRef, JSONDocument } from '../../content-engine/documents/document';
import type { MarkdownPaths } from '../../content-engine/refs/markdown-paths';
import { mapRefs, refToMarkdownUrl, stableRefOf } from '../../content-engine/refs/markdown-refs';
import { isAbsoluteUrl, targetPath } from '../layout/link-targets';

/**
 * Relative links of an imported page, turned into content refs: to a page's file (or its
 * folder, for a README.md) → `{kind: 'page'}`, to a file of the repository imported as a
 * file → `{kind: 'file'}`, and stable-form targets (`/pages/<id>`, `/users/<id>`, …;
 * markdown-refs.ts) to the refs they name. `#x` is an anchor of the page itself, as GitBook's
 * (a ref naming no page); `page.md#x` names the page, itself included. `from` is the page's
 * path; `pages` and `files` map paths (relative to the content root) to ids.
 */
export function resolveRelativeRefs(
  document: JSONDocument,
  from: string,
  pages: ReadonlyMap<string, string>,
  files: ReadonlyMap<string, string>,
): JSONDocument {
  const resolve = (ref: ContentRef): ContentRef => {
    // An empty target (`[text]()`) is no link to the page itself.
    if (ref.kind !== 'url' || ref.url === '' || isAbsoluteUrl(ref.url)) return ref;
    if (ref.url.startsWith('#')) {
      const anchor = decodeFragment(ref.url.slice(1));
      return anchor ? { kind: 'anchor', anchor } : ref;
    }
    const hashAt = ref.url.indexOf('#');
    const anchor = hashAt >= 0 ? decodeFragment(ref.url.slice(hashAt + 1)) : undefined;
    const path = targetPath(from, ref.url);
    if (path === undefined) return ref;
    const file = files.get(path);
    if (file) return { kind: 'file', file };
    const page = pages.get(path) ?? pages.get(posix.join(path, 'README.md'));
    if (page) return anchor ? { kind: 'anchor', anchor, page } : { kind: 'page', page };
    // What the export writes for refs without a path (other spaces, users, …).
    return (ref.url.startsWith('/') && stableRefOf(ref.url)) || ref;
  };
  return mapRefs(document, resolve);
}

function decodeFragment(fragment: string): string {
  try {
    return decodeURIComponent(fragment);
  } catch {
    return fragment;
  }
}

/**
 * The link target of a content ref in the exported page at `from` (paths from planSyncedPaths),
 * in GitBook's Git Sync form; `written`: targets as the page's file wrote them, by the path they
 * lead to (see writtenTargets in link-targets.ts).
 */
export function refToRelativeUrl(
  ref: ContentRef,
  from: string,
  pageId: string,
  paths: MarkdownPaths,
  written?: ReadonlyMap<string, string>,
): string {
  return refToMarkdownUrl(ref, { refs: 'relative', pageId, paths, from, git: { written } });
}
