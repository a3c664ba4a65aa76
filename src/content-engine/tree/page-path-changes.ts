import { childRefs, readPage, readRoot, type AnyRoot, type ChildRef } from './format';
import type { ObjectStore } from './object-store';
import { lookupParent } from './page-index';

/** A page that is at another path in one tree than in another: moved, or a slug renamed. */
export interface PagePathChange {
  pageId: string;
  /** Slugs from the top joined by `/`, in the earlier tree. */
  from: string;
  /** The same in the later tree. */
  to: string;
}

const pathUnder = (parent: string | null, slug: string | undefined): string | null =>
  parent === null || slug === undefined ? null : parent ? `${parent}/${slug}` : slug;

interface Pending {
  ref: ChildRef;
  parentPath: string | null;
}

/**
 * The pages that have a path in both trees, and not the same one. Compares paths only, from
 * the children lists (which carry each child's slug): both trees are walked together from the
 * top, and a child with the same id and hash at the same path is the same subtree at the same
 * place, skipped unread. Pages found on one side only (inserted, deleted, or moved to another
 * parent) are matched up at the end; the subtrees that left are read only when a page that
 * arrived was in the earlier tree (its page index says so), and no further than it takes to
 * find them all.
 */
export async function pagePathChanges(
  store: ObjectStore,
  fromRoot: string,
  toRoot: string,
): Promise<PagePathChange[]> {
  if (fromRoot === toRoot) return [];
  const changes: PagePathChange[] = [];
  /** Pages of the later tree not met at a place of the earlier one: their paths. */
  const arrived = new Map<string, string | null>();
  const left: Pending[] = [];

  const collectArrived = async (refs: ChildRef[], parentPath: string | null): Promise<void> => {
    for (const ref of refs) {
      const path = pathUnder(parentPath, ref.slug);
      arrived.set(ref.id, path);
      await collectArrived((await readPage(store, ref.hash)).pages, path);
    }
  };

  const walk = async (
    refs: ChildRef[],
    oldRefs: ChildRef[],
    parentPath: string | null,
    oldParentPath: string | null,
  ): Promise<void> => {
    const oldById = new Map(oldRefs.map((ref) => [ref.id, ref]));
    for (const ref of refs) {
      const old = oldById.get(ref.id);
      oldById.delete(ref.id);
      if (!old) {
        await collectArrived([ref], parentPath);
        continue;
      }
      const path = pathUnder(parentPath, ref.slug);
      const oldPath = pathUnder(oldParentPath, old.slug);
      if (old.hash === ref.hash && path === oldPath) continue;
      if (path !== null && oldPath !== null && path !== oldPath) {
        changes.push({ pageId: ref.id, from: oldPath, to: path });
      }
      const node = await readPage(store, ref.hash);
      const before = old.hash === ref.hash ? node : await readPage(store, old.hash);
      await walk(node.pages, before.pages, path, oldPath);
    }
    for (const old of oldById.values()) left.push({ ref: old, parentPath: oldParentPath });
  };

  const [root, oldRoot] = await Promise.all([readRoot(store, toRoot), readRoot(store, fromRoot)]);
  await walk(await childRefs(store, root.pages), await childRefs(store, oldRoot.pages), '', '');

  // The pages that arrived from another place are among those that left one.
  const sought = new Set<string>();
  for (const [id, path] of arrived) {
    if (path !== null && (await wasIn(store, oldRoot, id))) sought.add(id);
  }
  const queue = [...left];
  for (let next = 0; sought.size > 0 && next < queue.length; next++) {
    const { ref, parentPath } = queue[next];
    const oldPath = pathUnder(parentPath, ref.slug);
    const path = arrived.get(ref.id);
    if (sought.delete(ref.id) && path && oldPath !== null && path !== oldPath) {
      changes.push({ pageId: ref.id, from: oldPath, to: path });
    }
    const node = await readPage(store, ref.hash);
    queue.push(...node.pages.map((child) => ({ ref: child, parentPath: oldPath })));
  }
  return changes;
}

/** Whether the tree had the page; always true for a version 1 tree, which has no index. */
async function wasIn(store: ObjectStore, root: AnyRoot, pageId: string): Promise<boolean> {
  return root.version === 1 || (await lookupParent(store, root.index, pageId)) !== undefined;
}
