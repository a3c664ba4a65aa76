import { childRefs, readRoot, type ChildRef } from '../../content-engine/tree/format';
import { canonicalJson, type ObjectStore } from '../../content-engine/tree/object-store';
import { findPageById, type TreePage } from '../../content-engine/tree/read';
import { sha256Hex } from '../../platform/ids/ids';

/**
 * A scratch store over the real one: reads fall through, writes stay in memory. A batch is
 * first applied here change by change, so that each change is translated against the tree the
 * previous ones made and links are resolved against the tree the whole batch makes, without
 * writing the intermediate trees. Hashes are computed as the real store computes them.
 */
export class DraftObjectStore implements ObjectStore {
  private readonly written = new Map<string, string>();

  constructor(private readonly base: ObjectStore) {}

  async get(hash: string): Promise<object | undefined> {
    const json = this.written.get(hash);
    return json === undefined ? this.base.get(hash) : (JSON.parse(json) as object);
  }

  put(_kind: string, data: object): Promise<string> {
    const json = canonicalJson(data);
    const hash = sha256Hex(json);
    this.written.set(hash, json);
    return Promise.resolve(hash);
  }
}

/** A page of `tree` by id, or undefined; its metadata without the variant (`type`). */
export async function pageOf(
  store: ObjectStore,
  tree: string,
  pageId: string,
): Promise<(TreePage & { meta: Record<string, unknown> }) | undefined> {
  const page = await findPageById(store, tree, pageId);
  if (!page) return undefined;
  const { type: _type, ...meta } = page.meta;
  return { ...page, meta };
}

/** The children of `parentId` in `tree` (null: the top-level pages). */
export async function childrenOf(
  store: ObjectStore,
  tree: string,
  parentId: string | null,
): Promise<ChildRef[]> {
  if (parentId === null) {
    return childRefs(store, (await readRoot(store, tree)).pages);
  }
  return (await findPageById(store, tree, parentId))?.pages ?? [];
}

/** Whether `pageId` is `ancestorId` or below it in `tree`. */
export async function isWithin(
  store: ObjectStore,
  tree: string,
  pageId: string,
  ancestorId: string,
): Promise<boolean> {
  for (let current: string | null = pageId; current !== null;) {
    if (current === ancestorId) return true;
    current = (await findPageById(store, tree, current))?.parentId ?? null;
  }
  return false;
}
