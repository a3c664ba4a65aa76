import { childRefs, readPage, readRoot, type ChildRef, type PageNode } from '../tree/format';
import type { ObjectStore } from '../tree/object-store';
import type { PageAncestor } from './entities/page-section.entity';

/** What the index holds of a page; a page is re-indexed when any of it changes. */
export interface IndexedPage {
  id: string;
  title: string;
  path: string;
  documentHash: string | null;
  ancestors: PageAncestor[];
}

/** Where a list of siblings sits: its parent's path (null: no path) and the titles above. */
interface Context {
  path: string | null;
  ancestors: PageAncestor[];
}

const titleOf = (node: PageNode): string =>
  typeof node.meta.title === 'string' ? node.meta.title : '';

/**
 * The document pages to (re)index and the pages whose rows must go, from the tree `fromRoot`
 * to the tree `toRoot`, reading only what differs. Both trees are walked together from the
 * top: a child with the same id and hash on both sides, under a parent whose path and
 * ancestors did not change, is the same subtree in the same place, and is skipped unread. So
 * a one-page edit reads the pages on its path (and their siblings' references), not the trees.
 *
 * A page that moved is read in full at its new place (`changed`) and listed among the pages
 * that went from its old one (`removed`): deleting the rows of both lists and inserting the
 * changed pages' rows gives the new index. `fromRoot` null treats every page as new.
 */
export async function indexChanges(
  store: ObjectStore,
  fromRoot: string | null,
  toRoot: string,
): Promise<{ changed: IndexedPage[]; removed: string[] }> {
  const changed: IndexedPage[] = [];
  const removed: string[] = [];
  const top = async (hash: string) => childRefs(store, (await readRoot(store, hash)).pages);

  const collectRemoved = async (refs: ChildRef[]): Promise<void> => {
    for (const ref of refs) {
      removed.push(ref.id);
      await collectRemoved((await readPage(store, ref.hash)).pages);
    }
  };

  const walk = async (
    refs: ChildRef[],
    oldRefs: ChildRef[],
    context: Context,
    contextChanged: boolean,
  ): Promise<void> => {
    const oldById = new Map(oldRefs.map((ref) => [ref.id, ref]));
    for (const ref of refs) {
      const old = oldById.get(ref.id);
      oldById.delete(ref.id);
      if (old && old.hash === ref.hash && !contextChanged) continue;
      const node = await readPage(store, ref.hash);
      const before = old ? await readPage(store, old.hash) : null;
      const slug = typeof node.meta.slug === 'string' ? node.meta.slug : undefined;
      const path =
        slug === undefined || context.path === null
          ? null
          : context.path
            ? `${context.path}/${slug}`
            : slug;
      const title = titleOf(node);
      const moved =
        before === null ||
        contextChanged ||
        titleOf(before) !== title ||
        before.meta.slug !== node.meta.slug;
      if (
        node.type === 'document' &&
        path !== null &&
        (moved || before?.document !== node.document)
      ) {
        changed.push({
          id: node.id,
          title,
          path,
          documentHash: node.document,
          ancestors: context.ancestors,
        });
      }
      await walk(
        node.pages,
        before?.pages ?? [],
        { path, ancestors: [...context.ancestors, { title }] },
        moved,
      );
    }
    await collectRemoved([...oldById.values()]);
  };

  await walk(
    await top(toRoot),
    fromRoot === null ? [] : await top(fromRoot),
    { path: '', ancestors: [] },
    false,
  );
  return { changed, removed };
}
