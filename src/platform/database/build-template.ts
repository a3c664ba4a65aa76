import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SHIPPED_TEMPLATE_ARCHIVE, SHIPPED_TEMPLATE_FOLDER } from './database';
import { EmbeddedDatabase } from './embedded-database';
import { prepareDatabase } from './template';

const MIGRATIONS_DIR = join(__dirname, '..', '..', '..', 'migrations');
const MANIFEST = `${SHIPPED_TEMPLATE_FOLDER}.json`;

/**
 * What the template was built from: rebuilt only when the migrations (names and contents) or
 * pg-boss change.
 */
function manifest(): string {
  const migrations = readdirSync(MIGRATIONS_DIR)
    .filter((f) => f.endsWith('.js'))
    .sort()
    .map((file) => {
      const digest = createHash('sha256').update(readFileSync(join(MIGRATIONS_DIR, file)));
      return `${file} ${digest.digest('hex').slice(0, 16)}`;
    });
  const pgBoss = (require('pg-boss/package.json') as { version: string }).version;
  return JSON.stringify({ migrations, pgBoss });
}

/**
 * `npm run build` ships a migrated embedded database next to the code, so that the first
 * `npm start` copies it instead of running initdb (seconds) and every migration.
 */
async function main(): Promise<void> {
  const wanted = manifest();
  const built = [SHIPPED_TEMPLATE_FOLDER, SHIPPED_TEMPLATE_ARCHIVE, MANIFEST].every(existsSync);
  if (built && readFileSync(MANIFEST, 'utf8') === wanted) return;
  rmSync(SHIPPED_TEMPLATE_FOLDER, { recursive: true, force: true });
  const database = await EmbeddedDatabase.start({ dataDir: SHIPPED_TEMPLATE_FOLDER });
  try {
    await prepareDatabase(database.url);
    const archive = await database.dump('gzip');
    writeFileSync(SHIPPED_TEMPLATE_ARCHIVE, Buffer.from(await archive.arrayBuffer()));
  } finally {
    await database.stop();
  }
  writeFileSync(MANIFEST, wanted);
}

main().catch((error: unknown) => {
  process.stderr.write(`Could not build the embedded database template: ${String(error)}\n`);
  process.exit(1);
});
