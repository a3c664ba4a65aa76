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
/**
 * Embeddings cluster organizations of at most this many issues: dense vectors need the n×n
 * similarity matrix (8·n² bytes, 200 MB here); larger ones are clustered by TF-IDF, whose sparse
 * path needs memory linear in the issues.
 */
export const EMBEDDING_MAX_ISSUES = 5000;
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
 * Computed with the nearest-neighbour chain algorithm (Murtagh, 1983; as in scipy and fastcluster):
 * average linkage is reducible, so merging reciprocal nearest neighbours gives the same groups
 * as always merging the globally closest pair. A group whose nearest neighbour is below the
 * threshold is done for good (a merge only averages similarities), which is where the threshold
 * cuts the tree. Each group's members come ordered by key, and the groups by their first member.
 *
 * Sparse vectors (TF-IDF) with a positive threshold take the sparse path (memory linear in the
 * vectors' terms, see sparseChain); dense ones (embeddings) the n×n similarity matrix.
 */
export function partition(
  items: PartitionItem[],
  threshold: number,
  minSize: number = MIN_CLUSTER_SIZE,
): string[][] {
  const sparse = threshold > 0 && items.every((item) => item.vector instanceof Map);
  return sparse
    ? partitionWith(items, minSize, (vectors) => sparseChain(vectors as Vector[], threshold))
    : partitionDense(items, threshold, minSize);
}

/**
 * The same partition from the n×n similarity matrix (8·n² bytes: 200 MB at 5,000 issues): what
 * embeddings use, and the reference the sparse path is checked against.
 */
export function partitionDense(
  items: PartitionItem[],
  threshold: number,
  minSize: number = MIN_CLUSTER_SIZE,
): string[][] {
  return partitionWith(items, minSize, (vectors) => denseChain(vectors, threshold));
}

/** Orders the items by key, groups them with `chain` (member indexes), keeps groups of minSize. */
function partitionWith(
  items: PartitionItem[],
  minSize: number,
  chain: (vectors: AnyVector[]) => number[][],
): string[][] {
  const sorted = [...items].sort((a, b) => compare(a.key, b.key) || compare(a.id, b.id));
  return chain(sorted.map((item) => item.vector))
    .filter((group) => group.length >= minSize)
    .map((group) => group.sort((p, q) => p - q).map((i) => sorted[i].id));
}

/** Whether c beats the best so far as a's nearest: higher, or equal and the previous in the chain, then the smallest index. */
function better(score: number, c: number, best: number, nearest: number, previous: number) {
  if (score !== best) return score > best;
  return c === previous || (nearest !== previous && c < nearest);
}

/** Nearest-neighbour chain over the similarity matrix; answers each group's member indexes. */
function denseChain(vectors: AnyVector[], threshold: number): number[][] {
  const n = vectors.length;
  // sums[a·n + b]: sum of the similarities of the pairs between groups a and b (both active).
  const sums = similarityMatrix(vectors);
  const size = new Array<number>(n).fill(1);
  const members: number[][] = vectors.map((_, i) => [i]);
  // Active: a group that may still merge (not absorbed, and with a neighbour at threshold).
  const active = new Uint8Array(n).fill(1);
  let remaining = n;
  const chain: number[] = [];
  while (remaining > 1) {
    if (chain.length === 0) chain.push(active.indexOf(1));
    const a = chain[chain.length - 1];
    const previous = chain.length > 1 ? chain[chain.length - 2] : -1;
    // a's nearest group; ties go to the previous one in the chain, then to the smallest index.
    let nearest = -1;
    let best = -Infinity;
    for (let c = 0; c < n; c++) {
      if (c === a || !active[c]) continue;
      const score = sums[a * n + c] / (size[a] * size[c]);
      if (better(score, c, best, nearest, previous)) {
        best = score;
        nearest = c;
      }
    }
    if (nearest === -1 || best < threshold) {
      // Nothing is similar enough to a, and never will be: a merge only averages similarities.
      active[a] = 0;
      remaining--;
      chain.length = 0;
      continue;
    }
    if (nearest !== previous) {
      chain.push(nearest);
      continue;
    }
    // Reciprocal nearest groups: the larger index joins the smaller one.
    chain.length -= 2;
    const [x, y] = a < nearest ? [a, nearest] : [nearest, a];
    for (let c = 0; c < n; c++) {
      if (c === x || c === y || !active[c]) continue;
      const sum = sums[x * n + c] + sums[y * n + c];
      sums[x * n + c] = sum;
      sums[c * n + x] = sum;
    }
    size[x] += size[y];
    members[x].push(...members[y]);
    members[y] = [];
    active[y] = 0;
    remaining--;
  }
  return members.filter((group) => group.length > 0);
}

/** A group's sum vector: term ids ascending, with their summed weights. */
interface SumVector {
  terms: Int32Array;
  weights: Float64Array;
}

/**
 * The nearest-neighbour chain without the similarity matrix. The vectors are unit vectors, so
 * the sum of the similarities of the pairs between groups A and B is the dot product of their sum
 * vectors, Σ_A·Σ_B: each group keeps its sum vector, and an inverted index (term → the active
 * groups having it, with their weight) finds a group's neighbours through the terms they share.
 * Groups sharing no term are at 0, below any positive threshold, as in the matrix. Memory: the
 * sum vectors and the index, linear in the issues' terms (a few MB at 20,000 issues) instead of
 * 8·n² bytes. Time: each step costs the postings of the group's terms, about what the matrix's
 * row costs.
 *
 * A dot product adds its terms in ascending term order, so Σ_A·Σ_B and Σ_B·Σ_A are the same
 * number (the chain's reciprocity test compares them); it may differ from the matrix's sums in
 * the last bits, and the partition with them (see the spec, which checks they agree).
 */
function sparseChain(vectors: Vector[], threshold: number): number[][] {
  const n = vectors.length;
  const vocabulary = [...new Set(vectors.flatMap((vector) => [...vector.keys()]))].sort(compare);
  const termId = new Map(vocabulary.map((term, id) => [term, id]));
  const sumVectors: SumVector[] = vectors.map((vector) => {
    const entries = [...vector]
      .map(([term, weight]) => [termId.get(term)!, weight] as const)
      .sort((p, q) => p[0] - q[0]);
    return {
      terms: Int32Array.from(entries, ([id]) => id),
      weights: Float64Array.from(entries, ([, weight]) => weight),
    };
  });
  // postings[term]: active group → its weight for the term.
  const postings = vocabulary.map(() => new Map<number, number>());
  sumVectors.forEach(({ terms, weights }, group) =>
    terms.forEach((term, k) => postings[term].set(group, weights[k])),
  );
  const size = new Array<number>(n).fill(1);
  const members: number[][] = vectors.map((_, i) => [i]);
  const active = new Uint8Array(n).fill(1);
  const dots = new Float64Array(n);
  const seen = new Uint8Array(n);
  let remaining = n;
  let firstActive = 0;
  const chain: number[] = [];
  const retire = (group: number) => {
    const { terms } = sumVectors[group];
    for (let k = 0; k < terms.length; k++) postings[terms[k]].delete(group);
    active[group] = 0;
    remaining--;
  };
  while (remaining > 1) {
    if (chain.length === 0) {
      while (!active[firstActive]) firstActive++;
      chain.push(firstActive);
    }
    const a = chain[chain.length - 1];
    const previous = chain.length > 1 ? chain[chain.length - 2] : -1;
    const { terms, weights } = sumVectors[a];
    const touched: number[] = [];
    for (let k = 0; k < terms.length; k++) {
      const weight = weights[k];
      for (const [c, other] of postings[terms[k]]) {
        if (c === a) continue;
        if (!seen[c]) {
          seen[c] = 1;
          touched.push(c);
        }
        dots[c] += weight * other;
      }
    }
    let nearest = -1;
    let best = -Infinity;
    for (const c of touched) {
      const score = dots[c] / (size[a] * size[c]);
      if (better(score, c, best, nearest, previous)) {
        best = score;
        nearest = c;
      }
      dots[c] = 0;
      seen[c] = 0;
    }
    if (nearest === -1 || best < threshold) {
      retire(a);
      chain.length = 0;
      continue;
    }
    if (nearest !== previous) {
      chain.push(nearest);
      continue;
    }
    chain.length -= 2;
    const [x, y] = a < nearest ? [a, nearest] : [nearest, a];
    const merged = addSorted(sumVectors[x], sumVectors[y]);
    retire(y); // absorbed into x
    merged.terms.forEach((term, k) => postings[term].set(x, merged.weights[k]));
    sumVectors[x] = merged;
    sumVectors[y] = { terms: new Int32Array(0), weights: new Float64Array(0) };
    size[x] += size[y];
    members[x].push(...members[y]);
    members[y] = [];
  }
  return members.filter((group) => group.length > 0);
}

/** x + y, both with ascending term ids (x's weight first in each sum). */
function addSorted(x: SumVector, y: SumVector): SumVector {
  const terms: number[] = [];
  const weights: number[] = [];
  let i = 0;
  let j = 0;
  while (i < x.terms.length || j < y.terms.length) {
    if (j >= y.terms.length || (i < x.terms.length && x.terms[i] < y.terms[j])) {
      terms.push(x.terms[i]);
      weights.push(x.weights[i++]);
    } else if (i >= x.terms.length || y.terms[j] < x.terms[i]) {
      terms.push(y.terms[j]);
      weights.push(y.weights[j++]);
    } else {
      terms.push(x.terms[i]);
      weights.push(x.weights[i++] + y.weights[j++]);
    }
  }
  return { terms: Int32Array.from(terms), weights: Float64Array.from(weights) };
}

/**
 * The n×n matrix of pairwise similarities (row-major, symmetric). Sparse vectors meet through
 * an inverted index, so only pairs that share a term cost anything; dense ones are compared
 * pairwise. 8·n² bytes: 200 MB at 5,000 issues.
 */
function similarityMatrix(vectors: AnyVector[]): Float64Array {
  const n = vectors.length;
  const matrix = new Float64Array(n * n);
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
        const { item: a, weight } = list[i];
        for (let j = i + 1; j < list.length; j++) {
          const b = list[j].item;
          const product = weight * list[j].weight;
          matrix[a * n + b] += product;
          matrix[b * n + a] += product;
        }
      }
    }
    return matrix;
  }
  for (let a = 0; a < n; a++) {
    for (let b = a + 1; b < n; b++) {
      const similarity = similarity2(vectors[a], vectors[b]);
      matrix[a * n + b] = similarity;
      matrix[b * n + a] = similarity;
    }
  }
  return matrix;
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
