import { sha256Hex } from '../../platform/ids/ids';
import { getRequired, type ObjectStore } from './object-store';

/**
 * The page index of a tree: page id → parent page id (null at the top level), so that a page
 * is found from its id by walking up its parents and back down, without reading the tree.
 *
 * A hash trie on the hex SHA-256 of the page id: a node with at most LEAF_MAX entries is a leaf
 * listing them; a bigger one branches on the next hex digit. The shape depends only on the
 * entries (never on the order of edits), so equal page trees have equal index hashes. An edit
 * rewrites one leaf and its branches (three nodes for 10,000 pages).
 */
export const INDEX_LEAF_MAX = 64;

type ParentId = string | null;

interface IndexLeaf {
  leaf: Record<string, ParentId>;
}

interface IndexBranch {
  count: number;
  branch: Record<string, { hash: string; count: number }>;
}

type IndexNode = IndexLeaf | IndexBranch;

/** An update of the index: a new parent, or `undefined` to remove the page. */
export type IndexUpdate = [pageId: string, parentId: ParentId | undefined];

const KIND = 'page-index';

function keyOf(pageId: string): string {
  return sha256Hex(pageId);
}

/** The parent of `pageId` (null: top level), or undefined when the index has no such page. */
export async function lookupParent(
  store: ObjectStore,
  index: string | null,
  pageId: string,
): Promise<ParentId | undefined> {
  if (index === null) {
    return undefined;
  }
  const key = keyOf(pageId);
  let node = await getRequired<IndexNode>(store, index);
  for (let depth = 0; 'branch' in node; depth++) {
    const child = node.branch[key[depth]];
    if (!child) {
      return undefined;
    }
    node = await getRequired<IndexNode>(store, child.hash);
  }
  return Object.prototype.hasOwnProperty.call(node.leaf, pageId) ? node.leaf[pageId] : undefined;
}

/** Applies updates (the last one for a page wins) and returns the new index root. */
export async function updateIndex(
  store: ObjectStore,
  index: string | null,
  updates: Iterable<IndexUpdate>,
): Promise<string | null> {
  const byPage = new Map<string, { key: string; parent: ParentId | undefined }>();
  for (const [pageId, parent] of updates) {
    byPage.set(pageId, { key: keyOf(pageId), parent });
  }
  if (byPage.size === 0) {
    return index;
  }
  return (await apply(store, index, [...byPage], 0))?.hash ?? null;
}

/** An index of exactly these entries, built in one pass. */
export async function buildIndex(
  store: ObjectStore,
  entries: Iterable<[pageId: string, parentId: ParentId]>,
): Promise<string | null> {
  const keyed = [...entries].map(([id, parent]) => ({ id, key: keyOf(id), parent }));
  return (await build(store, keyed, 0))?.hash ?? null;
}

type Pending = [string, { key: string; parent: ParentId | undefined }];

async function apply(
  store: ObjectStore,
  hash: string | null,
  updates: Pending[],
  depth: number,
): Promise<{ hash: string; count: number } | null> {
  const node: IndexNode = hash === null ? { leaf: {} } : await getRequired<IndexNode>(store, hash);
  if ('leaf' in node) {
    const entries = new Map(Object.entries(node.leaf));
    for (const [id, { parent }] of updates) {
      if (parent === undefined) {
        entries.delete(id);
      } else {
        entries.set(id, parent);
      }
    }
    return build(
      store,
      [...entries].map(([id, parent]) => ({ id, key: keyOf(id), parent })),
      depth,
    );
  }
  const groups = new Map<string, Pending[]>();
  for (const update of updates) {
    const digit = update[1].key[depth];
    const group = groups.get(digit);
    if (group) {
      group.push(update);
    } else {
      groups.set(digit, [update]);
    }
  }
  const branch = { ...node.branch };
  for (const [digit, group] of groups) {
    const child = await apply(store, branch[digit]?.hash ?? null, group, depth + 1);
    if (child) {
      branch[digit] = child;
    } else {
      delete branch[digit];
    }
  }
  const count = Object.values(branch).reduce((sum, child) => sum + child.count, 0);
  if (count <= INDEX_LEAF_MAX) {
    // Shrunk below the split size: back to a leaf, as a build of these entries would be.
    const entries: Entry[] = [];
    for (const child of Object.values(branch)) {
      await collect(store, child.hash, entries);
    }
    return build(store, entries, depth);
  }
  return { hash: await store.put(KIND, { count, branch }), count };
}

interface Entry {
  id: string;
  key: string;
  parent: ParentId;
}

async function collect(store: ObjectStore, hash: string, into: Entry[]): Promise<void> {
  const node = await getRequired<IndexNode>(store, hash);
  if ('leaf' in node) {
    for (const [id, parent] of Object.entries(node.leaf)) {
      into.push({ id, key: keyOf(id), parent });
    }
    return;
  }
  for (const child of Object.values(node.branch)) {
    await collect(store, child.hash, into);
  }
}

async function build(
  store: ObjectStore,
  entries: Entry[],
  depth: number,
): Promise<{ hash: string; count: number } | null> {
  if (entries.length === 0) {
    return null;
  }
  // 64 hex digits: past them every key is equal, so stop splitting (never reached in practice).
  if (entries.length <= INDEX_LEAF_MAX || depth >= 64) {
    const leaf: Record<string, ParentId> = {};
    for (const entry of entries) {
      leaf[entry.id] = entry.parent;
    }
    return { hash: await store.put(KIND, { leaf }), count: entries.length };
  }
  const groups = new Map<string, Entry[]>();
  for (const entry of entries) {
    const digit = entry.key[depth];
    const group = groups.get(digit);
    if (group) {
      group.push(entry);
    } else {
      groups.set(digit, [entry]);
    }
  }
  const branch: IndexBranch['branch'] = {};
  for (const [digit, group] of groups) {
    const child = await build(store, group, depth + 1);
    if (child) {
      branch[digit] = child;
    }
  }
  return { hash: await store.put(KIND, { count: entries.length, branch }), count: entries.length };
}
