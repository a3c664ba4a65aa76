import { DataSource, EntityManager } from 'typeorm';
import type { IsolationLevel } from 'typeorm/driver/types/IsolationLevel';
import { retryOnConflict } from './conflict-retry';

type Work<T> = (manager: EntityManager) => Promise<T>;

/**
 * The application's data source: every `dataSource.transaction(...)` is run again, whole, when
 * PostgreSQL aborts it for a serialization failure or a deadlock (see conflict-retry.ts). A
 * transaction opened with a transaction's own manager is part of that transaction and is not
 * retried on its own.
 */
export class RetryingDataSource extends DataSource {
  override transaction<T>(work: Work<T>): Promise<T>;
  override transaction<T>(isolation: IsolationLevel, work: Work<T>): Promise<T>;
  override transaction<T>(isolationOrWork: IsolationLevel | Work<T>, work?: Work<T>): Promise<T> {
    return retryOnConflict(() =>
      typeof isolationOrWork === 'function'
        ? super.transaction(isolationOrWork)
        : super.transaction(isolationOrWork, work as Work<T>),
    );
  }
}
