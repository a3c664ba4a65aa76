import type { DocumentBlock, JSONDocument } from '../../content-engine/documents/document';
import { commit, TreeChangeError, type PageChange } from '../../content-engine/tree/commit';
import type { ObjectStore } from '../../content-engine/tree/object-store';
import type { TreePage } from '../../content-engine/tree/read';
import {
  blockOf,
  checkFieldValues,
  metadataUpdate,
  placeAfterPredecessor,
  SIDES,
  unresolvable,
  withBlock,
  type ConflictResolution,
  type MatchedResolution,
  type Side,
} from './conflict-resolution';
import type { SideTree } from './side-tree';

/** The two versions a resolution writes on; the merge base stays as it is. */
type Written = Exclude<Side, 'base'>;
const WRITTEN: readonly Written[] = ['changeRequest', 'primary'];

/**
 * Writes the resolutions on the change request's and the primary's trees (in memory: new
 * content objects, no revision) so that both agree on every part that was in conflict;
 * answers the two new root trees, which the ordinary three-way merge then combines.
 *
 * - a block: each side's document gets the kept block in place (inserted where the kept
 *   version has it when the side lacks it, or for a move conflict; removed when the kept
 *   version has none);
 * - `document` (keepDocument), `metadata` (resolveMetadata): both sides take what is kept;
 * - `delete-edit`, `parent-deleted`, `move-move`: the other side takes the page (its
 *   existence and place) as the kept side has it (keepPage).
 */
export async function applyResolutions(
  store: ObjectStore,
  sides: Record<Side, SideTree>,
  matched: readonly MatchedResolution[],
): Promise<Record<Written, string>> {
  const writer = new ResolutionWriter(sides);
  // Whole documents first, so that block resolutions on the same page apply on top of them.
  const ordered = [...matched].sort(
    (a, b) => Number(b.resolution.kind === 'document') - Number(a.resolution.kind === 'document'),
  );
  for (const entry of ordered) await writer.apply(entry);
  const changes = await writer.changes(store);
  const [changeRequest, primary] = await Promise.all(
    WRITTEN.map((side) => commitSide(store, sides[side].root, changes[side], side)),
  );
  return { changeRequest, primary };
}

async function commitSide(
  store: ObjectStore,
  root: string,
  changes: PageChange[],
  side: Written,
): Promise<string> {
  try {
    return await commit(store, root, changes);
  } catch (error) {
    if (!(error instanceof TreeChangeError)) throw error;
    const version = side === 'primary' ? 'the primary' : 'the change request';
    throw unresolvable(`The resolutions do not apply to ${version}: ${error.message}`);
  }
}

class ResolutionWriter {
  private readonly pageChanges: Record<Written, PageChange[]> = { changeRequest: [], primary: [] };
  /** Documents being resolved, by page id: each written side's working copy. */
  private readonly documents = new Map<string, Record<Written, JSONDocument>>();

  constructor(private readonly sides: Record<Side, SideTree>) {}

  async apply({ resolution, conflicts, index }: MatchedResolution): Promise<void> {
    const { pageId, keep } = resolution;
    if (resolution.blockKey !== undefined) {
      const relocate = conflicts.some((conflict) => conflict.kind === 'block-move');
      return this.resolveBlock(pageId, resolution.blockKey, resolution.block, keep, relocate);
    }
    switch (resolution.kind) {
      case 'document':
        return this.keepDocument(pageId, keep!);
      case 'metadata':
        return this.resolveMetadata(resolution, conflicts[0].fields ?? [], index);
      case 'delete-edit':
      case 'parent-deleted':
      case 'move-move':
        return this.keepPage(pageId, keep as Written);
      default:
        throw new Error(`No resolution for ${resolution.kind} conflicts`);
    }
  }

  /** `document`: both sides take the kept version's document whole. */
  private async keepDocument(pageId: string, keep: Side): Promise<void> {
    const kept = await this.sides[keep].document(pageId);
    const working = await this.working(pageId);
    for (const side of WRITTEN) working[side] = kept ?? working[side];
  }

  /** `metadata`: both sides take the kept (or hand-merged) values of the fields in conflict. */
  private async resolveMetadata(
    { pageId, keep, fields: merged }: ConflictResolution,
    fields: readonly string[],
    index: number,
  ): Promise<void> {
    const [base, changeRequest, primary] = await Promise.all(
      SIDES.map(async (side) => (await this.sides[side].page(pageId))?.meta ?? {}),
    );
    const metas = { base, changeRequest, primary };
    if (merged) checkFieldValues(merged, [base, changeRequest, primary], `resolutions[${index}]`);
    const kept = merged ?? metas[keep!];
    for (const side of WRITTEN) {
      const meta = metadataUpdate(fields, kept, metas[side]);
      this.pageChanges[side].push({ operation: 'update_page', page: pageId, meta });
    }
  }

  private async resolveBlock(
    pageId: string,
    key: string,
    block: DocumentBlock | undefined,
    keep: Side | undefined,
    relocate: boolean,
  ): Promise<void> {
    const working = await this.working(pageId);
    const current = { ...working, base: await this.sides.base.document(pageId) };
    // A block merged by hand sits where the change request has it, else the primary, else the base.
    const from: Side =
      keep ??
      (['changeRequest', 'primary', 'base'] as const).find(
        (side) => blockOf(current[side], key) !== null,
      ) ??
      'changeRequest';
    const placement = current[from] ?? working.changeRequest;
    const chosen = block ?? blockOf(current[from], key);
    for (const side of WRITTEN) {
      working[side] = withBlock(working[side], key, chosen, placement, relocate);
    }
  }

  /**
   * delete-edit, parent-deleted, move-move: the other side takes the page as the kept side
   * has it. Kept there: the highest of the page and its ancestors that the other side lacks
   * comes back there with its subtree (pages the other side has elsewhere move in), else the
   * page moves where the kept side has it. Not kept there: the other side deletes it.
   */
  private async keepPage(pageId: string, kept: Written): Promise<void> {
    const other = otherThan(kept);
    const changes = this.pageChanges[other];
    const page = await this.sides[kept].page(pageId);
    if (!page) {
      if (await this.sides[other].page(pageId)) {
        changes.push({ operation: 'delete_page', page: pageId });
      }
      return;
    }
    const top = await this.highestMissing(page, kept, other);
    if (!top) {
      const at = await this.placeOnOther(kept, other, pageId, page.parentId);
      changes.push({ operation: 'move_page', page: pageId, into: page.parentId, at });
      return;
    }
    const subtree = await this.sides[kept].subtree(top.id);
    for (const [i, { node, parentId }] of subtree.entries()) {
      // The top goes after its predecessor on the kept side; the rest follow in order.
      const at = i === 0 ? await this.placeOnOther(kept, other, top.id, parentId) : undefined;
      if (await this.sides[other].page(node.id)) {
        changes.push({ operation: 'move_page', page: node.id, into: parentId, at });
      } else {
        const { id, type, meta, document } = node;
        changes.push({ operation: 'insert_page', id, type, meta, document, into: parentId, at });
      }
    }
  }

  /** The highest of the page and its ancestors (on `kept`) that `other` lacks, up to one it has. */
  private async highestMissing(
    page: TreePage,
    kept: Written,
    other: Written,
  ): Promise<TreePage | undefined> {
    let missing: TreePage | undefined;
    for (let at: TreePage | undefined = page; at;) {
      if (!(await this.sides[other].page(at.id))) missing = at;
      else if (at !== page) break;
      at = at.parentId === null ? undefined : await this.sides[kept].page(at.parentId);
    }
    return missing;
  }

  /** Where the page goes among `into`'s children on `other` to follow its predecessor on `kept`. */
  private async placeOnOther(
    kept: Written,
    other: Written,
    pageId: string,
    into: string | null,
  ): Promise<number> {
    const source = await this.sides[kept].children(into);
    const target = (await this.sides[other].children(into)).filter((id) => id !== pageId);
    return placeAfterPredecessor(source, target, pageId);
  }

  private async working(pageId: string): Promise<Record<Written, JSONDocument>> {
    let documents = this.documents.get(pageId);
    if (!documents) {
      const [changeRequest, primary] = await Promise.all(
        WRITTEN.map((side) => this.sides[side].document(pageId)),
      );
      if (!changeRequest || !primary) throw new Error(`Page ${pageId} is missing on one side`);
      documents = { changeRequest, primary };
      this.documents.set(pageId, documents);
    }
    return documents;
  }

  /** The page changes of each side, resolved documents stored and set. */
  async changes(store: ObjectStore): Promise<Record<Written, PageChange[]>> {
    for (const [page, documents] of this.documents) {
      for (const side of WRITTEN) {
        const document = await store.put('document', documents[side]);
        this.pageChanges[side].push({ operation: 'set_document', page, document });
      }
    }
    return this.pageChanges;
  }
}

const otherThan = (side: Written): Written =>
  side === 'changeRequest' ? 'primary' : 'changeRequest';
