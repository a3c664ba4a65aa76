import type { TermCounts } from '../entities/conversation-issue.entity';
import { centroid, cosine, TfIdf, type Vector } from './tf-idf';

/** An issue joins an existing cluster whose centroid is at least this similar. */
export const JOIN_SIMILARITY = 0.3;
/** Unclustered issues group when their average pairwise similarity is at least this. */
export const GROUP_SIMILARITY = 0.2;
/** Fewer similar issues than this stay unclustered until more arrive. */
export const MIN_CLUSTER_SIZE = 2;

export interface IssueTerms {
  id: string;
  terms: TermCounts;
}

export interface ClusterMembers {
  id: string;
  issues: IssueTerms[];
}

export interface ClusteringResult {
  /** Issue id → existing cluster id, for issues that joined one. */
  joined: Map<string, string>;
  /** Groups of issue ids that make new clusters, in a stable order. */
  created: string[][];
}

/**
 * Places unclustered issues: each joins the existing cluster with the nearest centroid when it
 * is similar enough (centroids are not moved during the pass, so the order of issues does not
 * matter); the rest are grouped among themselves by average-linkage agglomeration, and groups
 * of at least MIN_CLUSTER_SIZE join the existing cluster their centroid is similar enough to, or
 * become new clusters. Existing memberships never change, so
 * clusters do not reshuffle as issues arrive; the same input always gives the same output
 * (ties are broken by position, and callers pass issues in a fixed order).
 */
export function clusterIssues(
  clusters: ClusterMembers[],
  unclustered: IssueTerms[],
  options: { join?: number; group?: number; minSize?: number } = {},
): ClusteringResult {
  const join = options.join ?? JOIN_SIMILARITY;
  const group = options.group ?? GROUP_SIMILARITY;
  const minSize = options.minSize ?? MIN_CLUSTER_SIZE;
  const tfidf = new TfIdf([
    ...clusters.flatMap((cluster) => cluster.issues.map((issue) => issue.terms)),
    ...unclustered.map((issue) => issue.terms),
  ]);
  const centroids = clusters.map((cluster) => ({
    id: cluster.id,
    vector: centroid(cluster.issues.map((issue) => tfidf.vector(issue.terms))),
  }));

  const joined = new Map<string, string>();
  const rest: { id: string; vector: Vector }[] = [];
  for (const issue of unclustered) {
    const vector = tfidf.vector(issue.terms);
    const target = nearest(vector, centroids, join);
    if (target) joined.set(issue.id, target);
    else rest.push({ id: issue.id, vector });
  }

  // A group of issues can resemble a cluster that none of them resembled alone: it joins it.
  const vectors = new Map(rest.map((item) => [item.id, item.vector]));
  const created: string[][] = [];
  for (const ids of agglomerate(rest, group)) {
    if (ids.length < minSize) continue;
    const target = nearest(centroid(ids.map((id) => vectors.get(id)!)), centroids, join);
    if (target) ids.forEach((id) => joined.set(id, target));
    else created.push(ids);
  }
  return { joined, created };
}

/** The id of the centroid most similar to `vector`, if at least `threshold` (first on ties). */
function nearest(
  vector: Vector,
  centroids: { id: string; vector: Vector }[],
  threshold: number,
): string | undefined {
  let best: { id: string; similarity: number } | undefined;
  for (const candidate of centroids) {
    const similarity = cosine(vector, candidate.vector);
    if (similarity >= threshold && (!best || similarity > best.similarity)) {
      best = { id: candidate.id, similarity };
    }
  }
  return best?.id;
}

/**
 * Average-linkage agglomerative clustering: repeatedly merges the two groups with the highest
 * mean pairwise similarity while it is at least `threshold`. O(n³) in the worst case, fine for
 * the few hundred issues one analysis places.
 */
export function agglomerate(
  items: { id: string; vector: Vector }[],
  threshold: number,
): string[][] {
  const groups = items.map((item, i) => ({ members: [i], alive: true }));
  const n = items.length;
  // sums[a][b]: sum of pairwise similarities between the members of groups a and b.
  const sums: number[][] = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (let a = 0; a < n; a++) {
    for (let b = a + 1; b < n; b++) {
      const similarity = cosine(items[a].vector, items[b].vector);
      sums[a][b] = similarity;
      sums[b][a] = similarity;
    }
  }
  for (;;) {
    let best: { a: number; b: number; score: number } | undefined;
    for (let a = 0; a < n; a++) {
      if (!groups[a].alive) continue;
      for (let b = a + 1; b < n; b++) {
        if (!groups[b].alive) continue;
        const score = sums[a][b] / (groups[a].members.length * groups[b].members.length);
        if (score >= threshold && (!best || score > best.score)) best = { a, b, score };
      }
    }
    if (!best) break;
    const { a, b } = best;
    groups[a].members.push(...groups[b].members);
    groups[b].alive = false;
    for (let c = 0; c < n; c++) {
      if (c === a || !groups[c].alive) continue;
      sums[a][c] += sums[b][c];
      sums[c][a] = sums[a][c];
    }
  }
  return groups
    .filter((g) => g.alive)
    .map((g) => g.members.sort((x, y) => x - y).map((i) => items[i].id));
}
