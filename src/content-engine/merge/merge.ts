import { sha256Hex } from '../../platform/ids/ids';
import type { PageSnapshot, SnapshotPage } from '../tree/snapshot';
import { emptyDocument } from '../documents/document';
import { canonical, mergeDocuments } from './document-merge';
import { mergeOrder, Owner, reordered, samePlace } from './sequence';
import type { DocumentLoader, JSONDocument, MergeConflict, MergeInput, MergeResult } from './types';

type Side = 'ours' | 'theirs';

/** How a page's place changed on one side: `reordered` is among the same siblings. */
type Move = 'none' | 'reordered' | 'reparented';

interface MergedPage {
  parentId: string | null;
  meta: Record<string, unknown>;
  documentHash: string | null;
  /** Whose sibling order places the page. */
  owner: Owner;
}

/** A page's children ordered by index (then id, should two share an index). */
function childrenByParent(snapshot: PageSnapshot): Map<string | null, string[]> {
  const groups = new Map<string | null, SnapshotPage[]>();
  for (const page of snapshot.values()) {
    const group = groups.get(page.parentId) ?? [];
    group.push(page);
    groups.set(page.parentId, group);
  }
  const children = new Map<string | null, string[]>();
  for (const [parentId, group] of groups) {
    group.sort((a, b) => a.index - b.index || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    children.set(
      parentId,
      group.map((page) => page.id),
    );
  }
  return children;
}

/** Field by field: a field changed on one side takes that side; `fields` lists those both changed differently. */
function mergeMeta(
  base: Record<string, unknown>,
  ours: Record<string, unknown>,
  theirs: Record<string, unknown>,
): { meta: Record<string, unknown>; fields: string[] } {
  const meta: Record<string, unknown> = {};
  const fields: string[] = [];
  const names = [...new Set([...Object.keys(base), ...Object.keys(ours), ...Object.keys(theirs)])];
  for (const name of names.sort()) {
    const [cb, co, ct] = [base[name], ours[name], theirs[name]].map(canonical);
    let value: unknown;
    if (co === cb) value = theirs[name];
    else if (ct === cb || ct === co) value = ours[name];
    else {
      fields.push(name);
      continue;
    }
    if (value !== undefined) meta[name] = value;
  }
  return { meta, fields };
}

async function loadDocument(documents: DocumentLoader, hash: string | null): Promise<JSONDocument> {
  // A page without a document merges as an empty one.
  return hash === null ? emptyDocument() : documents(hash);
}

/**
 * Three-way merge of two revisions' pages over their merge base (DESIGN "Content model").
 * A page changed on one side only takes that side (metadata, place, document, deletion,
 * insertion); metadata merges field by field; a document changed on both sides merges block
 * by block (mergeDocuments). Conflicts: a field or block changed differently on both sides,
 * delete vs edit, move vs move to different places, a page placed under a page the other side
 * deleted, and moves that together make a cycle. With any conflict nothing is merged and all
 * conflicts are reported, sorted by page, kind and keys.
 *
 * Sibling order is deterministic: pages neither side moved keep base order, the others sit
 * after their nearest unmoved predecessor on the side that placed them, ours before theirs
 * when both place pages in the same gap; `index` is renumbered 0..n-1 under each parent.
 *
 * `documents` is awaited, so it may be synchronous (a cache) or asynchronous (the object
 * store); it is called only for pages whose documents changed differently on both sides.
 * Such pages get the merged body in `documents` and, as `documentHash`, the SHA-256 of its
 * canonical JSON (what ContentEngine.put keys it by).
 */
export async function mergeSnapshots(input: MergeInput): Promise<MergeResult> {
  const { base, ours, theirs } = input;
  const sides = { ours, theirs };
  const children = {
    base: childrenByParent(base),
    ours: childrenByParent(ours),
    theirs: childrenByParent(theirs),
  };
  const siblings = (version: Owner, parentId: string | null) =>
    children[version].get(parentId) ?? [];

  const reorderedCache = new Map<string, Set<string>>();
  const move = (side: Side, id: string): Move => {
    const [before, after] = [base.get(id)!, sides[side].get(id)!];
    if (before.parentId !== after.parentId) return 'reparented';
    const cacheKey = `${side}\u0000${before.parentId ?? ''}`;
    let moved = reorderedCache.get(cacheKey);
    if (!moved) {
      moved = reordered(siblings('base', before.parentId), siblings(side, before.parentId));
      reorderedCache.set(cacheKey, moved);
    }
    return moved.has(id) ? 'reordered' : 'none';
  };
  const edited = (side: Side, id: string): boolean => {
    const [before, after] = [base.get(id)!, sides[side].get(id)!];
    return (
      before.documentHash !== after.documentHash ||
      canonical(before.meta) !== canonical(after.meta) ||
      move(side, id) === 'reparented'
    );
  };

  const conflicts: MergeConflict[] = [];
  const merged = new Map<string, MergedPage>();
  // Where every page that is not deleted sits, conflicted ones included, to find orphans and cycles.
  const parentOf = new Map<string, string | null>();
  const documentMerges: string[] = [];

  const ids = new Set([...base.keys(), ...ours.keys(), ...theirs.keys()]);
  for (const id of ids) {
    const [pb, po, pt] = [base.get(id), ours.get(id), theirs.get(id)];
    if (pb && po && pt) {
      const { meta, fields } = mergeMeta(pb.meta, po.meta, pt.meta);
      if (fields.length) conflicts.push({ pageId: id, kind: 'metadata', blockKeys: [], fields });

      let documentHash = po.documentHash;
      if (po.documentHash === pb.documentHash) documentHash = pt.documentHash;
      else if (pt.documentHash !== pb.documentHash && pt.documentHash !== po.documentHash) {
        documentMerges.push(id);
      }

      const [mo, mt] = [move('ours', id) !== 'none', move('theirs', id) !== 'none'];
      let owner: Owner = mo ? 'ours' : mt ? 'theirs' : 'base';
      if (mo && mt) {
        const sameParent = po.parentId === pt.parentId;
        if (
          !sameParent ||
          !samePlace(id, siblings('ours', po.parentId), siblings('theirs', pt.parentId))
        ) {
          conflicts.push({ pageId: id, kind: 'move-move', blockKeys: [] });
        }
        owner = 'ours';
      }
      const parentId = owner === 'base' ? pb.parentId : sides[owner].get(id)!.parentId;
      merged.set(id, { parentId, meta, documentHash, owner });
      parentOf.set(id, parentId);
    } else if (pb) {
      // Deleted on one side at least: the deletion holds unless the other side changed the
      // page (a reorder among the same siblings does not count).
      const keptOn: Side | undefined = po ? 'ours' : pt ? 'theirs' : undefined;
      if (keptOn && edited(keptOn, id)) {
        conflicts.push({ pageId: id, kind: 'delete-edit', blockKeys: [] });
        parentOf.set(id, sides[keptOn].get(id)!.parentId);
      }
    } else if (po && pt) {
      const same =
        po.parentId === pt.parentId &&
        po.documentHash === pt.documentHash &&
        canonical(po.meta) === canonical(pt.meta);
      if (!same) conflicts.push({ pageId: id, kind: 'insert-insert', blockKeys: [] });
      merged.set(id, { ...po, owner: 'ours' });
      parentOf.set(id, po.parentId);
    } else {
      const [page, owner]: [SnapshotPage, Side] = po ? [po, 'ours'] : [pt!, 'theirs'];
      merged.set(id, {
        parentId: page.parentId,
        meta: page.meta,
        documentHash: page.documentHash,
        owner,
      });
      parentOf.set(id, page.parentId);
    }
  }

  for (const [id, parentId] of parentOf) {
    if (parentId !== null && !parentOf.has(parentId)) {
      conflicts.push({ pageId: id, kind: 'parent-deleted', blockKeys: [] });
      continue;
    }
    const seen = new Set<string>();
    for (let at = parentId; at !== null && !seen.has(at); at = parentOf.get(at) ?? null) {
      if (at === id) {
        conflicts.push({ pageId: id, kind: 'cycle', blockKeys: [] });
        break;
      }
      seen.add(at);
    }
  }

  const documents = new Map<string, JSONDocument>();
  for (const id of documentMerges) {
    const [hb, ho, ht] = [base, ours, theirs].map((snapshot) => snapshot.get(id)!.documentHash);
    const [db, dor, dt] = await Promise.all(
      [hb, ho, ht].map((hash) => loadDocument(input.documents, hash)),
    );
    const outcome = mergeDocuments(db, dor, dt);
    if (!outcome.ok) {
      conflicts.push(...outcome.conflicts.map((conflict) => ({ pageId: id, ...conflict })));
      continue;
    }
    documents.set(id, outcome.document);
    merged.get(id)!.documentHash = sha256Hex(canonical(outcome.document));
  }

  if (conflicts.length) return { result: 'conflicts', conflicts: sortConflicts(conflicts) };
  return { result: 'merge', pages: layOut(merged, children), documents };
}

/** The merged pages in tree order (depth first), `index` renumbered under each parent. */
function layOut(
  merged: Map<string, MergedPage>,
  children: Record<Owner, Map<string | null, string[]>>,
): PageSnapshot {
  const owners = new Map([...merged].map(([id, page]) => [id, page.owner]));
  const parents = new Set([...merged.values()].map((page) => page.parentId));
  const order = new Map<string | null, string[]>();
  for (const parentId of parents) {
    const lists = {
      base: children.base.get(parentId) ?? [],
      ours: children.ours.get(parentId) ?? [],
      theirs: children.theirs.get(parentId) ?? [],
    };
    order.set(parentId, mergeOrder(lists, owners));
  }
  const pages: PageSnapshot = new Map();
  const visit = (parentId: string | null) => {
    (order.get(parentId) ?? []).forEach((id, index) => {
      const { owner: _owner, ...page } = merged.get(id)!;
      pages.set(id, { id, ...page, index });
      visit(id);
    });
  };
  visit(null);
  if (pages.size !== merged.size) {
    // Every page has a live parent and there are no cycles (checked above), so this is a bug.
    throw new Error(`merge laid out ${pages.size} of ${merged.size} pages`);
  }
  return pages;
}

function sortConflicts(conflicts: MergeConflict[]): MergeConflict[] {
  const sortKey = (c: MergeConflict) => [c.pageId, c.kind, c.blockKeys.join('\u0000')];
  return [...conflicts].sort((a, b) => {
    const [ka, kb] = [sortKey(a), sortKey(b)];
    for (let i = 0; i < ka.length; i++) {
      if (ka[i] !== kb[i]) return ka[i] < kb[i] ? -1 : 1;
    }
    return 0;
  });
}
