/** How much one request to a translation provider may carry. */
export interface BatchLimits {
  /** Segments per request. */
  maxSegments: number;
  /** Characters per request, all segments together (a longer segment goes alone). */
  maxChars: number;
}

/**
 * `texts` split, in order, into batches within `limits`. Providers cap both the number of texts
 * and the size of a request, and a smaller request is cheaper to retry.
 */
export function batches(texts: readonly string[], limits: BatchLimits): string[][] {
  const result: string[][] = [];
  let current: string[] = [];
  let chars = 0;
  for (const text of texts) {
    const full =
      current.length >= limits.maxSegments ||
      (current.length > 0 && chars + text.length > limits.maxChars);
    if (full) {
      result.push(current);
      current = [];
      chars = 0;
    }
    current.push(text);
    chars += text.length;
  }
  if (current.length > 0) result.push(current);
  return result;
}
