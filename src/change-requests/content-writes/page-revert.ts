import {
  emptyDocument,
  type DocumentBlock,
  type JSONDocument,
} from '../../content-engine/documents/document';
import type { PageChange, PageMetaUpdate } from '../../content-engine/tree/commit';
import { hasPath, readPage, type PageMeta, type PageNode } from '../../content-engine/tree/format';
import { getRequired, type ObjectStore } from '../../content-engine/tree/object-store';
import { uniqueSlug } from '../../content-engine/tree/slug';
import { childrenOf, isWithin, pageOf } from './draft-tree';

/** A revert that cannot be made; the caller names the change it came from. */
export class RevertError extends Error {}

export interface RevertInput {
  /** Reads both trees (a draft store: documents put here are found by the batch). */
  store: ObjectStore;
  /** The change request's content as the batch left it so far. */
  current: string;
  /** The content to go back to (a revision's tree). */
  target: string;
  revisionId: string;
  pageId: string;
  /** Top-level block keys; undefined: the whole page. */
  blocks?: readonly string[];
  /** Stores a new body for the batch; answers its hash. */
  putDocument(document: JSONDocument): Promise<string>;
}

/**
 * The tree changes that put a page back as it is in `target` (REFERENCE §16 `revert_page`):
 * - the whole page: one added since is deleted; one deleted since is inserted again where it
 *   was (under the top level when its parent is gone too), with the pages of its subtree that
 *   are gone as well; one modified since gets its metadata, body and place back (its place
 *   only when its old parent still exists outside its own subtree). A slug a sibling took
 *   since is not taken back.
 * - `blocks`: those top-level blocks of the body go back: changed ones are replaced, added
 *   ones removed, removed ones inserted after the nearest block that precedes them in `target`.
 */
export async function revertPage(input: RevertInput): Promise<PageChange[]> {
  const now = await pageOf(input.store, input.current, input.pageId);
  const then = await pageOf(input.store, input.target, input.pageId);
  if (input.blocks !== undefined) {
    if (!now) throw new RevertError(`page ${input.pageId} not found`);
    if (!then) {
      throw new RevertError(`page ${input.pageId} is not in revision ${input.revisionId}`);
    }
    const document = revertBlocks(
      await documentOf(input.store, now.documentHash),
      await documentOf(input.store, then.documentHash),
      input.blocks,
    );
    return [
      {
        operation: 'set_document',
        page: input.pageId,
        document: await input.putDocument(document),
      },
    ];
  }
  if (!now && !then) {
    throw new RevertError(
      `page ${input.pageId} is neither in the change request nor in revision ${input.revisionId}`,
    );
  }
  if (!then) return [{ operation: 'delete_page', page: input.pageId }];
  if (!now) return restore(input, then);
  const parentBack =
    then.parentId === null ||
    ((await pageOf(input.store, input.current, then.parentId)) !== undefined &&
      !(await isWithin(input.store, input.current, then.parentId, input.pageId)));
  const parentId = parentBack ? then.parentId : now.parentId;
  const siblings = (await childrenOf(input.store, input.current, parentId)).filter(
    (ref) => ref.id !== input.pageId,
  );
  const changes: PageChange[] = [];
  if (parentBack && (now.parentId !== then.parentId || now.index !== then.index)) {
    changes.push({
      operation: 'move_page',
      page: input.pageId,
      into: then.parentId,
      at: Math.min(then.index, siblings.length),
    });
  }
  const meta: PageMetaUpdate = {};
  for (const key of new Set([...Object.keys(now.meta), ...Object.keys(then.meta)])) {
    if (key !== 'slug' && JSON.stringify(now.meta[key]) !== JSON.stringify(then.meta[key])) {
      meta[key] = (then.meta[key] ?? null) as PageMeta[string];
    }
  }
  if (hasPath(now.type)) {
    // Given explicitly, so that a title going back does not derive a new slug. The move (first)
    // keeps the current slug unless a new sibling has it.
    const taken = new Set(siblings.flatMap((ref) => (ref.slug === undefined ? [] : [ref.slug])));
    const moved =
      now.parentId === parentId ? now.meta.slug : uniqueSlug(now.meta.slug as string, taken);
    meta.slug = (taken.has(then.meta.slug as string) ? moved : then.meta.slug) as string;
    if (meta.slug === moved && Object.keys(meta).length === 1) delete meta.slug;
  }
  if (Object.keys(meta).length > 0) {
    changes.push({ operation: 'update_page', page: input.pageId, meta });
  }
  if (now.documentHash !== then.documentHash) {
    changes.push({ operation: 'set_document', page: input.pageId, document: then.documentHash });
  }
  return changes;
}

/** Inserts again a page deleted since `target`, with the pages of its subtree that are gone. */
async function restore(
  input: RevertInput,
  then: NonNullable<Awaited<ReturnType<typeof pageOf>>>,
): Promise<PageChange[]> {
  const parentId =
    then.parentId !== null && (await pageOf(input.store, input.current, then.parentId))
      ? then.parentId
      : null;
  const siblings = await childrenOf(input.store, input.current, parentId);
  const meta: PageMeta = { ...then.meta };
  if (siblings.some((ref) => ref.slug === meta.slug)) delete meta.slug;
  const changes: PageChange[] = [
    {
      operation: 'insert_page',
      id: then.id,
      type: then.type,
      meta,
      document: then.documentHash,
      into: parentId,
      at: Math.min(then.index, siblings.length),
    },
  ];
  const below = async (children: PageNode['pages'], into: string): Promise<void> => {
    for (const ref of children) {
      if (await pageOf(input.store, input.current, ref.id)) continue;
      const child = await readPage(input.store, ref.hash);
      changes.push({
        operation: 'insert_page',
        id: child.id,
        type: child.type,
        meta: child.meta,
        document: child.document,
        into,
      });
      await below(child.pages, child.id);
    }
  };
  await below(then.pages, then.id);
  return changes;
}

async function documentOf(store: ObjectStore, hash: string | null): Promise<JSONDocument> {
  return hash === null ? emptyDocument() : getRequired<JSONDocument>(store, hash);
}

/** `current` with the top-level blocks `keys` as they are in `target` (see revertPage). */
export function revertBlocks(
  current: JSONDocument,
  target: JSONDocument,
  keys: readonly string[],
): JSONDocument {
  const nodes: DocumentBlock[] = [...(current.nodes ?? [])];
  const targetNodes = target.nodes ?? [];
  const indexIn = (list: DocumentBlock[], key: string) => list.findIndex((b) => b.key === key);
  for (const key of new Set(keys)) {
    const here = indexIn(nodes, key);
    const there = indexIn(targetNodes, key);
    if (here < 0 && there < 0) {
      throw new RevertError(`block ${key} is neither in the page nor in the revision`);
    }
    if (there < 0) {
      nodes.splice(here, 1);
    } else if (here >= 0) {
      nodes[here] = targetNodes[there];
    } else {
      let after = -1;
      for (let i = there - 1; i >= 0 && after < 0; i--) {
        const key = targetNodes[i].key;
        after = key === undefined ? -1 : indexIn(nodes, key);
      }
      nodes.splice(after + 1, 0, targetNodes[there]);
    }
  }
  return { ...current, nodes };
}
