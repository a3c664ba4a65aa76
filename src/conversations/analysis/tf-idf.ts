/** A sparse vector: term → weight. */
export type Vector = Map<string, number>;

/**
 * TF-IDF over one organization's issues: the inverse document frequencies are computed from the
 * whole corpus the analysis sees, so frequent words ("account", "page") weigh less than the
 * words that tell problems apart ("invoice", "sso"). The IDF is damped (square root): in an
 * organization whose conversations share one topic, its words are in every issue, and a plain
 * IDF would let incidental rare words outweigh them. Vectors are L2-normalised: cosine = dot.
 */
export class TfIdf {
  private readonly idf = new Map<string, number>();
  private readonly documents: number;

  constructor(corpus: Record<string, number>[]) {
    this.documents = corpus.length;
    const df = new Map<string, number>();
    for (const counts of corpus) {
      for (const term of Object.keys(counts)) df.set(term, (df.get(term) ?? 0) + 1);
    }
    for (const [term, n] of df)
      this.idf.set(term, Math.sqrt(Math.log((1 + this.documents) / (1 + n)) + 1));
  }

  vector(counts: Record<string, number>): Vector {
    const vector: Vector = new Map();
    // Terms in a fixed order (stored counts come back from jsonb in another one), so that sums
    // over a vector always add up the same way.
    const entries = Object.entries(counts).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    for (const [term, count] of entries) {
      const idf = this.idf.get(term) ?? Math.sqrt(Math.log(1 + this.documents) + 1);
      vector.set(term, (1 + Math.log(count)) * idf);
    }
    return normalize(vector);
  }
}

export function normalize(vector: Vector): Vector {
  let norm = 0;
  for (const weight of vector.values()) norm += weight * weight;
  norm = Math.sqrt(norm);
  if (norm === 0) return vector;
  const result: Vector = new Map();
  for (const [term, weight] of vector) result.set(term, weight / norm);
  return result;
}

export function cosine(a: Vector, b: Vector): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let dot = 0;
  for (const [term, weight] of small) {
    const other = large.get(term);
    if (other !== undefined) dot += weight * other;
  }
  return dot;
}

/** The normalised mean of `vectors`: a cluster's centroid. */
export function centroid(vectors: Vector[]): Vector {
  const sum: Vector = new Map();
  for (const vector of vectors) {
    for (const [term, weight] of vector) sum.set(term, (sum.get(term) ?? 0) + weight);
  }
  return normalize(sum);
}

/** The `n` heaviest terms of `vector` (ties alphabetical, so the order is stable). */
export function topTerms(vector: Vector, n: number): string[] {
  return [...vector]
    .sort(([a, wa], [b, wb]) => wb - wa || a.localeCompare(b))
    .slice(0, n)
    .map(([term]) => term);
}
