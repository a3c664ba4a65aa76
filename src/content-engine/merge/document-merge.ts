import stringify from 'json-stable-stringify';
import { mergeOrder, Owner, reordered, samePlace } from './sequence';
import type { DocumentBlock, JSONDocument, MergeConflictKind } from './types';

export interface BlockConflict {
  kind: MergeConflictKind;
  blockKeys: string[];
}

export type DocumentMerge =
  { ok: true; document: JSONDocument } | { ok: false; conflicts: BlockConflict[] };

/** Canonical JSON, so that equal content compares equal whatever its property order. */
export const canonical = (value: unknown): string => stringify(value) ?? 'undefined';

/** Top-level blocks by key, or null when a block has no key or a key repeats. */
function blocksByKey(document: JSONDocument): Map<string, DocumentBlock> | null {
  const blocks = new Map<string, DocumentBlock>();
  for (const node of document.nodes) {
    if (typeof node.key !== 'string' || node.key === '' || blocks.has(node.key)) return null;
    blocks.set(node.key, node);
  }
  return blocks;
}

/**
 * The markdown a document was read from (`data.markdownSource`, documents/markdown-source.ts)
 * says how it was written, not what it holds, and checks itself against the blocks it is
 * written with: it is merged apart from the header, and never conflicts.
 */
const SOURCE = 'markdownSource';

function header(document: JSONDocument): Omit<JSONDocument, 'nodes'> {
  const { nodes: _nodes, ...rest } = document;
  if (!rest.data || !(SOURCE in rest.data)) return rest;
  const { [SOURCE]: _source, ...data } = rest.data;
  return { ...rest, data };
}

/** The kept source of the merge: the one a side changed (theirs first), else the base's. */
function mergedSource(base: JSONDocument, ours: JSONDocument, theirs: JSONDocument): unknown {
  const [sb, so, st] = [base, ours, theirs].map((document) => document.data?.[SOURCE]);
  return canonical(st) !== canonical(sb) ? st : so;
}

/**
 * Three-way merge of a page's document, block by block on top-level block `key`s: a block
 * changed (or moved) on one side takes that side; a block deleted on one side and unchanged on
 * the other is deleted (a pure reorder does not hold a deletion back); insertions keep their
 * relative order (ours before theirs in a shared gap). A block is compared whole, nested
 * blocks included: the same block changed differently on both sides is a conflict.
 */
export function mergeDocuments(
  base: JSONDocument,
  ours: JSONDocument,
  theirs: JSONDocument,
): DocumentMerge {
  const conflicts: BlockConflict[] = [];

  const headers = [header(base), header(ours), header(theirs)];
  const [hb, ho, ht] = headers.map(canonical);
  const mergedHeader = ho === hb ? headers[2] : ht === hb || ht === ho ? headers[1] : null;
  if (!mergedHeader) conflicts.push({ kind: 'document', blockKeys: [] });

  const b = blocksByKey(base);
  const o = blocksByKey(ours);
  const t = blocksByKey(theirs);
  if (!b || !o || !t) return { ok: false, conflicts: [{ kind: 'document', blockKeys: [] }] };

  const lists = { base: [...b.keys()], ours: [...o.keys()], theirs: [...t.keys()] };
  const movedOurs = reordered(lists.base, lists.ours);
  const movedTheirs = reordered(lists.base, lists.theirs);
  const owners = new Map<string, Owner>();
  const chosen = new Map<string, DocumentBlock>();

  for (const key of new Set([...lists.base, ...lists.ours, ...lists.theirs])) {
    const [nb, no, nt] = [b.get(key), o.get(key), t.get(key)];
    const [cb, co, ct] = [nb, no, nt].map((node) => (node ? canonical(node) : undefined));
    if (nb && no && nt) {
      const node = co === cb ? nt : ct === cb || ct === co ? no : undefined;
      if (!node) conflicts.push({ kind: 'block-edit', blockKeys: [key] });
      const [mo, mt] = [movedOurs.has(key), movedTheirs.has(key)];
      let owner: Owner | undefined = mo ? (mt ? undefined : 'ours') : mt ? 'theirs' : 'base';
      if (mo && mt) {
        if (samePlace(key, lists.ours, lists.theirs)) owner = 'ours';
        else conflicts.push({ kind: 'block-move', blockKeys: [key] });
      }
      if (node && owner) {
        chosen.set(key, node);
        owners.set(key, owner);
      }
    } else if (nb) {
      // Deleted on at least one side: the deletion holds unless the other side changed it.
      const kept = co ?? ct;
      if (kept !== undefined && kept !== cb) {
        conflicts.push({ kind: 'block-delete-edit', blockKeys: [key] });
      }
    } else if (no && nt) {
      if (co !== ct) conflicts.push({ kind: 'block-edit', blockKeys: [key] });
      chosen.set(key, no);
      owners.set(key, 'ours');
    } else {
      chosen.set(key, (no ?? nt)!);
      owners.set(key, no ? 'ours' : 'theirs');
    }
  }

  if (conflicts.length || !mergedHeader) return { ok: false, conflicts };
  const nodes = mergeOrder(lists, owners).map((key) => chosen.get(key)!);
  const source = mergedSource(base, ours, theirs);
  const data =
    source === undefined ? mergedHeader.data : { ...mergedHeader.data, [SOURCE]: source };
  return { ok: true, document: { ...mergedHeader, data, nodes } as JSONDocument };
}
