import { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { invalidInput } from '../errors/domain-error';
import { sha256Hex } from '../ids/ids';
import { DEFAULT_PAGE_SIZE } from './page-query.dto';
import type { Page } from './page';

type KeyValue = string | number | boolean | Date | null;

export interface KeysetKey<T> {
  /** SQL expression of the key in the query, e.g. `org.created_at`. */
  sql: string;
  /** Reads the key from a fetched row. */
  of: (row: T) => KeyValue;
}

export interface KeysetOrder<T extends ObjectLiteral, R = T> {
  /** Most significant first; the last key must be unique in the list (an id). */
  keys: KeysetKey<R>[];
  direction: 'ASC' | 'DESC';
  /**
   * Reads the page's rows from the ordered, limited query; `getMany()` when absent. Lists whose
   * items carry computed columns (a count subquery) read `getRawAndEntities()` here.
   */
  fetch?: (query: SelectQueryBuilder<T>) => Promise<R[]>;
  /**
   * Counts the whole list (`count`); `query.getCount()` when absent, a COUNT(DISTINCT id) over
   * the query with its joins. Lists whose joins cannot change the count pass a cheaper one.
   */
  count?: () => Promise<number>;
}

/** `SELECT count(*)` over the rows of `query` (its FROM, joins and WHERE; no DISTINCT). */
export async function countRows<T extends ObjectLiteral>(
  query: SelectQueryBuilder<T>,
): Promise<number> {
  const row = await query.clone().select('count(*)', 'count').getRawOne<{ count: string }>();
  return Number(row?.count ?? 0);
}

export interface PageRequest {
  page?: string;
  limit?: number;
}

/**
 * Keyset pagination: the cursor holds the sort key of the last row, and the next page starts
 * strictly after it with a row comparison that an index on the same columns serves, so page
 * 1,000 costs what page 1 costs. Timestamps in keys must be written with millisecond precision
 * (Bindery writes them from its Clock) for the cursor to round-trip exactly.
 */
export async function paginate<T extends ObjectLiteral, R = T>(
  query: SelectQueryBuilder<T>,
  request: PageRequest,
  order: KeysetOrder<T, R>,
): Promise<Page<R>> {
  const limit = request.limit ?? DEFAULT_PAGE_SIZE;
  const fingerprint = fingerprintOf(order);

  const rowsQuery = query.clone();
  if (request.page) {
    const after = decodeCursor(request.page, fingerprint, order.keys.length);
    const columns = order.keys.map((key) => key.sql).join(', ');
    const params = Object.fromEntries(after.map((value, i) => [`keyset_${i}`, value]));
    const placeholders = after.map((_, i) => `:keyset_${i}`).join(', ');
    const comparison = order.direction === 'DESC' ? '<' : '>';
    rowsQuery.andWhere(`(${columns}) ${comparison} (${placeholders})`, params);
  }
  order.keys.forEach((key, i) =>
    i === 0
      ? rowsQuery.orderBy(key.sql, order.direction)
      : rowsQuery.addOrderBy(key.sql, order.direction),
  );
  // `limit`, not `take`: list queries select one row per item (no to-many joins).
  rowsQuery.limit(limit + 1);
  // Both queries run at once; Promise.all awaits both, so a failure of either is handled.
  const [rows, count] = await Promise.all([
    order.fetch ? order.fetch(rowsQuery) : (rowsQuery.getMany() as unknown as Promise<R[]>),
    order.count ? order.count() : query.clone().getCount(),
  ]);

  const items = rows.slice(0, limit);
  const page: Page<R> = { items, count };
  if (rows.length > limit) {
    const last = items[items.length - 1];
    page.next = {
      page: encodeCursor(
        order.keys.map((key) => key.of(last)),
        fingerprint,
      ),
    };
  }
  return page;
}

function isKeyValue(value: unknown): value is KeyValue {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

function fingerprintOf<T extends ObjectLiteral, R>(order: KeysetOrder<T, R>): string {
  return sha256Hex(`${order.direction}:${order.keys.map((k) => k.sql).join(',')}`).slice(0, 8);
}

export function encodeCursor(values: KeyValue[], fingerprint: string): string {
  const plain = values.map((v) => (v instanceof Date ? v.toISOString() : v));
  return Buffer.from(JSON.stringify([fingerprint, plain])).toString('base64url');
}

export function decodeCursor(cursor: string, fingerprint: string, keyCount: number): KeyValue[] {
  try {
    const [printed, values] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      printed === fingerprint &&
      Array.isArray(values) &&
      values.length === keyCount &&
      values.every(isKeyValue)
    ) {
      return values;
    }
  } catch {
    // fall through: any malformed cursor is the caller's mistake
  }
  throw invalidInput('page is not a valid page identifier for this list.');
}
