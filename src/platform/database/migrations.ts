import { DataSource } from 'typeorm';
import { dataSourceOptions } from './data-source-options';
import { whileHoldingStartLock } from './start-lock';

/** What a run of the migrations did: the names applied, of how many migrations known. */
export interface MigrationRun {
  applied: string[];
  known: number;
}

/**
 * Applies the pending migrations of an initialized data source, each in its own transaction.
 * The caller holds the start lock (see whileHoldingStartLock).
 */
export async function applyPendingMigrations(dataSource: DataSource): Promise<MigrationRun> {
  const applied = await dataSource.runMigrations({ transaction: 'each' });
  return {
    applied: applied.map((migration) => migration.name),
    known: dataSource.migrations.length,
  };
}

/**
 * What a start logs of it at info: a line per migration applied, or one line saying the schema
 * was already up to date.
 */
export function describeMigrationRun({ applied, known }: MigrationRun): string[] {
  if (applied.length === 0) return [`database schema up to date (${known} migrations)`];
  return applied.map((name) => `applied migration ${name}`);
}

/**
 * Applies pending migrations, each in its own transaction, while no starting process migrates
 * (see whileHoldingStartLock).
 */
export async function runMigrations(url: string): Promise<MigrationRun> {
  const dataSource = new DataSource(dataSourceOptions(url, 1));
  await dataSource.initialize();
  try {
    return await whileHoldingStartLock(url, () => applyPendingMigrations(dataSource));
  } finally {
    await dataSource.destroy();
  }
}
