import { posix } from 'node:path';
import type { ContentRef, JSONDocument } from '../../content-engine/documents/document';
import type { MarkdownPaths } from '../../content-engine/refs/markdown-paths';
import { mapRefs, refToMarkdownUrl, stableRefOf } from '../../content-engine/refs/markdown-refs';

/**
 * Relative links of an imported page, turned into content refs: to a page's file →
 * `{kind: 'page'}`, to a file of `.gitbook/assets` → `{kind: 'file'}`, and stable-form targets
 * (`/pages/<id>`, `/users/<id>`, …; markdown-refs.ts) to the refs they name. `from` is the page's
 * path; `pages` and `files` map paths (relative to the content root) to ids.
 */
export function resolveRelativeRefs(
  document: JSONDocument,
  from: string,
  pages: ReadonlyMap<string, string>,
  files: ReadonlyMap<string, string>,
): JSONDocument {
  const dir = posix.dirname(from);
  const resolve = (ref: ContentRef): ContentRef => {
    if (ref.kind !== 'url' || /^[a-z][a-z0-9+.-]*:|^\/\//i.test(ref.url)) return ref;
    if (ref.url.startsWith('#')) {
      const self = pages.get(from);
      const anchor = decodeFragment(ref.url.slice(1));
      return self && anchor ? { kind: 'anchor', anchor, page: self } : ref;
    }
    const hashAt = ref.url.indexOf('#');
    const target = hashAt >= 0 ? ref.url.slice(0, hashAt) : ref.url;
    const anchor = hashAt >= 0 ? decodeFragment(ref.url.slice(hashAt + 1)) : undefined;
    let decoded = target.replace(/\?.*$/, '');
    try {
      decoded = decodeURI(decoded);
    } catch {
      return ref;
    }
    const path = posix.normalize(posix.join(dir === '.' ? '' : dir, decoded)).replace(/^\.\//, '');
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

/** The link target of a content ref in the exported page at `from` (paths from planSyncedPaths). */
export function refToRelativeUrl(
  ref: ContentRef,
  from: string,
  pageId: string,
  paths: MarkdownPaths,
): string {
  return refToMarkdownUrl(ref, { refs: 'relative', pageId, paths, from });
}
