import {
  childRefs,
  emptyRoot,
  readPage,
  readRoot,
  type AnyRoot,
  type ChildRef,
  type PageNode,
  type PageType,
  type ReusableContentNode,
} from '../tree/format';
import type { FileObject } from '../reads/content-reader';
import { getRequired, type ObjectStore } from '../tree/object-store';
import { lookupParent } from '../tree/page-index';
import { findPageById } from '../tree/read';
import {
  fileAttributes,
  pageAttributes,
  reusableContentAttributes,
  variablesChange,
  type ChangeAttributes,
  type VariableChange,
} from './change-attributes';

/** A page as a change names it: what it is and where it sits in its tree. */
export interface ChangedPage {
  id: string;
  type: PageType;
  meta: PageNode['meta'];
  /** Slugs from the top joined by `/`; null for links and computed pages. */
  path: string | null;
}

/**
 * What changed from one tree to another, in GitBook's semantic terms (`RevisionSemanticChange`).
 * `page_moved`: the page has another parent (a top-level page has none: null). Reordering pages
 * under the same parent is not a move.
 */
export type TreeChange =
  | { type: 'page_created' | 'page_deleted'; page: ChangedPage }
  | { type: 'page_edited'; page: ChangedPage; attributes: ChangeAttributes }
  | {
      type: 'page_moved';
      page: ChangedPage;
      parent: { before: ChangedPage | null; after: ChangedPage | null };
    }
  | { type: 'file_created' | 'file_deleted'; file: FileObject }
  | { type: 'file_edited'; file: FileObject; before: FileObject; attributes: ChangeAttributes }
  | {
      type: 'reusable_content_created' | 'reusable_content_deleted';
      reusableContent: ReusableContentNode;
    }
  | {
      type: 'reusable_content_edited';
      reusableContent: ReusableContentNode;
      attributes: ChangeAttributes;
    }
  | { type: 'variables_edited'; variables: Record<string, VariableChange> };

/** Where a page sits: its entry in its parent's list, its parent (null: top level), its path. */
interface Place {
  ref: ChildRef;
  parent: ChangedPage | null;
  path: string | null;
}

interface Side {
  hash: string | null;
  root: AnyRoot;
}

const pathUnder = (parent: string | null, slug: string | undefined): string | null =>
  parent === null || slug === undefined ? null : parent ? `${parent}/${slug}` : slug;

const sameEntry = (a: ChildRef, b: ChildRef): boolean => a.id === b.id && a.hash === b.hash;

const changedPage = (node: PageNode, path: string | null): ChangedPage => ({
  id: node.id,
  type: node.type,
  meta: node.meta,
  path,
});

/**
 * The semantic changes from tree `fromRoot` (null: an empty tree) to tree `toRoot`: pages
 * first (those met walking both trees, in the later tree's order, then those found on one side
 * of that walk only, level by level: created, deleted, moved), then files, reusable contents
 * and variables.
 *
 * The cost follows the size of the change, not of the space: both trees are walked together from
 * the top, and a child with the same id and hash under the same parent is an identical subtree,
 * skipped unread. Only the pages on the paths to what changed are read, plus the subtrees that
 * were created or deleted. A page met on one side only is matched up with its other place when
 * the walk finds it; one the walk does not reach (it moved from, or into, a subtree that also
 * moved) is found by id through the page index. The root lists top-level pages, files and
 * reusable contents flat: those lists are compared in memory, by id and hash.
 */
export async function treeChanges(
  store: ObjectStore,
  fromRoot: string | null,
  toRoot: string,
): Promise<TreeChange[]> {
  if (fromRoot === toRoot) return [];
  const [from, to] = await Promise.all([
    // A revision without a parent is compared with an empty tree.
    fromRoot === null ? emptyRoot() : readRoot(store, fromRoot),
    readRoot(store, toRoot),
  ]);
  const diff = new TreeDiff(store, { hash: fromRoot, root: from }, { hash: toRoot, root: to });
  await diff.pages();
  return [
    ...diff.changes,
    ...(await fileChanges(store, from, to)),
    ...(await reusableContentChanges(store, from, to)),
    ...variableChanges(from, to),
  ];
}

class TreeDiff {
  readonly changes: TreeChange[] = [];
  /** Pages of the later tree met where the earlier tree did not have them. */
  private readonly arrived = new Map<string, Place>();
  /** Pages of the earlier tree not found where the later tree has them. */
  private readonly left = new Map<string, Place>();
  /** Pages whose two places have been compared (or that exist on one side only). */
  private readonly settled = new Set<string>();

  constructor(
    private readonly store: ObjectStore,
    private readonly from: Side,
    private readonly to: Side,
  ) {}

  async pages(): Promise<void> {
    const [now, before] = await Promise.all([
      childRefs(this.store, this.to.root.pages),
      childRefs(this.store, this.from.root.pages),
    ]);
    await this.walk(now, before, null, null);
    while (this.arrived.size > 0 || this.left.size > 0) {
      if (!(await this.settleKnown())) await this.settleOneByIndex();
    }
  }

  /** Children of the same page (or the top level) on both sides. */
  private async walk(
    refs: ChildRef[],
    oldRefs: ChildRef[],
    parent: ChangedPage | null,
    oldParent: ChangedPage | null,
  ): Promise<void> {
    // Siblings mostly keep their order: the identical entries at both ends are skipped without
    // a map, so a one-page change in a long list (the root's, of a flat space) costs a scan.
    let [start, end, oldEnd] = [0, refs.length, oldRefs.length];
    while (start < end && start < oldEnd && sameEntry(refs[start], oldRefs[start])) start++;
    while (end > start && oldEnd > start && sameEntry(refs[end - 1], oldRefs[oldEnd - 1])) {
      [end, oldEnd] = [end - 1, oldEnd - 1];
    }
    const oldById = new Map(oldRefs.slice(start, oldEnd).map((ref) => [ref.id, ref]));
    for (const ref of refs.slice(start, end)) {
      const old = oldById.get(ref.id);
      oldById.delete(ref.id);
      if (this.settled.has(ref.id)) continue;
      const place = { ref, parent, path: pathUnder(parent === null ? '' : parent.path, ref.slug) };
      if (!old) {
        this.arrived.set(ref.id, place);
      } else if (old.hash !== ref.hash) {
        const oldPath = pathUnder(oldParent === null ? '' : oldParent.path, old.slug);
        await this.compare({ ref: old, parent: oldParent, path: oldPath }, place);
      }
    }
    for (const old of oldById.values()) {
      if (this.settled.has(old.id)) continue;
      this.left.set(old.id, {
        ref: old,
        parent: oldParent,
        path: pathUnder(oldParent === null ? '' : oldParent.path, old.slug),
      });
    }
  }

  /** The same page at its two places: moved, edited, and what changed below it. */
  private async compare(old: Place, now: Place): Promise<void> {
    this.settled.add(now.ref.id);
    // Both sides in one go: a batching store reads them in one query.
    const [node, before] = await Promise.all([
      readPage(this.store, now.ref.hash),
      old.ref.hash === now.ref.hash ? null : readPage(this.store, old.ref.hash),
    ]);
    const page = changedPage(node, now.path);
    if ((old.parent?.id ?? null) !== (now.parent?.id ?? null)) {
      this.changes.push({
        type: 'page_moved',
        page,
        parent: { before: old.parent, after: now.parent },
      });
    }
    if (before === null) return;
    const attributes = pageAttributes(before, node);
    if (Object.keys(attributes).length > 0) {
      this.changes.push({ type: 'page_edited', page, attributes });
    }
    await this.walk(node.pages, before.pages, page, changedPage(before, old.path));
  }

  /**
   * Pairs pages that arrived with the same pages that left; a page the other tree does not
   * have at all is created (or deleted), and its children are looked at in turn. Answers
   * whether anything was settled.
   */
  private async settleKnown(): Promise<boolean> {
    let progressed = false;
    for (const [id, now] of [...this.arrived]) {
      const old = this.left.get(id);
      if (!old) continue;
      this.arrived.delete(id);
      this.left.delete(id);
      await this.compare(old, now);
      progressed = true;
    }
    const created = await this.oneSided('page_created', this.arrived, this.left, this.from);
    const deleted = await this.oneSided('page_deleted', this.left, this.arrived, this.to);
    return progressed || created || deleted;
  }

  /**
   * The pages of `queue` that the `other` tree does not have at all (not waiting in `others`
   * either): each is created (or deleted), and its children, on that side only too, are queued.
   * A level at a time: their index lookups and their reads go together. Answers whether there
   * were any.
   */
  private async oneSided(
    type: 'page_created' | 'page_deleted',
    queue: Map<string, Place>,
    others: Map<string, Place>,
    other: Side,
  ): Promise<boolean> {
    const waiting = [...queue.values()].filter((place) => !others.has(place.ref.id));
    const known = await Promise.all(waiting.map((place) => has(this.store, other, place.ref.id)));
    const places = waiting.filter((_, i) => !known[i]);
    for (const place of places) {
      queue.delete(place.ref.id);
      this.settled.add(place.ref.id);
    }
    const nodes = await Promise.all(places.map((place) => readPage(this.store, place.ref.hash)));
    nodes.forEach((node, i) => {
      const page = changedPage(node, places[i].path);
      this.changes.push({ type, page });
      for (const child of node.pages) {
        if (this.settled.has(child.id)) continue;
        queue.set(child.id, { ref: child, parent: page, path: pathUnder(page.path, child.slug) });
      }
    });
    return places.length > 0;
  }

  /**
   * Pages that moved into one another's former subtrees (A above B becoming B above A) wait for
   * each other: one of them is found on its other side by id, which unblocks the rest.
   */
  private async settleOneByIndex(): Promise<void> {
    const [arrived] = this.arrived;
    if (arrived) {
      const [id, now] = arrived;
      this.arrived.delete(id);
      await this.compare(await locate(this.store, this.from, id), now);
      return;
    }
    const [id, old] = [...this.left][0];
    this.left.delete(id);
    await this.compare(old, await locate(this.store, this.to, id));
  }
}

/** Whether the tree has the page (its page index says; a version 1 tree is searched). */
async function has(store: ObjectStore, side: Side, pageId: string): Promise<boolean> {
  if (side.hash === null) return false;
  if (side.root.version === 2) {
    return (await lookupParent(store, side.root.index, pageId)) !== undefined;
  }
  return (await findPageById(store, side.hash, pageId)) !== undefined;
}

/** Where a page the tree has sits in it (read down from the top). */
async function locate(store: ObjectStore, side: Side, pageId: string): Promise<Place> {
  const page = side.hash === null ? undefined : await findPageById(store, side.hash, pageId);
  if (!page) throw new Error(`Tree ${side.hash} has no page ${pageId} although its index does`);
  const parentPage =
    page.parentId === null ? undefined : await findPageById(store, side.hash!, page.parentId);
  const siblings = parentPage ? parentPage.pages : await childRefs(store, side.root.pages);
  const ref = siblings.find((sibling) => sibling.id === pageId)!;
  const parent = parentPage
    ? { id: parentPage.id, type: parentPage.type, meta: parentPage.meta, path: parentPage.path }
    : null;
  return { ref, parent, path: page.path };
}

/**
 * Lists of objects by hash (files, reusable contents) compared by id: only the objects whose
 * hash is on one side only are read.
 */
async function changedObjects<T extends { id: string }>(
  store: ObjectStore,
  before: readonly string[],
  after: readonly string[],
): Promise<{ created: T[]; deleted: T[]; edited: { before: T; after: T }[] }> {
  const [beforeSet, afterSet] = [new Set(before), new Set(after)];
  const [gone, come] = await Promise.all([
    Promise.all(before.filter((hash) => !afterSet.has(hash)).map((h) => getRequired<T>(store, h))),
    Promise.all(after.filter((hash) => !beforeSet.has(hash)).map((h) => getRequired<T>(store, h))),
  ]);
  const goneById = new Map(gone.map((object) => [object.id, object]));
  const comeIds = new Set(come.map((object) => object.id));
  return {
    created: come.filter((object) => !goneById.has(object.id)),
    edited: come.flatMap((object) => {
      const previous = goneById.get(object.id);
      return previous ? [{ before: previous, after: object }] : [];
    }),
    deleted: gone.filter((object) => !comeIds.has(object.id)),
  };
}

async function fileChanges(store: ObjectStore, from: AnyRoot, to: AnyRoot): Promise<TreeChange[]> {
  const { created, edited, deleted } = await changedObjects<FileObject>(
    store,
    from.files,
    to.files,
  );
  const changes: TreeChange[] = created.map((file) => ({ type: 'file_created', file }));
  for (const { before, after } of edited) {
    const attributes = fileAttributes(before, after);
    if (Object.keys(attributes).length > 0) {
      changes.push({ type: 'file_edited', file: after, before, attributes });
    }
  }
  return [...changes, ...deleted.map((file): TreeChange => ({ type: 'file_deleted', file }))];
}

async function reusableContentChanges(
  store: ObjectStore,
  from: AnyRoot,
  to: AnyRoot,
): Promise<TreeChange[]> {
  const { created, edited, deleted } = await changedObjects<ReusableContentNode>(
    store,
    from.reusableContents,
    to.reusableContents,
  );
  const changes: TreeChange[] = created.map((reusableContent) => ({
    type: 'reusable_content_created',
    reusableContent,
  }));
  for (const { before, after } of edited) {
    const attributes = reusableContentAttributes(before, after);
    if (Object.keys(attributes).length > 0) {
      changes.push({ type: 'reusable_content_edited', reusableContent: after, attributes });
    }
  }
  return [
    ...changes,
    ...deleted.map((reusableContent): TreeChange => ({
      type: 'reusable_content_deleted',
      reusableContent,
    })),
  ];
}

function variableChanges(from: AnyRoot, to: AnyRoot): TreeChange[] {
  const variables = variablesChange(from.variables, to.variables);
  return Object.keys(variables).length > 0 ? [{ type: 'variables_edited', variables }] : [];
}
