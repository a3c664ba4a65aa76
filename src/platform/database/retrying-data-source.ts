import { DataSource, EntityManager, type QueryRunner } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import type { IsolationLevel } from 'typeorm/driver/types/IsolationLevel';
import type { ReplicationMode } from 'typeorm/driver/types/ReplicationMode';
import { retryOnConflict } from './conflict-retry';
import { isDatabaseUnavailable } from './connection-faults';
import { pauseBeforeRetry, ResilientQueryRunner } from './resilient-query-runner';

type Work<T> = (manager: EntityManager) => Promise<T>;

/**
 * The application's data source, which runs work again where doing so cannot apply it twice:
 *
 * - a transaction (`dataSource.transaction(...)`, or `transaction` of the data source's own
 *   manager) runs again, whole, when PostgreSQL aborts it for a serialization failure or a
 *   deadlock (see conflict-retry.ts), and once more when its connection failed before it asked
 *   to commit: nothing of it was committed then. A failure during the COMMIT leaves the outcome
 *   unknown, and reaches the caller (503);
 * - a statement outside a transaction runs on a ResilientQueryRunner (a read, or a statement
 *   that never left, runs again on a fresh connection).
 *
 * A transaction opened with a transaction's own manager is part of that transaction (a
 * savepoint) and is not retried on its own.
 */
export class RetryingDataSource extends DataSource {
  override createQueryRunner(mode: ReplicationMode = 'master'): QueryRunner {
    const runner = new ResilientQueryRunner(this.driver as PostgresDriver, mode);
    Object.assign(runner, { manager: this.createEntityManager(runner) });
    return runner;
  }

  override createEntityManager(queryRunner?: QueryRunner): EntityManager {
    return new RetryingEntityManager(this, queryRunner);
  }
}

class RetryingEntityManager extends EntityManager {
  override transaction<T>(work: Work<T>): Promise<T>;
  override transaction<T>(isolation: IsolationLevel, work: Work<T>): Promise<T>;
  override transaction<T>(isolationOrWork: IsolationLevel | Work<T>, work?: Work<T>): Promise<T> {
    const [isolation, run] =
      typeof isolationOrWork === 'function'
        ? [undefined, isolationOrWork]
        : [isolationOrWork, work as Work<T>];
    const once = (attempt: Work<T>) =>
      isolation ? super.transaction(isolation, attempt) : super.transaction(attempt);
    // Bound to a query runner: inside a transaction already, or on a runner of the caller's.
    if (this.queryRunner) return once(run);
    let connectionRetried = false;
    return retryOnConflict(async () => {
      for (;;) {
        let committing = false;
        try {
          return await once(async (manager) => {
            const result = await run(manager);
            committing = true;
            return result;
          });
        } catch (error) {
          if (committing || connectionRetried || !isDatabaseUnavailable(error)) throw error;
          connectionRetried = true;
          await pauseBeforeRetry();
        }
      }
    });
  }
}
