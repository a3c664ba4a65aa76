import { setTimeout as sleep } from 'node:timers/promises';
import type { ObjectLiteral } from 'typeorm';
import { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner';
import { isReadOnlyStatement, wasNeverSent, isDatabaseUnavailable } from './connection-faults';

const RETRY_PAUSE_MS = 25;

/**
 * What a statement waits before it runs again on a fresh connection: long enough for the pool
 * to hear of the other connections that the same failure ended (they all fail at once), short
 * enough to go unnoticed. After the pause, one turn of the event loop's I/O phase, so that what
 * those connections' sockets already say has been read: timers run before it.
 */
export async function pauseBeforeRetry(): Promise<void> {
  await sleep(RETRY_PAUSE_MS);
  await new Promise((resolve) => setImmediate(resolve));
}

/**
 * TypeORM's PostgreSQL query runner, with one more chance for a statement outside a transaction
 * whose connection failed: it runs again, once, on a fresh connection from the pool, when that
 * cannot apply it twice: it only reads, or it never reached the database (no connection could
 * be had, or `pg` refused it on a connection already dead). A write that was sent is not run
 * again: whether it was applied is unknown, and the failure reaches the caller (503).
 *
 * Statements of a transaction are not retried one by one: the transaction is, whole (see
 * RetryingDataSource). Nothing is added to a statement that succeeds.
 */
export class ResilientQueryRunner extends PostgresQueryRunner {
  override async query(
    query: string,
    parameters?: unknown[] | ObjectLiteral,
    useStructuredResult?: boolean,
  ): ReturnType<PostgresQueryRunner['query']> {
    try {
      return await super.query(query, parameters, useStructuredResult);
    } catch (error) {
      if (!this.mayRunAgain(query, error)) throw error;
      await pauseBeforeRetry();
      this.forgetConnection(error);
      return super.query(query, parameters, useStructuredResult);
    }
  }

  private mayRunAgain(query: string, error: unknown): boolean {
    if (this.isTransactionActive || !isDatabaseUnavailable(error)) return false;
    return wasNeverSent(error) || isReadOnlyStatement(query);
  }

  /**
   * Gives the failed connection back to the pool as broken (the pool ends it) and makes the
   * runner take a new one at its next statement, as a runner that was never connected. A runner
   * that its connection's `error` event already released has nothing to give back.
   */
  private forgetConnection(error: unknown): void {
    this.releaseCallback?.(error);
    this.releaseCallback = undefined;
    const connected = this.driver.connectedQueryRunners;
    const index = connected.indexOf(this);
    if (index !== -1) connected.splice(index, 1);
    this.databaseConnection = undefined;
    this.databaseConnectionPromise = undefined as unknown as Promise<unknown>;
    this.isReleased = false;
  }
}
