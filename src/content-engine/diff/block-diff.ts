import { diffArrays } from 'diff';
import type { DocumentBlock } from '../documents/document';
import { reordered } from '../merge/sequence';
import { canonicalJson } from '../tree/object-store';
import { inlineDiff, plainText, type InlineSegment } from './inline-diff';

/**
 * Most edits the alignment of blocks without matching keys looks for: its cost grows with the
 * edits times the number of blocks.
 */
export const MAX_BLOCK_EDITS = 1000;

export const BLOCK_STATUSES = ['added', 'removed', 'changed', 'moved', 'unchanged'] as const;
export type BlockStatus = (typeof BLOCK_STATUSES)[number];

/**
 * A top-level block of a page compared between two versions. `before` is the old block
 * (removed, changed), `after` the new one (added, changed, moved, unchanged: a block whose
 * content did not change is carried once). A changed block that also moved says `moved`.
 * `inline`: for a changed block with text on either side, its word-level differences.
 */
export interface BlockEntry {
  status: BlockStatus;
  key?: string;
  type: string;
  before?: DocumentBlock;
  after?: DocumentBlock;
  moved?: true;
  inline?: InlineSegment[];
}

/** Keys that name one block on their side (a repeated key names none). */
function uniqueKeys(blocks: readonly DocumentBlock[]): Map<string, number> {
  const seen = new Map<string, number>();
  const repeated = new Set<string>();
  blocks.forEach((block, index) => {
    const key = block.key;
    if (typeof key !== 'string' || key === '') return;
    if (seen.has(key)) repeated.add(key);
    seen.set(key, index);
  });
  for (const key of repeated) seen.delete(key);
  return seen;
}

/**
 * Pairs of old and new blocks that are the same block (new index → old index): by `key` where
 * both sides have it; the others (no key, or a key one side lacks) are aligned by content with
 * a shortest edit script over their canonical JSON, and in a run where old blocks were replaced
 * by new ones, blocks of the same type are paired in turn when one of them has no key (an edited
 * paragraph of a document without keys). Two blocks with different keys are never one block.
 */
function pairBlocks(
  before: readonly DocumentBlock[],
  after: readonly DocumentBlock[],
): Map<number, number> {
  const pairs = new Map<number, number>();
  const oldKeys = uniqueKeys(before);
  const newKeys = uniqueKeys(after);
  for (const [key, newIndex] of newKeys) {
    const oldIndex = oldKeys.get(key);
    if (oldIndex !== undefined) pairs.set(newIndex, oldIndex);
  }
  const pairedOld = new Set(pairs.values());
  const restOld = before.map((_, i) => i).filter((i) => !pairedOld.has(i));
  const restNew = after.map((_, i) => i).filter((i) => !pairs.has(i));
  const content = (block: DocumentBlock) => {
    const { key: _key, ...rest } = block;
    return canonicalJson(rest);
  };
  const [oldContents, newContents] = [
    restOld.map((i) => content(before[i])),
    restNew.map((i) => content(after[i])),
  ];
  // Past the edit budget, the blocks left are one run of replacements.
  const parts = diffArrays(oldContents, newContents, { maxEditLength: MAX_BLOCK_EDITS }) ?? [
    { value: oldContents, count: oldContents.length, added: false, removed: true },
    { value: newContents, count: newContents.length, added: true, removed: false },
  ];
  // Old and new blocks of the current run of replacements (jsdiff lists either side first).
  let [o, n] = [0, 0];
  let [removed, added]: number[][] = [[], []];
  const pairRun = () => {
    for (const newIndex of added) {
      const match = removed.findIndex((i) => replaces(before[i], after[newIndex]));
      if (match >= 0) pairs.set(newIndex, removed.splice(match, 1)[0]);
    }
  };
  for (const part of parts) {
    const count = part.count ?? part.value.length;
    if (part.removed) {
      removed.push(...restOld.slice(o, (o += count)));
    } else if (part.added) {
      added.push(...restNew.slice(n, (n += count)));
    } else {
      pairRun();
      [removed, added] = [[], []];
      for (let i = 0; i < count; i++) pairs.set(restNew[n + i], restOld[o + i]);
      [o, n] = [o + count, n + count];
    }
  }
  pairRun();
  return pairs;
}

const hasKey = (block: DocumentBlock) => typeof block.key === 'string' && block.key !== '';

/** Whether `block` is an edit of `old`, in a run of replaced blocks. */
const replaces = (old: DocumentBlock, block: DocumentBlock) =>
  old.type === block.type && !(hasKey(old) && hasKey(block));

function keyOf(block: DocumentBlock): { key?: string } {
  return hasKey(block) ? { key: block.key } : {};
}

function compared(old: DocumentBlock, block: DocumentBlock, moved: boolean): BlockEntry {
  const base = { ...keyOf(block), type: block.type };
  if (canonicalJson(old) === canonicalJson(block)) {
    return { status: moved ? 'moved' : 'unchanged', ...base, after: block };
  }
  const [textBefore, textAfter] = [plainText(old), plainText(block)];
  return {
    status: 'changed',
    ...base,
    before: old,
    after: block,
    ...(moved ? { moved: true } : {}),
    ...(textBefore !== '' || textAfter !== '' ? { inline: inlineDiff(textBefore, textAfter) } : {}),
  };
}

/**
 * The top-level blocks of a page from one version to the next, in the new version's order; a
 * removed block comes right after the block that preceded it in the old version (first when
 * none did). A block is moved when its order relative to the other blocks changed, not merely
 * because its neighbours were inserted or removed.
 */
export function diffBlocks(
  before: readonly DocumentBlock[],
  after: readonly DocumentBlock[],
): BlockEntry[] {
  const pairs = pairBlocks(before, after);
  const oldToNew = new Map([...pairs].map(([n, o]) => [o, n]));
  const oldOrder = before.map((_, i) => i).filter((i) => oldToNew.has(i));
  const newOrder = after.map((_, i) => i).filter((i) => pairs.has(i));
  const moved = reordered(
    oldOrder.map(String),
    newOrder.map((i) => String(pairs.get(i))),
  );

  // Removed blocks, by the old index of the paired block before them (-1: none).
  const removedAfter = new Map<number, number[]>();
  let anchor = -1;
  before.forEach((_, i) => {
    if (oldToNew.has(i)) anchor = i;
    else removedAfter.set(anchor, [...(removedAfter.get(anchor) ?? []), i]);
  });
  const entries: BlockEntry[] = [];
  const flushRemoved = (at: number) => {
    for (const i of removedAfter.get(at) ?? []) {
      entries.push({
        status: 'removed',
        ...keyOf(before[i]),
        type: before[i].type,
        before: before[i],
      });
    }
  };
  flushRemoved(-1);
  after.forEach((block, j) => {
    const oldIndex = pairs.get(j);
    if (oldIndex === undefined) {
      entries.push({ status: 'added', ...keyOf(block), type: block.type, after: block });
      return;
    }
    entries.push(compared(before[oldIndex], block, moved.has(String(oldIndex))));
    flushRemoved(oldIndex);
  });
  return entries;
}

/** How many blocks have each status. */
export function blockStats(entries: readonly BlockEntry[]): Record<BlockStatus, number> {
  const stats = Object.fromEntries(BLOCK_STATUSES.map((status) => [status, 0])) as Record<
    BlockStatus,
    number
  >;
  for (const entry of entries) stats[entry.status]++;
  return stats;
}
