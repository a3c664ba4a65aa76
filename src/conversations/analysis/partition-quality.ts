/**
 * How well a partition matches known classes: the adjusted Rand index (Hubert and Arabie,
 * 1985), as scikit-learn's `adjusted_rand_score` computes it. 1 is the same partition, about 0
 * a random one (it can go below 0). `truth[i]` and `predicted[i]` are the class and the cluster
 * of item i; an item in no cluster should get a label of its own (a singleton).
 */
export function adjustedRandIndex(truth: readonly string[], predicted: readonly string[]): number {
  if (truth.length !== predicted.length) {
    throw new Error(`${truth.length} classes for ${predicted.length} clusters`);
  }
  const n = truth.length;
  const pairs = (k: number) => (k * (k - 1)) / 2;
  const cells = new Map<string, number>();
  const rows = new Map<string, number>();
  const columns = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const cell = `${truth[i]}\u0000${predicted[i]}`;
    cells.set(cell, (cells.get(cell) ?? 0) + 1);
    rows.set(truth[i], (rows.get(truth[i]) ?? 0) + 1);
    columns.set(predicted[i], (columns.get(predicted[i]) ?? 0) + 1);
  }
  const sum = (counts: Map<string, number>) =>
    [...counts.values()].reduce((total, k) => total + pairs(k), 0);
  const index = sum(cells);
  const rowPairs = sum(rows);
  const columnPairs = sum(columns);
  const expected = (rowPairs * columnPairs) / pairs(n);
  const max = (rowPairs + columnPairs) / 2;
  // Both partitions all singletons or all one class: identical partitions score 1.
  if (max === expected) return 1;
  return (index - expected) / (max - expected);
}
