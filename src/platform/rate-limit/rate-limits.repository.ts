import type { Pool, QueryConfig } from 'pg';
import type { DataSource } from 'typeorm';
import { preparedStatementsEnabled } from '../database/prepared-query';

/** What rate-limiter-flexible's PostgreSQL limiter sends its statements to. */
export interface RateLimitsClient {
  query(query: QueryConfig): Promise<unknown>;
}

/**
 * The `rate_limits` table's client, for rate-limiter-flexible (which writes its own statements):
 * the application's pool. The limiter names its statements; without prepared statements (the
 * embedded server, a pooler in transaction mode) they run unnamed.
 */
export function rateLimitsClient(dataSource: DataSource): RateLimitsClient {
  const pool = (dataSource.driver as unknown as { master: Pool }).master;
  const prepared = preparedStatementsEnabled(dataSource);
  return {
    query: (query: QueryConfig) =>
      pool.query(prepared ? query : { text: query.text, values: query.values }),
  };
}
