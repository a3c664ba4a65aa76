import { ConfigurationError, loadConfig } from '../config/app-config';
import { openDatabase } from './database';
import { describeMigrationRun, runMigrations } from './migrations';

/** `npm run migration:run`: applies pending migrations to DATABASE_URL (or the embedded database). */
async function main(): Promise<void> {
  const config = loadConfig();
  const database = await openDatabase(config);
  try {
    const run = await runMigrations(database.url);
    process.stdout.write(`${describeMigrationRun(run).join('\n')}\n`);
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof ConfigurationError ? error.message : String(error)}\n`);
  process.exit(1);
});
