import { DomainError } from '../../platform/errors/domain-error';
import { ID_PATTERN } from '../../platform/ids/ids';
import {
  childRefs,
  hasPath,
  PAGE_TYPES,
  readPage,
  readRoot,
  TREE_FORMAT_VERSION,
  type ChildRef,
  type FileNode,
  type PageMeta,
  type PageNode,
  type PageType,
  type RootNode,
} from './format';
import { getRequired, type ObjectStore } from './object-store';
import { lookupParent, updateIndex } from './page-index';
import { isValidSlug, slugify, uniqueSlug } from './slug';

/** Metadata changes: a field set to null is removed. `id` and `type` cannot change. */
export type PageMetaUpdate = { [K in keyof PageMeta]?: PageMeta[K] | null };

/** One edit of a batch. `into`: parent page id, null or omitted = top level; `at`: 0-based. */
export type PageChange =
  | {
      operation: 'insert_page';
      id: string;
      type?: PageType;
      meta: PageMeta;
      /** Hash of the page's `document` object (document pages only). */
      document?: string | null;
      into?: string | null;
      at?: number;
    }
  | { operation: 'update_page'; page: string; meta: PageMetaUpdate }
  | { operation: 'set_document'; page: string; document: string | null }
  | { operation: 'delete_page'; page: string }
  | { operation: 'move_page'; page: string; into: string | null; at?: number }
  /** Adds a stored `file` object (by hash); its id must be new to the revision. */
  | { operation: 'insert_file'; file: string }
  /** Removes the file with this id (pages referencing it then hold broken links). */
  | { operation: 'delete_file'; file: string };

/** A change of a batch that cannot be applied; the batch as a whole is rejected. */
export class TreeChangeError extends DomainError {
  constructor(
    readonly index: number,
    readonly operation: string,
    detail: string,
  ) {
    super('bad_request', 'InvalidChange', `Change ${index} (${operation}): ${detail}`);
  }
}

/** Thrown inside a change; `commit` adds which change it was. */
class Invalid extends Error {}

/**
 * Applies `changes` in order to the tree `rootHash` and stores the result: all of them or, when
 * one is invalid, none (a TreeChangeError names it and nothing is written). Edits are made on
 * an in-memory copy of the nodes they touch; only those and their ancestors are written, once
 * each, at the end. Returns the new root's hash (the same hash when nothing changed).
 */
export async function commit(
  store: ObjectStore,
  rootHash: string,
  changes: readonly PageChange[],
): Promise<string> {
  const work = await WorkTree.open(store, rootHash);
  for (const [index, change] of changes.entries()) {
    try {
      await work.apply(change);
    } catch (error) {
      if (error instanceof Invalid) {
        throw new TreeChangeError(index, String(change.operation), error.message);
      }
      throw error;
    }
  }
  return work.write(rootHash);
}

interface WorkNode extends PageNode {
  parentId: string | null;
  dirty: boolean;
}

const RESERVED_META = new Set(['id', 'type', 'pages', 'document']);

class WorkTree {
  private readonly nodes = new Map<string, WorkNode>();
  private readonly indexUpdates = new Map<string, string | null | undefined>();
  /** File id → object hash, in the root's order; read on the first file change. */
  private files?: Map<string, string>;
  private rootDirty = false;

  private constructor(
    private readonly store: ObjectStore,
    private readonly root: RootNode,
  ) {}

  static async open(store: ObjectStore, rootHash: string): Promise<WorkTree> {
    const root = await readRoot(store, rootHash);
    if (root.version === 2) {
      return new WorkTree(store, {
        ...root,
        pages: root.pages.map((ref) => ({ ...ref })),
        files: [...root.files],
      });
    }
    // Version 1: every page is rewritten as version 2 (with the index) by the first commit.
    const pages = await childRefs(store, root.pages);
    const work = new WorkTree(store, {
      version: TREE_FORMAT_VERSION,
      pages,
      files: [...root.files],
      reusableContents: root.reusableContents,
      variables: root.variables,
      index: null,
    });
    work.rootDirty = true;
    const load = async (refs: ChildRef[], parentId: string | null): Promise<void> => {
      for (const ref of refs) {
        const node = await readPage(store, ref.hash);
        work.nodes.set(node.id, { ...node, parentId, dirty: true });
        work.indexUpdates.set(node.id, parentId);
        await load(node.pages, node.id);
      }
    };
    await load(pages, null);
    return work;
  }

  async apply(change: PageChange): Promise<void> {
    switch (change.operation) {
      case 'insert_page':
        return this.insert(change);
      case 'update_page':
        return this.update(await this.required(change.page), change.meta);
      case 'set_document':
        return this.setDocument(await this.required(change.page), change.document);
      case 'delete_page':
        return this.delete(await this.required(change.page));
      case 'move_page':
        return this.move(await this.required(change.page), change.into, change.at);
      case 'insert_file':
        return this.insertFile(change.file);
      case 'delete_file':
        return this.deleteFile(change.file);
      default:
        throw new Invalid(`unknown operation`);
    }
  }

  /** Stores the touched nodes (children first), the index and the root. */
  async write(previousRoot: string): Promise<string> {
    if (!this.rootDirty && this.indexUpdates.size === 0) {
      return previousRoot;
    }
    await this.writeChildren(this.root.pages);
    const index = await updateIndex(this.store, this.root.index, this.indexUpdates);
    const root: RootNode = { ...this.root, index };
    return this.store.put('tree', root);
  }

  private async writeChildren(refs: ChildRef[]): Promise<void> {
    for (const ref of refs) {
      const node = this.nodes.get(ref.id);
      if (node?.dirty) {
        await this.writeChildren(node.pages);
        const page: PageNode = {
          id: node.id,
          type: node.type,
          meta: node.meta,
          document: node.document,
          pages: node.pages,
        };
        ref.hash = await this.store.put('page', page);
        node.dirty = false;
      }
    }
  }

  private async insert(change: Extract<PageChange, { operation: 'insert_page' }>) {
    const type = change.type ?? 'document';
    if (typeof change.id !== 'string' || !ID_PATTERN.test(change.id)) {
      throw new Invalid(`invalid page id ${JSON.stringify(change.id)}`);
    }
    if (!PAGE_TYPES.includes(type)) {
      throw new Invalid(`unknown page type ${JSON.stringify(type)}`);
    }
    if ((await this.parentOf(change.id)) !== undefined) {
      throw new Invalid(`page ${change.id} already exists`);
    }
    const parent = await this.parentNode(change.into ?? null);
    checkPlacement(type, parent);
    const siblings = parent ? parent.pages : this.root.pages;
    const at = position(change.at, siblings.length);
    const meta = withoutNulls({ ...change.meta });
    checkMeta(type, meta);
    if (hasPath(type)) {
      meta.slug = this.slugFor(siblings, null, meta.title as string, meta.slug);
    } else {
      delete meta.slug;
    }
    const document = change.document ?? null;
    if (document !== null) {
      await this.checkDocument(type, document);
    }
    const node: WorkNode = {
      id: change.id,
      type,
      meta,
      document,
      pages: [],
      parentId: parent?.id ?? null,
      dirty: true,
    };
    this.nodes.set(node.id, node);
    siblings.splice(at, 0, refTo(node));
    this.indexUpdates.set(node.id, node.parentId);
    this.touch(parent);
  }

  private update(node: WorkNode, update: PageMetaUpdate) {
    for (const key of Object.keys(update)) {
      if (RESERVED_META.has(key)) {
        throw new Invalid(`${key} cannot be changed`);
      }
    }
    const meta = withoutNulls({ ...node.meta, ...update });
    checkMeta(node.type, meta);
    if (hasPath(node.type)) {
      const siblings = this.siblingsOf(node);
      if (update.slug !== undefined && update.slug !== null) {
        meta.slug = this.slugFor(siblings, node.id, meta.title as string, update.slug);
      } else if (update.title !== undefined || update.slug === null) {
        meta.slug = this.slugFor(siblings, node.id, meta.title as string, undefined);
      } else {
        meta.slug = node.meta.slug;
      }
    } else {
      delete meta.slug;
    }
    node.meta = meta;
    this.syncRef(node);
    this.touch(node);
  }

  private async setDocument(node: WorkNode, document: string | null) {
    if (document !== null) {
      await this.checkDocument(node.type, document);
    }
    node.document = document;
    this.touch(node);
  }

  private async delete(node: WorkNode) {
    const siblings = this.siblingsOf(node);
    siblings.splice(
      siblings.findIndex((ref) => ref.id === node.id),
      1,
    );
    const parent = node.parentId === null ? null : this.nodes.get(node.parentId)!;
    await this.forget(node.id, node.pages);
    this.touch(parent);
  }

  /** Drops a deleted page and its subtree from the working copy and the index. */
  private async forget(id: string, children: ChildRef[]): Promise<void> {
    this.nodes.delete(id);
    this.indexUpdates.set(id, undefined);
    for (const ref of children) {
      const loaded = this.nodes.get(ref.id);
      const pages = loaded ? loaded.pages : (await readPage(this.store, ref.hash)).pages;
      await this.forget(ref.id, pages);
    }
  }

  private async move(node: WorkNode, into: string | null | undefined, at: number | undefined) {
    const parent = await this.parentNode(into ?? null);
    for (let ancestor = parent; ancestor; ancestor = this.parentLoaded(ancestor)) {
      if (ancestor.id === node.id) {
        throw new Invalid(`page ${node.id} cannot move into itself or its own subpages`);
      }
    }
    checkPlacement(node.type, parent);
    const from = this.siblingsOf(node);
    const target = parent ? parent.pages : this.root.pages;
    const [ref] = from.splice(
      from.findIndex((entry) => entry.id === node.id),
      1,
    );
    const index = position(at, target.length);
    const oldParent = this.parentLoaded(node);
    if (hasPath(node.type) && from !== target) {
      // Keeps its slug when it is free among its new siblings, else takes the next suffix.
      const slug = uniqueSlug(node.meta.slug as string, takenSlugs(target, node.id));
      if (slug !== node.meta.slug) {
        node.meta = { ...node.meta, slug };
        ref.slug = slug;
        this.touch(node);
      }
    }
    target.splice(index, 0, ref);
    node.parentId = parent?.id ?? null;
    this.indexUpdates.set(node.id, node.parentId);
    this.touch(oldParent);
    this.touch(parent);
  }

  private async insertFile(hash: string) {
    const object = typeof hash === 'string' ? await this.store.get(hash) : undefined;
    if (object === undefined) {
      throw new Invalid(`file object ${String(hash)} not found`);
    }
    if (!isFileNode(object)) {
      throw new Invalid(`object ${hash} is not a file`);
    }
    const files = await this.fileIndex();
    if (files.has(object.id)) {
      throw new Invalid(`file ${object.id} already exists`);
    }
    files.set(object.id, hash);
    this.root.files.push(hash);
    this.rootDirty = true;
  }

  private async deleteFile(fileId: string) {
    const files = await this.fileIndex();
    const hash = typeof fileId === 'string' ? files.get(fileId) : undefined;
    if (hash === undefined) {
      throw new Invalid(`file ${String(fileId)} not found`);
    }
    files.delete(fileId);
    this.root.files.splice(this.root.files.indexOf(hash), 1);
    this.rootDirty = true;
  }

  private async fileIndex(): Promise<Map<string, string>> {
    if (!this.files) {
      const nodes = await Promise.all(
        this.root.files.map((hash) => getRequired<FileNode>(this.store, hash)),
      );
      this.files = new Map(nodes.map((node, i) => [node.id, this.root.files[i]]));
    }
    return this.files;
  }

  private async required(pageId: string): Promise<WorkNode> {
    const node = typeof pageId === 'string' ? await this.load(pageId) : undefined;
    if (!node) {
      throw new Invalid(`page ${String(pageId)} not found`);
    }
    return node;
  }

  private async parentNode(into: string | null): Promise<WorkNode | null> {
    if (into === null) {
      return null;
    }
    const parent = await this.load(into);
    if (!parent) {
      throw new Invalid(`parent page ${into} not found`);
    }
    return parent;
  }

  private async parentOf(pageId: string): Promise<string | null | undefined> {
    if (this.indexUpdates.has(pageId)) {
      return this.indexUpdates.get(pageId);
    }
    return lookupParent(this.store, this.root.index, pageId);
  }

  /** The page (with its ancestors) in the working copy, read on first use. */
  private async load(pageId: string): Promise<WorkNode | undefined> {
    const loaded = this.nodes.get(pageId);
    if (loaded) {
      return loaded;
    }
    const parentId = await this.parentOf(pageId);
    if (parentId === undefined) {
      return undefined;
    }
    const parent = parentId === null ? null : await this.load(parentId);
    const ref = (parent ? parent.pages : this.root.pages).find((entry) => entry.id === pageId);
    if (parent === undefined || !ref) {
      throw new Error(`Page index disagrees with the tree about page ${pageId}`);
    }
    const node = await getRequired<PageNode>(this.store, ref.hash);
    const work: WorkNode = {
      id: node.id,
      type: node.type,
      meta: { ...node.meta },
      document: node.document,
      pages: node.pages.map((child) => ({ ...child })),
      parentId,
      dirty: false,
    };
    this.nodes.set(pageId, work);
    return work;
  }

  private parentLoaded(node: WorkNode): WorkNode | null {
    return node.parentId === null ? null : this.nodes.get(node.parentId)!;
  }

  private siblingsOf(node: WorkNode): ChildRef[] {
    return this.parentLoaded(node)?.pages ?? this.root.pages;
  }

  private syncRef(node: WorkNode) {
    const ref = this.siblingsOf(node).find((entry) => entry.id === node.id)!;
    if (typeof node.meta.slug === 'string') {
      ref.slug = node.meta.slug;
    } else {
      delete ref.slug;
    }
  }

  /** Marks a page (null: the top level) and its ancestors as changed. */
  private touch(node: WorkNode | null) {
    for (let current = node; current && !current.dirty; current = this.parentLoaded(current)) {
      current.dirty = true;
    }
    this.rootDirty = true;
  }

  private slugFor(
    siblings: ChildRef[],
    self: string | null,
    title: string,
    given: string | undefined,
  ): string {
    const taken = takenSlugs(siblings, self);
    if (given === undefined) {
      return uniqueSlug(slugify(title), taken);
    }
    if (typeof given !== 'string' || !isValidSlug(given)) {
      throw new Invalid(`invalid slug ${JSON.stringify(given)}`);
    }
    if (taken.has(given)) {
      throw new Invalid(`slug ${given} is already used by a sibling page`);
    }
    return given;
  }

  private async checkDocument(type: PageType, document: string) {
    if (type !== 'document') {
      throw new Invalid(`a ${type} page has no document`);
    }
    const object = typeof document === 'string' ? await this.store.get(document) : undefined;
    if (object === undefined) {
      throw new Invalid(`document ${String(document)} not found`);
    }
  }
}

function isFileNode(object: object): object is FileNode {
  const file = object as Partial<FileNode>;
  return (
    typeof file.id === 'string' &&
    ID_PATTERN.test(file.id) &&
    typeof file.name === 'string' &&
    typeof file.contentType === 'string' &&
    typeof file.size === 'number' &&
    typeof file.blob === 'string'
  );
}

function refTo(node: WorkNode): ChildRef {
  return typeof node.meta.slug === 'string'
    ? { id: node.id, slug: node.meta.slug, hash: '' }
    : { id: node.id, hash: '' };
}

function takenSlugs(siblings: ChildRef[], self: string | null): Set<string> {
  const taken = new Set<string>();
  for (const ref of siblings) {
    if (ref.id !== self && ref.slug !== undefined) {
      taken.add(ref.slug);
    }
  }
  return taken;
}

function position(at: number | undefined, length: number): number {
  if (at === undefined) {
    return length;
  }
  if (!Number.isInteger(at) || at < 0 || at > length) {
    throw new Invalid(`position ${String(at)} is outside 0..${length}`);
  }
  return at;
}

/** Groups sit at the top level only; only document and group pages have subpages. */
function checkPlacement(type: PageType, parent: WorkNode | null) {
  if (parent === null) {
    return;
  }
  if (type === 'group') {
    throw new Invalid('a group page can only be at the top level');
  }
  if (!hasPath(parent.type)) {
    throw new Invalid(`a ${parent.type} page cannot have subpages`);
  }
}

function checkMeta(type: PageType, meta: PageMeta) {
  for (const key of Object.keys(meta)) {
    if (RESERVED_META.has(key)) {
      throw new Invalid(`${key} is not page metadata`);
    }
  }
  if (hasPath(type) && (typeof meta.title !== 'string' || meta.title.length === 0)) {
    throw new Invalid(`a ${type} page needs a title`);
  }
  if (type === 'link' && (typeof meta.target !== 'object' || meta.target === null)) {
    throw new Invalid('a link page needs a target');
  }
  if (type === 'computed' && (typeof meta.computed !== 'object' || meta.computed === null)) {
    throw new Invalid('a computed page needs a computed source');
  }
}

function withoutNulls(meta: Record<string, unknown>): PageMeta {
  const result: PageMeta = {};
  for (const [key, value] of Object.entries(meta)) {
    if (value !== null && value !== undefined) {
      result[key] = value;
    }
  }
  return result;
}
