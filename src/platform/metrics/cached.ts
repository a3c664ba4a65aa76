/**
 * `load`, called at most once per `ttlMs`: calls within that time, and those made while a load
 * is under way, share its outcome (a failure too), so that a burst of scrapes costs one load.
 */
export function cachedFor<T>(
  ttlMs: number,
  load: () => Promise<T>,
  now: () => number = () => performance.now(),
): () => Promise<T> {
  let last: Promise<T> | undefined;
  let loadedAt = -Infinity;
  return () => {
    if (!last || now() - loadedAt >= ttlMs) {
      loadedAt = now();
      last = load();
      // Handled by the callers; a failure nobody awaits again is not an unhandled rejection.
      last.catch(() => undefined);
    }
    return last;
  };
}
