import type { EntityManager } from 'typeorm';

/** What pg-boss runs its statements through when a call is given `db` (its `Db` interface). */
export interface SqlExecutor {
  executeSql(text: string, values: unknown[]): Promise<{ rows: unknown[] }>;
}

/**
 * The transaction of `manager` as pg-boss's `db`: a job sent through it is written by that
 * transaction, so it exists only if the transaction commits. Undefined for a manager outside a
 * transaction (nothing to join: pg-boss's own connection does as well).
 */
export function transactionExecutor(manager: EntityManager): SqlExecutor | undefined {
  const runner = manager.queryRunner;
  if (!runner?.isTransactionActive) return undefined;
  return {
    executeSql: async (text, values) => {
      const result = await runner.query(text, values, true);
      return { rows: result.records };
    },
  };
}
