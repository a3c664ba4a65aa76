/** Which version decides where an item sits in a merged sequence. */
export type Owner = 'base' | 'ours' | 'theirs';

/**
 * The items of `base` still in `side` whose order relative to the others changed: those left
 * out of a longest common subsequence. Inserting or deleting neighbours moves nothing. Both
 * lists hold unique ids, so the subsequence is a longest increasing run of base positions
 * (O(n log n)).
 */
export function reordered(base: readonly string[], side: readonly string[]): Set<string> {
  const basePosition = new Map(base.map((id, i) => [id, i]));
  const shared = side.filter((id) => basePosition.has(id));
  const positions = shared.map((id) => basePosition.get(id)!);
  // tails[k]: index in `shared` of the smallest tail of an increasing run of length k + 1.
  const tails: number[] = [];
  const previous = new Array<number>(shared.length).fill(-1);
  positions.forEach((position, i) => {
    let low = 0;
    let high = tails.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (positions[tails[middle]] < position) low = middle + 1;
      else high = middle;
    }
    if (low > 0) previous[i] = tails[low - 1];
    tails[low] = i;
  });
  const kept = new Set<string>();
  for (let i = tails.length ? tails[tails.length - 1] : -1; i >= 0; i = previous[i]) {
    kept.add(shared[i]);
  }
  return new Set(shared.filter((id) => !kept.has(id)));
}

/** Whether `id` has the same neighbour before it, or the same after it, in both lists. */
export function samePlace(id: string, a: readonly string[], b: readonly string[]): boolean {
  const i = a.indexOf(id);
  const j = b.indexOf(id);
  return a[i - 1] === b[j - 1] || a[i + 1] === b[j + 1];
}

/**
 * Orders the members of a merged sequence (the keys of `owners`). Items whose place neither
 * side changed keep base order; every other item sits after the nearest preceding unchanged
 * item in the list of the side that owns its place, so each side's runs of insertions keep
 * their order. Where both sides put items in the same gap, ours come first, then theirs.
 */
export function mergeOrder(
  lists: { base: readonly string[]; ours: readonly string[]; theirs: readonly string[] },
  owners: ReadonlyMap<string, Owner>,
): string[] {
  const gaps = new Map<string | null, { ours: string[]; theirs: string[] }>();
  const gap = (anchor: string | null) => {
    let entry = gaps.get(anchor);
    if (!entry) gaps.set(anchor, (entry = { ours: [], theirs: [] }));
    return entry;
  };
  for (const side of ['ours', 'theirs'] as const) {
    let anchor: string | null = null;
    for (const id of lists[side]) {
      const owner = owners.get(id);
      if (owner === 'base') anchor = id;
      else if (owner === side) gap(anchor)[side].push(id);
    }
  }
  const order: string[] = [];
  const flush = (anchor: string | null) => {
    const entry = gaps.get(anchor);
    if (entry) order.push(...entry.ours, ...entry.theirs);
  };
  flush(null);
  for (const id of lists.base) {
    if (owners.get(id) !== 'base') continue;
    order.push(id);
    flush(id);
  }
  return order;
}
