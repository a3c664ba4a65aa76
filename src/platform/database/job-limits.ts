import type { EntityManager } from 'typeorm';

/** What a job's transaction may take, where a request's would be cut off (see below). */
export const JOB_LIMITS = { statementMs: 10 * 60_000, lockMs: 60_000 };

/**
 * Raises the statement and lock timeouts of the pool's connections (DATABASE_STATEMENT_TIMEOUT_MS,
 * DATABASE_LOCK_TIMEOUT_MS, set for requests) for the rest of `manager`'s transaction, for a job
 * whose statements may rightly run long or wait long: a large Git import, the rebuild of a
 * space's search index. Nobody waits on a job's answer, and a job cut off would only run again
 * from the start. `SET LOCAL`: the connection goes back to the pool with its own limits.
 */
export async function raiseLimitsForJob(
  manager: EntityManager,
  limits: { statementMs: number; lockMs: number } = JOB_LIMITS,
): Promise<void> {
  if (!manager.queryRunner?.isTransactionActive) {
    throw new Error('raiseLimitsForJob needs a transaction: its limits end with it');
  }
  await manager.query(
    `SELECT set_config('statement_timeout', $1, true), set_config('lock_timeout', $2, true)`,
    [`${limits.statementMs}ms`, `${limits.lockMs}ms`],
  );
}
