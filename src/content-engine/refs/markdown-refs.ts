import { posix } from 'node:path';
import type { ContentRef, JSONDocument } from '../documents/document';
import type { MarkdownPaths } from './markdown-paths';

/*
 * Content refs as markdown link targets, and back. GitBook's `format.markdown.refs`:
 *
 * - `relative` (the default): links to pages and files of the same space are paths relative to
 *   the linking page, as the Git export lays the space out (markdown-paths.ts):
 *   `install/README.md#step-2`, `../.gitbook/assets/logo.png`. Refs with no path there (pages of
 *   another space, users, reusable contents, pages that no longer exist, …) are written in the
 *   stable form.
 * - `stable`: every ref is written with its identifiers, the same whatever page it is read
 *   from: `/pages/<pageId>`, `/pages/<pageId>#<anchor>`, `/spaces/<spaceId>/pages/<pageId>`,
 *   `/files/<fileId>`, `/reusable-contents/<id>` (`/spaces/<spaceId>/reusable-contents/<id>`),
 *   `/users/<userId>`, `/spaces/<spaceId>`, `/collections/<collectionId>`, `/openapi/<spec>`.
 *
 * In both, URLs are kept as they are and an anchor of the page itself is `#<anchor>`. Writing
 * markdown resolves both forms to the same refs again (stableRefOf; relative paths are
 * resolved by the writer against the same layout), so a ref to a page that no longer exists
 * keeps naming it.
 */

export const MARKDOWN_REFS = ['relative', 'stable'] as const;
export type MarkdownRefs = (typeof MARKDOWN_REFS)[number];

/** How the refs of one page are written. */
export interface MarkdownRefWriting {
  refs: MarkdownRefs;
  /** The page being written: anchors of its own are `#anchor`. */
  pageId?: string;
  /** `relative`: the layout of the space, and the page's own path in it. */
  paths?: MarkdownPaths;
  from?: string;
  /**
   * GitBook's Git Sync forms (the Git export), for `relative`: a page with subpages (a folder's
   * README.md) as its folder (`../plans/`, `./`), paths as they are rather than
   * percent-encoded (a markdown writer puts those with spaces in angle brackets), and an anchor
   * of the page itself with the page's path when the ref names the page (`#x` when it names
   * none). `written`: targets as the page's file wrote them (without anchors), by the path
   * (relative to the content root) they lead to, or by that path and `#anchor`, written instead.
   */
  git?: { written?: ReadonlyMap<string, string> };
}

export function refToMarkdownUrl(ref: ContentRef, writing: MarkdownRefWriting): string {
  if (ref.kind === 'url') return ref.url;
  // OpenAPI blocks name their specification in their tag already.
  if (ref.kind === 'openapi') return '';
  if (
    ref.kind === 'anchor' &&
    !ref.space &&
    (!ref.page || (ref.page === writing.pageId && !(writing.git && writing.refs === 'relative')))
  ) {
    return `#${encodeFragment(ref.anchor)}`;
  }
  if (writing.refs === 'relative') return relativeUrl(ref, writing) ?? stableUrl(ref);
  return stableUrl(ref);
}

function relativeUrl(
  ref: ContentRef,
  { paths, from, git }: MarkdownRefWriting,
): string | undefined {
  if (!paths || from === undefined) return undefined;
  const relative = (to: string, anchor?: string) =>
    git
      ? ((anchor !== undefined ? git.written?.get(`${to}#${anchor}`) : undefined) ??
        git.written?.get(to) ??
        gitRelativeUrl(from, to))
      : encodeURI(posix.relative(posix.dirname(from), to) || posix.basename(to));
  switch (ref.kind) {
    case 'file': {
      const path = paths.files.get(ref.file);
      return path ? relative(path) : undefined;
    }
    case 'page': {
      const path = ref.space ? undefined : paths.pages.get(ref.page);
      return path ? relative(path) : undefined;
    }
    case 'anchor': {
      const path = ref.space || !ref.page ? undefined : paths.pages.get(ref.page);
      return path ? `${relative(path, ref.anchor)}#${encodeFragment(ref.anchor)}` : undefined;
    }
    default:
      return undefined;
  }
}

/**
 * The link from the file `from` to the file `to` (paths relative to the same root) as GitBook's
 * Git Sync writes it: relative, a folder's README.md as the folder (`../plans/`, `./`), not
 * percent-encoded but for what would end the path.
 */
export function gitRelativeUrl(from: string, to: string): string {
  const dir = posix.dirname(from) === '.' ? '' : posix.dirname(from);
  let url: string;
  if (posix.basename(to) === 'README.md') {
    const folder = posix.dirname(to) === '.' ? '' : posix.dirname(to);
    const up = posix.relative(dir, folder);
    url = up === '' ? './' : `${up}/`;
  } else {
    url = posix.relative(dir, to) || posix.basename(to);
  }
  return url.replace(/[#?%<>\n]/g, (c) => encodeURIComponent(c));
}

/** The stable form of a ref (see above). */
export function stableUrl(ref: ContentRef): string {
  const id = encodeURIComponent;
  const inSpace = (space: string | undefined) => (space ? `/spaces/${id(space)}` : '');
  switch (ref.kind) {
    case 'url':
      return ref.url;
    case 'page':
      return `${inSpace(ref.space)}/pages/${id(ref.page)}`;
    case 'anchor':
      return ref.page
        ? `${inSpace(ref.space)}/pages/${id(ref.page)}#${encodeFragment(ref.anchor)}`
        : `${inSpace(ref.space)}#${encodeFragment(ref.anchor)}`;
    case 'file':
      return `/files/${id(ref.file)}`;
    case 'reusable-content':
      return `${inSpace(ref.space)}/reusable-contents/${id(ref.reusableContent)}`;
    case 'user':
      return `/users/${id(ref.user)}`;
    case 'space':
      return `/spaces/${id(ref.space)}`;
    case 'collection':
      return `/collections/${id(ref.collection)}`;
    case 'openapi':
      return `/openapi/${id(ref.spec)}`;
    default:
      return '';
  }
}

const SEGMENT = '([^/#?]+)';
const STABLE_FORMS: [RegExp, (match: string[], anchor?: string) => ContentRef][] = [
  [
    new RegExp(`^(?:/spaces/${SEGMENT})?/pages/${SEGMENT}$`),
    ([, space, page], anchor) =>
      ({
        kind: anchor === undefined ? 'page' : 'anchor',
        ...(anchor === undefined ? {} : { anchor }),
        page,
        ...(space ? { space } : {}),
      }) as ContentRef,
  ],
  [new RegExp(`^/files/${SEGMENT}$`), ([, file]) => ({ kind: 'file', file })],
  [
    new RegExp(`^(?:/spaces/${SEGMENT})?/reusable-contents/${SEGMENT}$`),
    ([, space, reusableContent]) => ({
      kind: 'reusable-content',
      reusableContent,
      ...(space ? { space } : {}),
    }),
  ],
  [new RegExp(`^/users/${SEGMENT}$`), ([, user]) => ({ kind: 'user', user })],
  [
    new RegExp(`^/collections/${SEGMENT}$`),
    ([, collection]) => ({ kind: 'collection', collection }),
  ],
  [new RegExp(`^/openapi/${SEGMENT}$`), ([, spec]) => ({ kind: 'openapi', spec })],
  [
    new RegExp(`^/spaces/${SEGMENT}$`),
    ([, space], anchor) =>
      anchor === undefined ? { kind: 'space', space } : { kind: 'anchor', anchor, space },
  ],
];

/** The ref a stable-form target names (`/pages/<id>#a`, `/files/<id>`, …), or undefined. */
export function stableRefOf(url: string): ContentRef | undefined {
  const hashAt = url.indexOf('#');
  const path = hashAt >= 0 ? url.slice(0, hashAt) : url;
  const anchor = hashAt >= 0 ? decode(url.slice(hashAt + 1)) : undefined;
  for (const [pattern, make] of STABLE_FORMS) {
    const match = pattern.exec(path);
    if (!match) continue;
    const decoded = match.map((part) => (part === undefined ? part : decode(part)));
    const ref = make(decoded, anchor);
    // Only pages and spaces have anchors.
    if (anchor !== undefined && ref.kind !== 'anchor') return undefined;
    return ref;
  }
  return undefined;
}

/** Anchors are written as they are, except what would end or break a link target. */
function encodeFragment(anchor: string): string {
  return anchor.replace(/[\s()<>#%]/g, (c) => encodeURIComponent(c));
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * The document with every URL ref in a stable form (`/pages/<id>`, `/users/<id>`, …) turned
 * into the ref it names: for markdown written where there is no page to be relative to
 * (comments, reviews).
 */
export function resolveStableRefs(document: JSONDocument): JSONDocument {
  return mapRefs(document, (ref) =>
    ref.kind === 'url' && typeof ref.url === 'string' && ref.url.startsWith('/')
      ? (stableRefOf(ref.url) ?? ref)
      : ref,
  );
}

/** Keys of node data whose value is a ContentRef (an image's dark source is `refDark`). */
const REF_KEYS = new Set(['ref', 'refDark']);

/**
 * A copy of `value` where every ContentRef went through `map`: the `ref` and `refDark` of any
 * node, and the values of a table's records (a `content-ref` column's ref; a `files` column's
 * list, whose files are their ids, as GitBook keeps them).
 */
export function mapRefs<T>(value: T, map: (ref: ContentRef) => ContentRef): T {
  if (Array.isArray(value)) return value.map((item: unknown) => mapRefs(item, map)) as T;
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (REF_KEYS.has(key) && isRef(child)) out[key] = map(child);
    else if (key === 'records' && isTableData(value)) out[key] = mapRecords(child, map);
    else out[key] = mapRefs(child, map);
  }
  return out as T;
}

function isTableData(data: object): boolean {
  const definition = (data as { definition?: unknown }).definition;
  return typeof definition === 'object' && definition !== null;
}

/** A table's records, their ref values mapped (see mapRefs). */
function mapRecords(records: unknown, map: (ref: ContentRef) => ContentRef): unknown {
  if (typeof records !== 'object' || records === null) return records;
  return Object.fromEntries(
    Object.entries(records).map(([id, record]) => {
      const values = (record as { values?: unknown } | null)?.values;
      if (typeof values !== 'object' || values === null) return [id, record];
      const mapped = Object.fromEntries(
        Object.entries(values).map(([column, cell]) => [column, mapCell(cell, map)]),
      );
      return [id, { ...(record as object), values: mapped }];
    }),
  );
}

function mapCell(cell: unknown, map: (ref: ContentRef) => ContentRef): unknown {
  if (isRef(cell)) return map(cell);
  if (!Array.isArray(cell)) return cell;
  // A files cell: its links, once they name files, are those files' ids.
  const items = cell.map((item: unknown) => (isRef(item) ? map(item) : item));
  return items.map((item) =>
    isRef(item) && item.kind === 'file' && typeof item.file === 'string' ? item.file : item,
  );
}

function isRef(value: unknown): value is ContentRef {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { kind?: unknown }).kind === 'string'
  );
}
