import { Logger } from '@nestjs/common';
import { Client, type ClientConfig } from 'pg';

const logger = new Logger('Database');

/**
 * A `pg` client that listens for its own errors from the moment it exists, given to every
 * pool Bindery makes (TypeORM's, pg-boss's) as the pool's `Client`.
 *
 * A client emits `error` when its connection fails outside a query (the server terminated it,
 * the socket was reset). pg-pool listens while the client is idle, TypeORM while a query runner
 * holds it; but between the two, when a client released by `pool.query` goes straight to a
 * waiting `pool.connect` whose caller attaches its listener a tick later, nothing listens, and
 * an `error` event without a listener throws: the process ends. With this listener the error
 * is logged instead; the client is then unusable (`pg` refuses its queries), and the pool
 * discards it when it comes back.
 */
export class GuardedClient extends Client {
  constructor(config?: string | ClientConfig) {
    super(config);
    this.once('error', (error: Error) => {
      logger.warn(`A database connection was lost: ${describe(error)}`);
      // Later errors of the same dead connection say nothing new.
      this.on('error', () => undefined);
    });
  }
}

function describe(error: Error & { code?: unknown }): string {
  return typeof error.code === 'string' ? `${error.code} ${error.message}` : error.message;
}
