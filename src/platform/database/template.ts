import PgBoss from 'pg-boss';
import { MigrationRun, runMigrations } from './migrations';

/**
 * Brings an empty database to the state a start expects: migrations and the job-queue schema.
 * Answers what the migrations did.
 */
export async function prepareDatabase(url: string): Promise<MigrationRun> {
  const run = await runMigrations(url);
  const boss = new PgBoss({
    connectionString: url,
    schema: 'pgboss',
    max: 1,
    supervise: false,
    schedule: false,
  });
  await boss.start();
  await boss.stop({ graceful: false, wait: true });
  return run;
}
