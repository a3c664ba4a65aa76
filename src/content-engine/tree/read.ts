import { withPageCondition } from '../../platform/conditions/page-visibility';
import { lookupParent } from './page-index';
import {
  childRefs,
  readPage,
  readRoot,
  type ChildRef,
  type PageNode,
  type PageType,
} from './format';
import type { ObjectStore } from './object-store';
import type { PageSnapshot, SnapshotPage } from './snapshot';
import { slugKey } from './slug';

/** A page found on a tree, with where it sits. */
export interface TreePage {
  id: string;
  type: PageType;
  parentId: string | null;
  index: number;
  meta: Record<string, unknown>;
  documentHash: string | null;
  /** Slugs from the top joined by `/`; null for links and computed pages. */
  path: string | null;
  /** Children, in order, by id and slug (read them with `findPageById`). */
  pages: ChildRef[];
  /**
   * The adaptive-content conditions of the page and its ancestors, top first: a visitor sees
   * the page only when it meets them all.
   */
  conditions: string[];
}

/** What a snapshot (and a merge) compares as a page's metadata: its variant and fields. */
export function snapshotMeta(node: Pick<PageNode, 'type' | 'meta'>): Record<string, unknown> {
  return { type: node.type, ...node.meta };
}

async function topLevel(store: ObjectStore, rootHash: string) {
  const root = await readRoot(store, rootHash);
  return { root, pages: await childRefs(store, root.pages) };
}

/** Every page of a tree by id, in document order (parents before children). */
export async function flatten(store: ObjectStore, rootHash: string): Promise<PageSnapshot> {
  const snapshot: PageSnapshot = new Map();
  const visit = async (refs: ChildRef[], parentId: string | null): Promise<void> => {
    for (const [index, ref] of refs.entries()) {
      const node = await readPage(store, ref.hash);
      const page: SnapshotPage = {
        id: node.id,
        parentId,
        index,
        meta: snapshotMeta(node),
        documentHash: node.document,
      };
      snapshot.set(node.id, page);
      await visit(node.pages, node.id);
    }
  };
  await visit((await topLevel(store, rootHash)).pages, null);
  return snapshot;
}

/** Path of every page that has one (document and group pages): slugs joined by `/`. */
export function pagePaths(snapshot: PageSnapshot): Map<string, string> {
  const paths = new Map<string, string>();
  const pathOf = (id: string): string | null => {
    const known = paths.get(id);
    if (known !== undefined) {
      return known;
    }
    const page = snapshot.get(id);
    const slug = page?.meta.slug;
    if (!page || typeof slug !== 'string') {
      return null;
    }
    const parentPath = page.parentId === null ? '' : pathOf(page.parentId);
    if (parentPath === null) {
      return null;
    }
    const path = parentPath ? `${parentPath}/${slug}` : slug;
    paths.set(id, path);
    return path;
  };
  for (const id of snapshot.keys()) {
    pathOf(id);
  }
  return paths;
}

/** The page at `path` (slugs joined by `/`), reading one page per level. */
export async function findPageByPath(
  store: ObjectStore,
  rootHash: string,
  path: string,
): Promise<TreePage | undefined> {
  const segments = path
    .split('/')
    .filter((segment) => segment !== '')
    .map(slugKey);
  if (segments.length === 0) {
    return undefined;
  }
  let siblings = (await topLevel(store, rootHash)).pages;
  let parentId: string | null = null;
  let found: TreePage | undefined;
  for (const segment of segments) {
    const index = siblings.findIndex((ref) => ref.slug === segment);
    if (index < 0) {
      return undefined;
    }
    const node = await readPage(store, siblings[index].hash);
    found = view(node, parentId, index, found ? `${found.path}/${segment}` : segment, found);
    siblings = node.pages;
    parentId = node.id;
  }
  return found;
}

/**
 * The page with this id: its ancestors from the page index, then one page per level down from
 * the top. A version 1 tree (no index) is searched instead; those are small.
 */
export async function findPageById(
  store: ObjectStore,
  rootHash: string,
  pageId: string,
): Promise<TreePage | undefined> {
  const { root, pages } = await topLevel(store, rootHash);
  if (root.version === 1) {
    return searchById(store, pages, pageId);
  }
  const chain = [pageId];
  let parent = await lookupParent(store, root.index, pageId);
  if (parent === undefined) {
    return undefined;
  }
  while (parent !== null) {
    chain.unshift(parent);
    parent = await lookupParent(store, root.index, parent);
    if (parent === undefined) {
      throw new Error(`Page index of tree ${rootHash} has no entry for an ancestor of ${pageId}`);
    }
  }
  let siblings = pages;
  let found: TreePage | undefined;
  for (const id of chain) {
    const index = siblings.findIndex((ref) => ref.id === id);
    if (index < 0) {
      throw new Error(`Page index of tree ${rootHash} disagrees with its pages about ${id}`);
    }
    const node = await readPage(store, siblings[index].hash);
    const slug = siblings[index].slug;
    const path = slug === undefined ? null : found ? found.path && `${found.path}/${slug}` : slug;
    found = view(node, found?.id ?? null, index, path, found);
    siblings = node.pages;
  }
  return found;
}

async function searchById(
  store: ObjectStore,
  refs: ChildRef[],
  pageId: string,
  parent: TreePage | null = null,
): Promise<TreePage | undefined> {
  for (const [index, ref] of refs.entries()) {
    const node = await readPage(store, ref.hash);
    const path =
      ref.slug === undefined
        ? null
        : parent
          ? parent.path && `${parent.path}/${ref.slug}`
          : ref.slug;
    const page = view(node, parent?.id ?? null, index, path, parent ?? undefined);
    if (node.id === pageId) {
      return page;
    }
    const below = await searchById(store, node.pages, pageId, page);
    if (below) {
      return below;
    }
  }
  return undefined;
}

function view(
  node: PageNode,
  parentId: string | null,
  index: number,
  path: string | null,
  parent: TreePage | undefined,
): TreePage {
  return {
    conditions: withPageCondition(parent?.conditions ?? [], node.meta),
    id: node.id,
    type: node.type,
    parentId,
    index,
    meta: snapshotMeta(node),
    documentHash: node.document,
    path,
    pages: node.pages,
  };
}
