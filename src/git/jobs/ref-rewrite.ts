import { posix } from 'node:path';
import type { ContentRef, JSONDocument } from '../../content-engine/documents/document';

/**
 * Relative links of an imported page, turned into content refs: to a page's file →
 * `{kind: 'page'}`, to a file of `.gitbook/assets` → `{kind: 'file'}`. `from` is the page's
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
    if (ref.kind !== 'url' || /^[a-z][a-z0-9+.-]*:|^\/\/|^#/i.test(ref.url)) return ref;
    const [target, anchor] = ref.url.split('#', 2);
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
    return ref;
  };
  return mapRefs(document, resolve);
}

/** A copy of `value` where every `ref` object (a ContentRef with `kind`) went through `map`. */
function mapRefs<T>(value: T, map: (ref: ContentRef) => ContentRef): T {
  if (Array.isArray(value)) return value.map((item: unknown) => mapRefs(item, map)) as T;
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    out[key] = key === 'ref' && isRef(child) ? map(child) : mapRefs(child, map);
  }
  return out as T;
}

function isRef(value: unknown): value is ContentRef {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { kind?: unknown }).kind === 'string'
  );
}

/** The link target of a content ref in the exported page at `from` (paths from planPaths). */
export function refToRelativeUrl(
  ref: ContentRef,
  from: string,
  pages: ReadonlyMap<string, string>,
  files: ReadonlyMap<string, string>,
): string | undefined {
  const relative = (to: string) =>
    encodeURI(posix.relative(posix.dirname(from), to) || posix.basename(to));
  switch (ref.kind) {
    case 'url':
      return ref.url;
    case 'file': {
      const path = files.get(ref.file);
      return path ? relative(path) : undefined;
    }
    case 'page': {
      if (ref.space) return undefined;
      const path = pages.get(ref.page);
      return path ? relative(path) : undefined;
    }
    case 'anchor': {
      const path = ref.page && !ref.space ? pages.get(ref.page) : undefined;
      return path && path !== from ? `${relative(path)}#${ref.anchor}` : `#${ref.anchor}`;
    }
    default:
      return undefined;
  }
}
