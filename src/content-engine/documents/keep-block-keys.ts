import stringify from 'json-stable-stringify';
import type { JSONDocument } from './document';

/** Above this many block pairs, only the common head and tail are matched (no full LCS). */
const MAX_ALIGNMENT_CELLS = 1_000_000;

type Block = JSONDocument['nodes'][number];

/** A block's content without any node keys, to compare two versions of a block. */
function contentOf(block: Block): string {
  return stringify(block, {
    replacer: (name, value) => (name === 'key' ? undefined : (value as unknown)),
  }) as string;
}

/**
 * `next` as a new version of `previous`: blocks the edit left as they were are the previous
 * blocks themselves (keys included, down to text nodes), and a block edited in place keeps the
 * previous block's key. A document written whole (markdown, a JSON document) comes with fresh
 * keys; without this, a three-way merge would see every block deleted and re-added on both
 * sides, and could not tell two edits of the same paragraph apart from edits of two.
 *
 * Unchanged blocks are found as a longest common subsequence of block contents; between two
 * of them, previous and new blocks of the same type are paired in order as edits. Other new
 * blocks keep their own keys.
 */
export function keepBlockKeys(previous: JSONDocument, next: JSONDocument): JSONDocument {
  const before = previous.nodes;
  const after = next.nodes;
  if (before.length === 0 || after.length === 0) return next;
  const [oldContent, newContent] = [before.map(contentOf), after.map(contentOf)];
  const pairs = unchangedPairs(oldContent, newContent);

  const nodes: Block[] = after.slice();
  const taken = new Set<string>();
  const keep = (oldIndex: number, newIndex: number, whole: boolean) => {
    const old = before[oldIndex];
    if (typeof old.key !== 'string' || taken.has(old.key)) return;
    taken.add(old.key);
    nodes[newIndex] = whole ? old : { ...after[newIndex], key: old.key };
  };
  let [oldAt, newAt] = [0, 0];
  for (const [oldIndex, newIndex] of [...pairs, [before.length, after.length] as const]) {
    // The gap before this pair: edits in place, paired in order among blocks of one type.
    let search = oldAt;
    for (let j = newAt; j < newIndex; j++) {
      for (let i = search; i < oldIndex; i++) {
        if (before[i].type === after[j].type) {
          keep(i, j, false);
          search = i + 1;
          break;
        }
      }
    }
    if (oldIndex < before.length) keep(oldIndex, newIndex, true);
    [oldAt, newAt] = [oldIndex + 1, newIndex + 1];
  }
  // A fresh key that happens to equal a kept one would make keys repeat.
  const result = nodes.map((node, index) =>
    node !== after[index] || typeof node.key !== 'string' || !taken.has(node.key)
      ? node
      : { ...node, key: `${node.key}-${index}` },
  );
  return { ...next, nodes: result };
}

/** Index pairs of equal items, in order: a longest common subsequence (or head and tail). */
export function unchangedPairs(a: readonly string[], b: readonly string[]): [number, number][] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  ) {
    tail++;
  }
  const pairs: [number, number][] = [];
  for (let i = 0; i < head; i++) pairs.push([i, i]);
  const [midA, midB] = [a.slice(head, a.length - tail), b.slice(head, b.length - tail)];
  if (midA.length * midB.length <= MAX_ALIGNMENT_CELLS) {
    for (const [i, j] of lcs(midA, midB)) pairs.push([head + i, head + j]);
  }
  for (let k = tail; k > 0; k--) pairs.push([a.length - k, b.length - k]);
  return pairs;
}

function lcs(a: readonly string[], b: readonly string[]): [number, number][] {
  const [n, m] = [a.length, b.length];
  // lengths[i][j]: LCS length of a[i..] and b[j..].
  const lengths = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lengths[i][j] =
        a[i] === b[j] ? lengths[i + 1][j + 1] + 1 : Math.max(lengths[i + 1][j], lengths[i][j + 1]);
    }
  }
  const pairs: [number, number][] = [];
  for (let i = 0, j = 0; i < n && j < m;) {
    if (a[i] === b[j]) {
      pairs.push([i, j]);
      i++;
      j++;
    } else if (lengths[i + 1][j] >= lengths[i][j + 1]) i++;
    else j++;
  }
  return pairs;
}
