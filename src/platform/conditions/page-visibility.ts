import { meetsCondition, type VisitorClaims } from './evaluate';

/**
 * A page's own adaptive-content condition, from its metadata; null when it has none (an empty
 * one is none: writes remove a condition by emptying it).
 */
function pageCondition(meta: Record<string, unknown>): string | null {
  const condition = meta.condition;
  return typeof condition === 'string' && condition !== '' ? condition : null;
}

/**
 * Whether a site's visitor sees a page whose own condition and its ancestors' are
 * `conditions`: it must meet them all, so a hidden page hides its subpages too. Every read a
 * site reader makes (page reads, search, meta links, redirects, markdown refs) asks this, and
 * only this, so that a page is absent for a visitor wherever it would show. Without a visitor
 * (a member, an API token) every page is seen.
 */
export function visitorSeesPage(
  conditions: readonly string[],
  visitor: VisitorClaims | undefined,
): boolean {
  if (!visitor) return true;
  return conditions.every((condition) => meetsCondition(condition, visitor));
}

/** The conditions of a page: its ancestors' (`above`, top first), then its own when it has one. */
export function withPageCondition(
  above: readonly string[],
  meta: Record<string, unknown>,
): string[] {
  const condition = pageCondition(meta);
  return condition !== null ? [...above, condition] : [...above];
}
