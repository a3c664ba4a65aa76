import type { JSONDocument } from '../documents/document';
import { commit, type PageChange } from '../tree/commit';
import {
  childRefs,
  readPage,
  readRoot,
  type AnyRoot,
  type ChildRef,
  type FileNode,
  type PageNode,
} from '../tree/format';
import { getRequired, type ObjectStore } from '../tree/object-store';
import { lookupParent } from '../tree/page-index';
import { snapshotMeta } from '../tree/read';
import type { PageSnapshot, SnapshotPage } from '../tree/snapshot';
import { canonical } from './document-merge';
import { mergeSnapshots } from './merge';
import type { MergeConflict } from './types';

export interface TreeMergeInput {
  store: ObjectStore;
  /** Root hashes: the merge base, the side the result is written on, and the side merged in. */
  base: string;
  ours: string;
  theirs: string;
}

export type TreeMergeResult =
  { result: 'merge'; tree: string } | { result: 'conflicts'; conflicts: MergeConflict[] };

/** Where a page sits in one version, and its node's hash there. */
interface Placed {
  hash: string;
  parentId: string | null;
  index: number;
}

/** One version's pages as far as the merge needs to read them. */
class Version {
  readonly placed = new Map<string, Placed>();
  /** Pages whose node was read (their children are placed). */
  readonly opened = new Set<string>();

  constructor(readonly root: AnyRoot) {}

  place(refs: readonly ChildRef[], parentId: string | null): void {
    refs.forEach((ref, index) => this.placed.set(ref.id, { hash: ref.hash, parentId, index }));
  }
}

/**
 * Three-way merge of two revision trees over their merge base, written as a new tree on top of
 * `ours` (DESIGN "Content model"). The page-level rules are mergeSnapshots'; this reads only
 * what can differ and writes only what changes:
 *
 * - A page whose node has the same hash in every version is identical there, subtree included,
 *   so it is never read: it takes part in the merge by its place alone. Nodes are read where
 *   hashes differ, and for pages added since the base (whose content has to be copied), so a
 *   one-page change in a 10,000-page space reads the pages on its path and their siblings' refs.
 * - The merged pages become tree changes (insert, move, metadata, document, delete) applied to
 *   `ours` with the tree commit, so unchanged subtrees keep their objects.
 * - Files: those `theirs` added since the base are added, those it removed are removed.
 *   Reusable contents and variables stay as `ours` has them.
 *
 * When one side did not change since the base the result is the other side's tree as it is.
 */
export async function mergeTrees(input: TreeMergeInput): Promise<TreeMergeResult> {
  const { store, base, ours, theirs } = input;
  if (theirs === base || theirs === ours) return { result: 'merge', tree: ours };
  if (ours === base) return { result: 'merge', tree: theirs };

  const versions = await Promise.all(
    [base, ours, theirs].map(async (hash) => new Version(await readRoot(store, hash))),
  );
  await Promise.all(
    versions.map(async (version) =>
      version.place(await childRefs(store, version.root.pages), null),
    ),
  );
  const nodes = await readChangedPages(store, versions);
  const [baseSnapshot, oursSnapshot, theirsSnapshot] = versions.map((version) =>
    snapshotOf(version, nodes),
  );
  const merged = await mergeSnapshots({
    base: baseSnapshot,
    ours: oursSnapshot,
    theirs: theirsSnapshot,
    documents: (hash) => getRequired<JSONDocument>(store, hash),
  });
  if (merged.result === 'conflicts') return merged;

  for (const document of merged.documents.values()) await store.put('document', document);
  const nodeOf = (id: string) => {
    for (const version of [versions[2], versions[1], versions[0]]) {
      const placed = version.placed.get(id);
      const node = placed && nodes.get(placed.hash);
      if (node) return node;
    }
    throw new Error(`merge: page ${id} was not read`);
  };
  const changes = [
    ...pageChanges(oursSnapshot, merged.pages, nodeOf),
    ...(await fileChanges(store, versions[0].root, versions[1].root, versions[2].root)),
  ];
  return { result: 'merge', tree: await commit(store, ours, changes) };
}

/**
 * Reads, until nothing more is needed, the nodes of pages that are not identical everywhere:
 * a page is read in every version that has it when its hash differs somewhere, when it is
 * new since the base, or when another version read the same node already.
 *
 * A page placed in one version but not in another may still be in that other one, under a
 * parent that was not read there (its parent was deleted on one side after the page moved
 * out). The other version's page index says so, and its nearest placed ancestor is then read
 * everywhere. Version 1 trees have no index: with one of them, everything is read.
 *
 * Returns the nodes read, by hash.
 */
async function readChangedPages(
  store: ObjectStore,
  versions: Version[],
): Promise<Map<string, PageNode>> {
  const [baseVersion] = versions;
  const nodes = new Map<string, PageNode>();
  const everything = versions.some((version) => version.root.version === 1);
  const forced = new Set<string>();
  const differs = (id: string, hash: string) =>
    everything ||
    forced.has(id) ||
    nodes.has(hash) ||
    !baseVersion.placed.has(id) ||
    versions.some((version) => {
      const placed = version.placed.get(id);
      return placed !== undefined && placed.hash !== hash;
    });
  for (;;) {
    const toOpen: [Version, string, string][] = [];
    for (const version of versions) {
      for (const [id, { hash }] of version.placed) {
        if (!version.opened.has(id) && differs(id, hash)) toOpen.push([version, id, hash]);
      }
    }
    if (toOpen.length === 0) {
      const hidden = await hiddenAncestors(store, versions);
      if (hidden.length === 0) return nodes;
      hidden.forEach((id) => forced.add(id));
      continue;
    }
    await Promise.all(
      [...new Set(toOpen.map(([, , hash]) => hash))]
        .filter((hash) => !nodes.has(hash))
        .map(async (hash) => nodes.set(hash, await readPage(store, hash))),
    );
    for (const [version, id, hash] of toOpen) {
      version.opened.add(id);
      version.place(nodes.get(hash)!.pages, id);
    }
  }
}

/**
 * For pages placed in some version but not in another that has them: the nearest ancestor
 * placed (and not read) in that other version.
 */
async function hiddenAncestors(store: ObjectStore, versions: Version[]): Promise<string[]> {
  const ids = new Set(versions.flatMap((version) => [...version.placed.keys()]));
  const found = new Set<string>();
  for (const version of versions) {
    const { root } = version;
    if (root.version !== 2) continue;
    for (const id of ids) {
      if (version.placed.has(id)) continue;
      let parent = await lookupParent(store, root.index, id);
      while (parent !== undefined && parent !== null && !version.placed.has(parent)) {
        parent = await lookupParent(store, root.index, parent);
      }
      if (parent) found.add(parent);
    }
  }
  return [...found];
}

/**
 * The version's placed pages for mergeSnapshots. Pages that were not read are identical in
 * every version that has them, so they stand in with empty metadata and no document.
 */
function snapshotOf(version: Version, nodes: Map<string, PageNode>): PageSnapshot {
  const snapshot: PageSnapshot = new Map();
  for (const [id, placed] of version.placed) {
    const node = nodes.get(placed.hash);
    snapshot.set(id, {
      id,
      parentId: placed.parentId,
      index: placed.index,
      meta: node ? snapshotMeta(node) : {},
      documentHash: node ? node.document : null,
    });
  }
  return snapshot;
}

/**
 * Tree changes that turn `ours` into `merged`: parents before children, each page inserted or
 * moved where the merged order needs it, then metadata and documents, then deletions (a
 * deleted subtree once, at its top).
 *
 * Places are computed on a running copy of ours' child lists, in which pages that leave a
 * parent later (moved on, or deleted) still sit: each page goes right after its merged
 * predecessor, and pages already there stay put.
 */
function pageChanges(
  ours: PageSnapshot,
  merged: PageSnapshot,
  nodeOf: (id: string) => PageNode,
): PageChange[] {
  const current = childrenOf(ours);
  const parentOf = new Map([...ours.values()].map((page) => [page.id, page.parentId]));
  const wantedChildren = childrenOf(merged);
  const placing: PageChange[] = [];
  const editing: PageChange[] = [];

  const visit = (parentId: string | null) => {
    const wanted = wantedChildren.get(parentId) ?? [];
    const siblings = current.get(parentId) ?? [];
    current.set(parentId, siblings);
    const afterPredecessor = (i: number) => (i === 0 ? 0 : siblings.indexOf(wanted[i - 1]) + 1);
    wanted.forEach((id, i) => {
      const before = ours.get(id);
      const after = merged.get(id)!;
      if (siblings[afterPredecessor(i)] !== id) {
        if (before) {
          // The commit takes the page out first, then inserts it: so does this copy.
          const from = current.get(parentOf.get(id) ?? null)!;
          from.splice(from.indexOf(id), 1);
        }
        const at = afterPredecessor(i);
        if (before) {
          placing.push({ operation: 'move_page', page: id, into: parentId, at });
        } else {
          const { type } = nodeOf(id);
          const { type: _type, ...meta } = after.meta;
          const document = after.documentHash;
          placing.push({ operation: 'insert_page', id, type, meta, document, into: parentId, at });
        }
        siblings.splice(at, 0, id);
        parentOf.set(id, parentId);
      }
      if (before) editing.push(...pageEdits(before, after));
      visit(id);
    });
  };
  visit(null);

  const deleting: PageChange[] = [];
  for (const [id, page] of ours) {
    const parentGoes = page.parentId !== null && !merged.has(page.parentId);
    if (!merged.has(id) && !parentGoes) deleting.push({ operation: 'delete_page', page: id });
  }
  return [...placing, ...editing, ...deleting];
}

/** Each parent's children in order. */
function childrenOf(snapshot: PageSnapshot): Map<string | null, string[]> {
  const children = new Map<string | null, string[]>();
  const sorted = [...snapshot.values()].sort((a, b) => a.index - b.index);
  for (const page of sorted) {
    const list = children.get(page.parentId) ?? [];
    list.push(page.id);
    children.set(page.parentId, list);
  }
  return children;
}

/** Metadata and document changes of a page kept by the merge. */
function pageEdits(before: SnapshotPage, after: SnapshotPage): PageChange[] {
  const edits: PageChange[] = [];
  if (canonical(before.meta) !== canonical(after.meta)) {
    const meta: Record<string, unknown> = {};
    for (const name of new Set([...Object.keys(before.meta), ...Object.keys(after.meta)])) {
      if (name === 'type' || canonical(before.meta[name]) === canonical(after.meta[name])) continue;
      meta[name] = after.meta[name] ?? null;
    }
    // A new title alone would make the commit derive a new slug; the merged one is kept.
    if ('title' in meta && after.meta.slug !== undefined) meta.slug = after.meta.slug;
    edits.push({ operation: 'update_page', page: after.id, meta });
  }
  if (before.documentHash !== after.documentHash) {
    edits.push({ operation: 'set_document', page: after.id, document: after.documentHash });
  }
  return edits;
}

/** The files `theirs` added or removed since the base, applied to `ours`. */
async function fileChanges(
  store: ObjectStore,
  base: AnyRoot,
  ours: AnyRoot,
  theirs: AnyRoot,
): Promise<PageChange[]> {
  const [inBase, inOurs, inTheirs] = [base, ours, theirs].map((root) => new Set(root.files));
  const fileId = async (hash: string) => (await getRequired<FileNode>(store, hash)).id;
  const oursIds = async () => new Set(await Promise.all([...inOurs].map(fileId)));
  const added = [...inTheirs].filter((hash) => !inBase.has(hash) && !inOurs.has(hash));
  const removed = [...inBase].filter((hash) => !inTheirs.has(hash) && inOurs.has(hash));
  if (added.length === 0 && removed.length === 0) return [];
  const present = await oursIds();
  const changes: PageChange[] = [];
  for (const hash of removed) {
    const id = await fileId(hash);
    present.delete(id);
    changes.push({ operation: 'delete_file', file: id });
  }
  for (const hash of added) {
    // The same file id added on both sides with different content keeps ours.
    if (!present.has(await fileId(hash))) changes.push({ operation: 'insert_file', file: hash });
  }
  return changes;
}
