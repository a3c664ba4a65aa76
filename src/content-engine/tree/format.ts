import { getRequired, type ObjectStore } from './object-store';

/**
 * The revision tree, format version 2. Every node is a content object:
 *
 * - the root (`tree`): top-level pages, files, reusable contents, variables and the page index;
 * - a page (`page`): its variant, metadata, document (a `document` object, by hash) and
 *   children;
 * - the page index (`page-index`): page id → parent id, a hash trie (see page-index.ts).
 *
 * Children are listed as `{id, slug, hash}` so that a path or an id is followed down the tree
 * reading one node per level. Editing a page writes that page and the nodes on its path only.
 * Version 1 (pages listing child hashes only, no index) is still read; a commit on a version 1
 * tree rewrites it as version 2 first.
 */
export const TREE_FORMAT_VERSION = 2;

export const PAGE_TYPES = ['document', 'group', 'link', 'computed'] as const;
export type PageType = (typeof PAGE_TYPES)[number];

/** A child in its parent's list: enough to follow a path or an id without reading it. */
export interface ChildRef {
  id: string;
  /** Document and group pages only (links and computed pages have no path). */
  slug?: string;
  hash: string;
}

/**
 * Page metadata by variant (REFERENCE §7). `title` is required for document and group pages,
 * `target` for links, `computed` for computed pages; the rest is optional.
 */
export interface PageMeta {
  title?: string;
  slug?: string;
  emoji?: string;
  icon?: string;
  description?: string;
  hidden?: boolean;
  noIndex?: boolean;
  noRobotsIndex?: boolean;
  condition?: string;
  layout?: Record<string, unknown>;
  cover?: Record<string, unknown>;
  variables?: Record<string, unknown>;
  git?: { oid: string; path: string };
  /** link pages: the ContentRef the link points at, and its resolved URL. */
  target?: Record<string, unknown>;
  href?: string;
  /** computed pages, and document pages computed from a source. */
  computed?: Record<string, unknown>;
  computedSeed?: string;
  [key: string]: unknown;
}

export interface PageNode {
  id: string;
  type: PageType;
  meta: PageMeta;
  /** Hash of the `document` object; null for an empty page (and non-document variants). */
  document: string | null;
  pages: ChildRef[];
}

/**
 * A file of a revision (a `file` object, listed by hash in the root's `files`). The bytes live
 * in the BlobStore under `sha256/<blob>` (see src/content-engine/files/file-content.ts).
 */
export interface FileNode {
  id: string;
  name: string;
  contentType: string;
  size: number;
  /** SHA-256 (hex) of the bytes. */
  blob: string;
  dimensions?: { width: number; height: number };
  git?: { oid: string; path: string };
}

/**
 * A reusable content of a revision (a `reusable-content` object, listed by hash in the root's
 * `reusableContents`): GitBook's `RevisionReusableContent`, its document by hash.
 */
export interface ReusableContentNode {
  id: string;
  title: string;
  /** Hash of its `document` object; absent or null for an empty reusable content. */
  document?: string | null;
  git?: { oid: string; path: string };
  [key: string]: unknown;
}

export interface RootNode {
  version: 2;
  pages: ChildRef[];
  /** Hashes of `file` objects, in upload order. */
  files: string[];
  /** Hashes of `reusable-content` objects (ReusableContentNode). */
  reusableContents: string[];
  variables: Record<string, string | number | boolean>;
  /** Root of the page index; null when there are no pages. */
  index: string | null;
}

/** Format version 1 (what `createInitialRevision` writes). */
export interface PageNodeV1 {
  id: string;
  type: 'document';
  title: string;
  slug: string;
  documentId?: string;
  pages: string[];
}

export interface RootNodeV1 {
  version: 1;
  pages: string[];
  files: string[];
  reusableContents: string[];
  variables: Record<string, string | number | boolean>;
}

/** The root of a tree without pages, files or variables (format 2). */
export function emptyRoot(): RootNode {
  return {
    version: TREE_FORMAT_VERSION,
    pages: [],
    files: [],
    reusableContents: [],
    variables: {},
    index: null,
  };
}

/** A root as read: version 2, or version 1 (which has no index and child hashes only). */
export type AnyRoot = RootNode | RootNodeV1;

export function isV1Page(node: object): node is PageNodeV1 {
  return !('meta' in node);
}

/** Version 1 page as version 2 (children still by hash; see `childRefs`). */
export function pageFromV1(node: PageNodeV1): Omit<PageNode, 'pages'> {
  return {
    id: node.id,
    type: 'document',
    meta: { title: node.title, slug: node.slug },
    document: node.documentId ?? null,
  };
}

/** Children as references, reading version 1 children (which lists hashes only). */
export async function childRefs(
  store: ObjectStore,
  pages: ChildRef[] | string[],
): Promise<ChildRef[]> {
  const refs: ChildRef[] = [];
  for (const entry of pages) {
    if (typeof entry !== 'string') {
      refs.push(entry);
      continue;
    }
    const child = await getRequired<PageNodeV1 | PageNode>(store, entry);
    const slug = isV1Page(child) ? child.slug : child.meta.slug;
    refs.push(
      slug === undefined ? { id: child.id, hash: entry } : { id: child.id, slug, hash: entry },
    );
  }
  return refs;
}

/** A page read from the store in version 2 shape, whatever its version. */
export async function readPage(store: ObjectStore, hash: string): Promise<PageNode> {
  const node = await getRequired<PageNode | PageNodeV1>(store, hash);
  if (isV1Page(node)) {
    return { ...pageFromV1(node), pages: await childRefs(store, node.pages) };
  }
  return node;
}

export async function readRoot(store: ObjectStore, hash: string): Promise<AnyRoot> {
  const root = await getRequired<AnyRoot>(store, hash);
  if (root.version !== 1 && root.version !== 2) {
    throw new Error(
      `Unknown tree format version ${String((root as { version: unknown }).version)}`,
    );
  }
  return root;
}

/** Slug-bearing variants: they have a path and may have children. */
export function hasPath(type: PageType): boolean {
  return type === 'document' || type === 'group';
}
