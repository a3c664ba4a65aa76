import { join } from 'node:path';
import { DataSourceOptions } from 'typeorm';
import { GuardedClient } from './guarded-client';
import { SnakeNamingStrategy } from './snake-naming.strategy';

/** Repository root, both from `src/platform/database` (tests) and `dist/src/platform/database`. */
const ROOT = join(__dirname, '..', '..', '..');

/** Migration files: TypeScript under test, compiled JavaScript in `dist/`. */
export const MIGRATIONS_GLOB = join(
  ROOT,
  'migrations',
  `*${__filename.endsWith('.ts') ? '.ts' : '.js'}`,
);

/** The pool of a data source, and the limits every one of its connections starts with. */
export interface PoolSettings {
  size: number;
  /** How long a caller waits for a connection (pg-pool's `connectionTimeoutMillis`). */
  acquireTimeoutMs?: number;
  /** PostgreSQL's `statement_timeout` of each connection; 0 or unset: the server's. */
  statementTimeoutMs?: number;
  /** PostgreSQL's `lock_timeout` of each connection; 0 or unset: the server's. */
  lockTimeoutMs?: number;
}

export function dataSourceOptions(url: string, pool: PoolSettings): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    synchronize: false,
    migrationsRun: false,
    migrations: [MIGRATIONS_GLOB],
    migrationsTableName: 'migrations',
    namingStrategy: new SnakeNamingStrategy(),
    // pg-pool's options. The timeouts go in each connection's startup message (no round trip),
    // and `pg` leaves out those that are 0.
    extra: {
      max: pool.size,
      Client: GuardedClient,
      connectionTimeoutMillis: pool.acquireTimeoutMs,
      statement_timeout: pool.statementTimeoutMs || undefined,
      lock_timeout: pool.lockTimeoutMs || undefined,
    },
  };
}
