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
function manifest(): { text: string; migrations: number } {
  const files = readdirSync(MIGRATIONS_DIR)
    .filter((f) => f.endsWith('.js'))
    .sort();
  const migrations = files.map((file) => {
    const digest = createHash('sha256').update(readFileSync(join(MIGRATIONS_DIR, file)));
    return `${file} ${digest.digest('hex').slice(0, 16)}`;
  });
  const pgBoss = (require('pg-boss/package.json') as { version: string }).version;
  return { text: JSON.stringify({ migrations, pgBoss }), migrations: files.length };
}

/**
 * `npm run build` ships a migrated embedded database next to the code, so that the first
 * `npm start` copies it instead of running initdb (seconds) and every migration. Rebuilt only
 * when what it was built from changed: `onBuilding` is called then, before the work. Answers
 * whether it built one.
 */
export async function buildTemplate(onBuilding?: () => void): Promise<boolean> {
  const wanted = manifest();
  const built = [SHIPPED_TEMPLATE_FOLDER, SHIPPED_TEMPLATE_ARCHIVE, MANIFEST].every(existsSync);
  if (built && readFileSync(MANIFEST, 'utf8') === wanted.text) return false;
  onBuilding?.();
  rmSync(SHIPPED_TEMPLATE_FOLDER, { recursive: true, force: true });
  const database = await EmbeddedDatabase.start({ dataDir: SHIPPED_TEMPLATE_FOLDER });
  try {
    const run = await prepareDatabase(database.url);
    // dist/migrations changing meanwhile (another build) would ship an incomplete schema.
    if (run.applied.length !== wanted.migrations) {
      throw new Error(
        `applied ${run.applied.length} migrations of the ${wanted.migrations} in ${MIGRATIONS_DIR}`,
      );
    }
    const archive = await database.dump('gzip');
    writeFileSync(SHIPPED_TEMPLATE_ARCHIVE, Buffer.from(await archive.arrayBuffer()));
  } finally {
    await database.stop();
  }
  writeFileSync(MANIFEST, wanted.text);
  return true;
}

// Run on its own (after swc), it says what it did on one line; scripts/build.js requires it.
if (require.main === module) {
  const started = Date.now();
  buildTemplate(() =>
    process.stdout.write('Building the embedded database template (runs the migrations)…'),
  ).then(
    (built) =>
      process.stdout.write(
        built
          ? ` done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`
          : 'Build done: dist/ compiled, the embedded database template up to date.\n',
      ),
    (error: unknown) => {
      process.stderr.write(`\nCould not build the embedded database template: ${String(error)}\n`);
      process.exit(1);
    },
  );
}
