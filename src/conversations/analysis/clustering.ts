import type { TermCounts } from '../entities/conversation-issue.entity';
import { cosine, TfIdf, type Vector } from './tf-idf';

/**
 * Two groups of issues merge while the mean similarity of their pairs is at least this (TF-IDF
 * cosine). Tuned on the labelled corpus of test/fixtures/support-conversations and checked on
 * its held-out twin (another seed): ARI ≥ 0.8 on both between about 0.12 and 0.2.
 */
export const TFIDF_THRESHOLD = 0.15;
/** The same with embeddings (cosine of the model's vectors, which run higher than TF-IDF's). */
export const EMBEDDING_THRESHOLD = 0.75;
/** Fewer similar issues than this stay unclustered until more arrive. */
export const MIN_CLUSTER_SIZE = 2;

/** A dense vector (an embedding); sparse ones are TF-IDF. */
export type AnyVector = Vector | Float64Array;

export interface IssueTerms {
  id: string;
  /** Orders issues the same way whatever their arrival: ties between equal merges go to the smallest. */
  key: string;
  terms: TermCounts;
}

export interface PartitionItem {
  id: string;
  key: string;
  vector: AnyVector;
}

/**
 * TF-IDF vectors of `issues`, the IDF computed over all of them: with the organization's whole
 * issue set, each vector depends only on that set, not on the order or batches it came in.
 */
export function tfIdfItems(issues: IssueTerms[]): PartitionItem[] {
  const tfidf = new TfIdf(issues.map((issue) => issue.terms));
  return issues.map((issue) => ({
    id: issue.id,
    key: issue.key,
    vector: tfidf.vector(issue.terms),
  }));
}

/**
 * The organization's issues grouped by similarity: average-linkage agglomerative clustering
 * (UPGMA) with a fixed threshold. Starting from singletons, the two groups with the highest mean
 * pairwise similarity merge, while that mean is at least `threshold`; groups smaller than
 * `minSize` are left out (their issues stay unclustered). Deterministic and independent of the
 * order of `items`: they are ordered by `key` first, and equal merges go to the smallest indexes.
 *
 * Only pairs with a positive similarity are kept (TF-IDF vectors of short texts share no term
 * with most others), and merges come from a heap, so time and memory follow the number of such
 * pairs, not n³. Each group's members come ordered by key, and the groups by their first member.
 */
export function partition(
  items: PartitionItem[],
  threshold: number,
  minSize: number = MIN_CLUSTER_SIZE,
): string[][] {
  const sorted = [...items].sort((a, b) => compare(a.key, b.key) || compare(a.id, b.id));
  const n = sorted.length;
  // neighbours[a]: group b → sum of the similarities of their members' pairs (a, b alive).
  const neighbours = similarityGraph(sorted.map((item) => item.vector));
  const size = new Array<number>(n).fill(1);
  const version = new Array<number>(n).fill(0);
  const members: number[][] = sorted.map((_, i) => [i]);
  const heap = new MergeHeap();
  for (let a = 0; a < n; a++) {
    for (const [b, sum] of neighbours[a]) {
      if (b > a && sum >= threshold) heap.push({ score: sum, a, b, va: 0, vb: 0 });
    }
  }
  for (;;) {
    const best = heap.pop();
    if (!best) break;
    const { a, b } = best;
    if (version[a] !== best.va || version[b] !== best.vb) continue;
    // b joins a (a < b, so a group is known by its smallest index).
    const merged = neighbours[a];
    merged.delete(b);
    for (const [c, sum] of neighbours[b]) {
      if (c === a) continue;
      merged.set(c, (merged.get(c) ?? 0) + sum);
    }
    for (const c of neighbours[b].keys()) neighbours[c]?.delete(b);
    neighbours[b] = new Map();
    size[a] += size[b];
    size[b] = 0;
    members[a].push(...members[b]);
    members[b] = [];
    version[a]++;
    version[b] = -1;
    for (const [c, sum] of merged) {
      neighbours[c].set(a, sum);
      const score = sum / (size[a] * size[c]);
      if (score < threshold) continue;
      const [x, y] = a < c ? [a, c] : [c, a];
      heap.push({ score, a: x, b: y, va: version[x], vb: version[y] });
    }
  }
  return members
    .filter((group) => group.length >= minSize)
    .map((group) => group.sort((x, y) => x - y).map((i) => sorted[i].id));
}

/**
 * For each item, the items it has a positive similarity with, and that similarity. Sparse
 * vectors meet through an inverted index (only pairs sharing a term are compared); dense ones
 * are compared pairwise.
 */
function similarityGraph(vectors: AnyVector[]): Map<number, number>[] {
  const n = vectors.length;
  const graph = vectors.map(() => new Map<number, number>());
  if (vectors.every((vector) => vector instanceof Map)) {
    const postings = new Map<string, { item: number; weight: number }[]>();
    vectors.forEach((vector, item) => {
      for (const [term, weight] of vector as Vector) {
        const list = postings.get(term) ?? [];
        list.push({ item, weight });
        postings.set(term, list);
      }
    });
    // Terms in a fixed order, so every sum adds up in the same order.
    for (const term of [...postings.keys()].sort(compare)) {
      const list = postings.get(term)!;
      for (let i = 0; i < list.length; i++) {
        for (let j = i + 1; j < list.length; j++) {
          const product = list[i].weight * list[j].weight;
          const { item: a } = list[i];
          const { item: b } = list[j];
          graph[a].set(b, (graph[a].get(b) ?? 0) + product);
          graph[b].set(a, (graph[b].get(a) ?? 0) + product);
        }
      }
    }
    return graph;
  }
  for (let a = 0; a < n; a++) {
    for (let b = a + 1; b < n; b++) {
      const similarity = similarity2(vectors[a], vectors[b]);
      if (similarity <= 0) continue;
      graph[a].set(b, similarity);
      graph[b].set(a, similarity);
    }
  }
  return graph;
}

function similarity2(a: AnyVector, b: AnyVector): number {
  if (a instanceof Map && b instanceof Map) return cosine(a, b);
  if (a instanceof Float64Array && b instanceof Float64Array) {
    let dot = 0;
    for (let i = 0; i < Math.min(a.length, b.length); i++) dot += a[i] * b[i];
    return dot;
  }
  return 0;
}

/** An embedding, L2-normalised (cosine = dot). */
export function unitVector(values: readonly number[]): Float64Array {
  const vector = Float64Array.from(values);
  let norm = 0;
  for (const value of vector) norm += value * value;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = 0; i < vector.length; i++) vector[i] /= norm;
  return vector;
}

/**
 * Cluster ids for a new partition, kept from the previous one by overlap: the pairs (group,
 * previous cluster) are taken by decreasing number of shared issues, then by cluster id and group
 * position, and each group and each cluster is used once. So a cluster that keeps most of its
 * issues keeps its id, a split one lives on in its larger part, and merged ones in the one that
 * brought most. `previous` maps issue id → its cluster id (issues not listed had none).
 * Answers, per group, the kept id or undefined for a new cluster.
 */
export function keepClusterIds(
  groups: string[][],
  previous: ReadonlyMap<string, string | null>,
): (string | undefined)[] {
  const overlaps: { group: number; cluster: string; shared: number }[] = [];
  groups.forEach((group, index) => {
    const counts = new Map<string, number>();
    for (const issue of group) {
      const cluster = previous.get(issue);
      if (cluster) counts.set(cluster, (counts.get(cluster) ?? 0) + 1);
    }
    for (const [cluster, shared] of counts) overlaps.push({ group: index, cluster, shared });
  });
  overlaps.sort(
    (x, y) => y.shared - x.shared || compare(x.cluster, y.cluster) || x.group - y.group,
  );
  const ids = new Array<string | undefined>(groups.length).fill(undefined);
  const used = new Set<string>();
  for (const { group, cluster } of overlaps) {
    if (ids[group] !== undefined || used.has(cluster)) continue;
    ids[group] = cluster;
    used.add(cluster);
  }
  return ids;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

interface Merge {
  score: number;
  a: number;
  b: number;
  va: number;
  vb: number;
}

/** A binary max-heap of candidate merges: highest score first, then smallest (a, b). */
class MergeHeap {
  private readonly items: Merge[] = [];

  push(merge: Merge): void {
    const items = this.items;
    items.push(merge);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(items[i], items[parent])) break;
      [items[i], items[parent]] = [items[parent], items[i]];
      i = parent;
    }
  }

  pop(): Merge | undefined {
    const items = this.items;
    if (items.length === 0) return undefined;
    const top = items[0];
    const last = items.pop()!;
    if (items.length > 0) {
      items[0] = last;
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        const right = left + 1;
        let best = i;
        if (left < items.length && before(items[left], items[best])) best = left;
        if (right < items.length && before(items[right], items[best])) best = right;
        if (best === i) break;
        [items[i], items[best]] = [items[best], items[i]];
        i = best;
      }
    }
    return top;
  }
}

function before(x: Merge, y: Merge): boolean {
  return x.score > y.score || (x.score === y.score && (x.a < y.a || (x.a === y.a && x.b < y.b)));
}
