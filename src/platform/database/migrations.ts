import { DataSource } from 'typeorm';
import { dataSourceOptions } from './data-source-options';
import { whileHoldingStartLock } from './start-lock';

/**
 * Applies pending migrations, each in its own transaction, while no starting process migrates
 * (see whileHoldingStartLock); returns the names applied.
 */
export async function runMigrations(url: string): Promise<string[]> {
  const dataSource = new DataSource(dataSourceOptions(url, 1));
  await dataSource.initialize();
  try {
    const applied = await whileHoldingStartLock(url, () =>
      dataSource.runMigrations({ transaction: 'each' }),
    );
    return applied.map((m) => m.name);
  } finally {
    await dataSource.destroy();
  }
}
