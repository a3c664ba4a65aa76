import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { createApp } from './setup';
import { loadConfig } from './platform/config/app-config';

/**
 * CI's drift check: migrate an empty database, then ask TypeORM what it would change to
 * match the entities. Any statement means entities and migrations disagree.
 */
async function main(): Promise<void> {
  const config = loadConfig(undefined, {
    DATA_DIR: 'memory',
    SEED_DEMO: false,
    LOG_LEVEL: 'warn',
    // The check signs and encrypts nothing; on PostgreSQL the start needs a secret all the same.
    SECRET_KEY: randomBytes(32).toString('hex'),
  });
  const bindery = await createApp(config);
  try {
    const sql = await bindery.app.get(DataSource).driver.createSchemaBuilder().log();
    if (sql.upQueries.length > 0) {
      process.stderr.write('Entities and migrations have drifted; a migration would need:\n');
      for (const query of sql.upQueries) process.stderr.write(`  ${query.query};\n`);
      process.exitCode = 1;
    } else {
      process.stdout.write('Entities match the migrations.\n');
    }
  } finally {
    await bindery.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`Schema check failed: ${String(error)}\n`);
  process.exit(1);
});
