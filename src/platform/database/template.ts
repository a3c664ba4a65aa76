import PgBoss from 'pg-boss';
import { runMigrations } from './migrations';

/** Brings an empty database to the state a start expects: migrations and the job-queue schema. */
export async function prepareDatabase(url: string): Promise<void> {
  await runMigrations(url);
  const boss = new PgBoss({
    connectionString: url,
    schema: 'pgboss',
    max: 1,
    supervise: false,
    schedule: false,
  });
  await boss.start();
  await boss.stop({ graceful: false, wait: true });
}
