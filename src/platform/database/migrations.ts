import { DataSource } from 'typeorm';
import { dataSourceOptions } from './data-source-options';
import { whileHoldingStartLock } from './start-lock';

/** What a run of the migrations did: the names applied, of how many migrations known. */
export interface MigrationRun {
  applied: string[];
  known: number;
}

/**
 * Applies the pending migrations, each in its own transaction, on a connection of their own:
 * without the statement and lock timeouts of the application's pool, since a migration may
 * rewrite a large table and waits for the locks it needs. The caller holds the start lock
 * (see whileHoldingStartLock).
 */
export async function applyPendingMigrations(url: string): Promise<MigrationRun> {
  const dataSource = new DataSource(dataSourceOptions(url, { size: 1 }));
  await dataSource.initialize();
  try {
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return {
      applied: applied.map((migration) => migration.name),
      known: dataSource.migrations.length,
    };
  } finally {
    await dataSource.destroy().catch(() => undefined);
  }
}

/**
 * What a start logs of it at info: a line per migration applied, or one line saying the schema
 * was already up to date.
 */
export function describeMigrationRun({ applied, known }: MigrationRun): string[] {
  if (applied.length === 0) return [`database schema up to date (${known} migrations)`];
  return applied.map((name) => `applied migration ${name}`);
}

/** Applies pending migrations while no starting process migrates (see whileHoldingStartLock). */
export function runMigrations(url: string): Promise<MigrationRun> {
  return whileHoldingStartLock(url, () => applyPendingMigrations(url));
}
