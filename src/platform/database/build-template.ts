import { writeFileSync } from 'node:fs';
import { SHIPPED_TEMPLATE } from './database';
import { EmbeddedDatabase } from './embedded-database';
import { prepareDatabase } from './template';

/**
 * `npm run build` ships a migrated embedded database next to the code, so that the first
 * `npm start` copies it instead of running initdb (seconds) and every migration.
 */
async function main(): Promise<void> {
  const database = await EmbeddedDatabase.start({ maxConnections: 4 });
  try {
    await prepareDatabase(database.url);
    const archive = await database.dump();
    writeFileSync(SHIPPED_TEMPLATE, Buffer.from(await archive.arrayBuffer()));
  } finally {
    await database.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`Could not build the embedded database template: ${String(error)}\n`);
  process.exit(1);
});
