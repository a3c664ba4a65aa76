import { emptyDocument, type JSONDocument } from '../../content-engine/documents/document';
import { childRefs, readPage, readRoot, type PageNode } from '../../content-engine/tree/format';
import { getRequired, type ObjectStore } from '../../content-engine/tree/object-store';
import { findPageById, type TreePage } from '../../content-engine/tree/read';

/** A page of a subtree, with where it sits. */
export interface PlacedNode {
  node: PageNode;
  parentId: string | null;
}

/**
 * One version of a space (the merge base, the change request or the primary) as conflicts
 * need to read it: a few pages by id, their documents and their siblings, read once each.
 */
export class SideTree {
  private readonly pages = new Map<string, Promise<TreePage | undefined>>();

  constructor(
    private readonly store: ObjectStore,
    readonly root: string,
  ) {}

  page(id: string): Promise<TreePage | undefined> {
    let found = this.pages.get(id);
    if (!found) this.pages.set(id, (found = findPageById(this.store, this.root, id)));
    return found;
  }

  /** The page's document (an empty one when it has none); null when the version lacks the page. */
  async document(id: string): Promise<JSONDocument | null> {
    const page = await this.page(id);
    if (!page) return null;
    return page.documentHash === null
      ? emptyDocument()
      : getRequired<JSONDocument>(this.store, page.documentHash);
  }

  /** Ids of the children of a page (null: the top level), in order. */
  async children(parentId: string | null): Promise<string[]> {
    if (parentId !== null) return ((await this.page(parentId))?.pages ?? []).map((ref) => ref.id);
    const root = await readRoot(this.store, this.root);
    return (await childRefs(this.store, root.pages)).map((ref) => ref.id);
  }

  /** The page and everything under it, parents before children, each child list in order. */
  async subtree(id: string): Promise<PlacedNode[]> {
    const top = await this.page(id);
    if (!top) return [];
    const { type: _type, ...meta } = top.meta;
    const placed: PlacedNode[] = [];
    const visit = async (node: PageNode, parentId: string | null) => {
      placed.push({ node, parentId });
      for (const child of node.pages) await visit(await readPage(this.store, child.hash), node.id);
    };
    const node = { id, type: top.type, meta, document: top.documentHash, pages: top.pages };
    await visit(node, top.parentId);
    return placed;
  }
}
