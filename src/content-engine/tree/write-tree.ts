import {
  hasPath,
  readPage,
  readRoot,
  TREE_FORMAT_VERSION,
  type ChildRef,
  type PageMeta,
  type PageNode,
  type PageType,
  type RootNode,
} from './format';
import { hashObject, type ObjectStore } from './object-store';
import { updateIndex, type IndexUpdate } from './page-index';
import { isValidSlug, slugify, uniqueSlug } from './slug';

/** A page of the tree to write: its node without child hashes, and its subpages. */
export interface TreePage {
  id: string;
  type: PageType;
  meta: PageMeta;
  document: string | null;
  pages: TreePage[];
}

/** A page node of the base, with its hash and its parent. */
export interface BaseNode {
  hash: string;
  parentId: string | null;
  node: PageNode;
}

/** The base the tree is written over: its root and every page node, by id. */
export interface TreeBase {
  root: RootNode;
  nodes: ReadonlyMap<string, BaseNode>;
}

/**
 * Writes `pages` and `files` (file object hashes, in order) as a whole new tree over `base`
 * (whose reusable contents and variables it keeps), and returns the root's hash: the base's own
 * hash when nothing differs. Every node is hashed first and written only when the base has no
 * node of that hash for the page, so a tree differing from its base on one page writes that
 * page, its ancestors, the root and the page index leaves of pages that moved (compare
 * `commit`, which applies edits one by one). Slugs are made unique among siblings as `commit`
 * makes them; the caller gives valid pages (ids unique, groups at the top level, documents
 * stored).
 */
export async function writeTree(
  store: ObjectStore,
  base: TreeBase,
  pages: readonly TreePage[],
  files: readonly string[],
): Promise<string> {
  const parents = new Map<string, string | null>();
  const write = async (list: readonly TreePage[], parentId: string | null): Promise<ChildRef[]> => {
    const refs: ChildRef[] = [];
    const slugs = siblingSlugs(list);
    for (const [i, page] of list.entries()) {
      parents.set(page.id, parentId);
      const meta: PageMeta = { ...page.meta, slug: slugs[i] };
      if (slugs[i] === undefined) delete meta.slug;
      const node: PageNode = {
        id: page.id,
        type: page.type,
        meta,
        document: page.document,
        pages: await write(page.pages, page.id),
      };
      let hash = hashObject(node);
      if (base.nodes.get(page.id)?.hash !== hash) hash = await store.put('page', node);
      refs.push(
        typeof meta.slug === 'string'
          ? { id: page.id, slug: meta.slug, hash }
          : { id: page.id, hash },
      );
    }
    return refs;
  };
  const top = await write(pages, null);
  const updates: IndexUpdate[] = [];
  for (const [id, parentId] of parents) {
    if (base.nodes.get(id)?.parentId !== parentId || !base.nodes.has(id)) {
      updates.push([id, parentId]);
    }
  }
  for (const id of base.nodes.keys()) {
    if (!parents.has(id)) updates.push([id, undefined]);
  }
  const root: RootNode = {
    ...base.root,
    version: TREE_FORMAT_VERSION,
    pages: top,
    files: [...files],
    index: await updateIndex(store, base.root.index, updates),
  };
  return store.put('tree', root);
}

/**
 * Gives every page the slug `writeTree` will give it, in place: its own when valid, else one
 * from its title, made unique among its siblings as `commit` does (`-2`, `-3`, …); none for
 * links and computed pages.
 */
export function assignSlugs(pages: readonly TreePage[]): void {
  for (const [i, slug] of siblingSlugs(pages).entries()) {
    if (slug === undefined) delete pages[i].meta.slug;
    else pages[i].meta.slug = slug;
    assignSlugs(pages[i].pages);
  }
}

function siblingSlugs(pages: readonly TreePage[]): (string | undefined)[] {
  const taken = new Set<string>();
  return pages.map((page) => {
    if (!hasPath(page.type)) return undefined;
    const own = page.meta.slug;
    const wanted = typeof own === 'string' && isValidSlug(own) ? own : '';
    const slug = uniqueSlug(wanted || slugify(page.meta.title ?? ''), taken);
    taken.add(slug);
    return slug;
  });
}

/**
 * The base of `writeTree` for the tree `rootHash`: every page node read (the nodes of one
 * level at once, so that a batching store reads a level in one query). A format 1 tree gives
 * an empty base with its files, reusable contents and variables: its pages are written anew.
 */
export async function readTreeBase(store: ObjectStore, rootHash: string): Promise<TreeBase> {
  const root = await readRoot(store, rootHash);
  const nodes = new Map<string, BaseNode>();
  if (root.version !== 2) {
    return {
      root: { ...root, version: TREE_FORMAT_VERSION, pages: [], index: null },
      nodes,
    };
  }
  let level: { refs: ChildRef[]; parentId: string | null }[] = [
    { refs: root.pages, parentId: null },
  ];
  while (level.length > 0) {
    const refs = level.flatMap(({ refs, parentId }) => refs.map((ref) => ({ ref, parentId })));
    const read = await Promise.all(refs.map(({ ref }) => readPage(store, ref.hash)));
    level = [];
    for (const [i, { ref, parentId }] of refs.entries()) {
      nodes.set(ref.id, { hash: ref.hash, parentId, node: read[i] });
      if (read[i].pages.length > 0) level.push({ refs: read[i].pages, parentId: ref.id });
    }
  }
  return { root, nodes };
}
