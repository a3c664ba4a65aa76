import { invalidInput } from '../errors/domain-error';
import { decodeCursor, encodeCursor } from './keyset';
import type { Page } from './page';
import { DEFAULT_PAGE_SIZE } from './page-query.dto';

/**
 * A page of a list that is derived in memory (the links of a revision, the structure of a
 * site): small and bounded lists, whose order is not a database column. The cursor is the
 * offset; `fingerprint` names the list, so a cursor of another list is refused.
 */
export function pageOfList<T>(
  items: T[],
  query: { page?: string; limit?: number },
  fingerprint: string,
): Page<T> {
  const start = query.page ? decodeCursor(query.page, fingerprint, 1)[0] : 0;
  if (typeof start !== 'number' || !Number.isInteger(start) || start < 0) {
    throw invalidInput('page is not a valid page identifier for this list.');
  }
  const limit = query.limit ?? DEFAULT_PAGE_SIZE;
  const end = start + limit;
  return {
    items: items.slice(start, end),
    count: items.length,
    ...(end < items.length ? { next: { page: encodeCursor([end], fingerprint) } } : {}),
  };
}
