import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Landed migrations never change: `migrations/SHA256SUMS` holds the sha256 of every migration
 * file (the format of `sha256sum`, so `cd migrations && sha256sum -c SHA256SUMS` checks it too).
 * `verify` fails when a listed file differs from its hash, is gone, or when a migration is not
 * listed; `record` adds the unlisted ones and never changes a listed hash.
 */

/**
 * The source `migrations/` (the .ts files, not their compiled copies in `dist/migrations`), both
 * from `src/platform/database` (tests) and `dist/src/platform/database`.
 */
export const MIGRATIONS_DIR = __filename.endsWith('.ts')
  ? join(__dirname, '..', '..', '..', 'migrations')
  : join(__dirname, '..', '..', '..', '..', 'migrations');
export const HASH_LIST = 'SHA256SUMS';
export const RECORD_COMMAND = 'npm run migration:hashes:record';

const LINE = /^([0-9a-f]{64}) [ *](.+)$/;

/** The migration files of `dir`, sorted by name (the order TypeORM runs them in). */
export function migrationFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
    .sort();
}

export function sha256(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

/** The list in `dir` (file name → hash); empty when there is none yet. Throws on a bad line. */
export function readHashList(dir: string): Map<string, string> {
  const path = join(dir, HASH_LIST);
  const hashes = new Map<string, string>();
  if (!existsSync(path)) return hashes;
  readFileSync(path, 'utf8')
    .split('\n')
    .forEach((line, index) => {
      if (line.trim() === '') return;
      const match = LINE.exec(line);
      if (!match) {
        throw new Error(
          `migrations/${HASH_LIST} line ${index + 1} is not "<sha256>  <file name>": ${line}`,
        );
      }
      if (hashes.has(match[2])) {
        throw new Error(`migrations/${HASH_LIST} lists ${match[2]} twice (line ${index + 1})`);
      }
      hashes.set(match[2], match[1]);
    });
  return hashes;
}

function writeHashList(dir: string, hashes: Map<string, string>): void {
  const lines = [...hashes.keys()].sort().map((file) => `${hashes.get(file)}  ${file}\n`);
  writeFileSync(join(dir, HASH_LIST), lines.join(''));
}

export interface HashReport {
  /** Listed files whose content no longer matches: landed migrations that were edited. */
  changed: { file: string; listed: string; actual: string }[];
  /** Listed files that are no longer in the folder. */
  missing: string[];
  /** Migration files not in the list yet. */
  unlisted: string[];
}

export function compareHashes(dir: string): HashReport {
  const listed = readHashList(dir);
  const files = migrationFiles(dir);
  const report: HashReport = { changed: [], missing: [], unlisted: [] };
  for (const file of files) {
    const hash = listed.get(file);
    if (hash === undefined) {
      report.unlisted.push(file);
      continue;
    }
    const actual = sha256(join(dir, file));
    if (actual !== hash) report.changed.push({ file, listed: hash, actual });
  }
  report.missing = [...listed.keys()].filter((file) => !files.includes(file)).sort();
  return report;
}

/** One message per problem that means a landed migration was touched. */
function landedProblems(report: HashReport): string[] {
  return [
    ...report.changed.map(
      ({ file, listed, actual }) =>
        `migrations/${file} has changed since it landed (sha256 ${listed} in ` +
        `migrations/${HASH_LIST}, ${actual} now). A landed migration never changes: restore ` +
        `it from git and make the change in a new migration.`,
    ),
    ...report.missing.map(
      (file) =>
        `migrations/${file} is listed in migrations/${HASH_LIST} but is gone. A landed ` +
        `migration stays: restore it from git.`,
    ),
  ];
}

/** Every problem with the migrations of `dir`; empty when all are listed and unchanged. */
export function verifyMigrationHashes(dir: string): string[] {
  const report = compareHashes(dir);
  return [
    ...landedProblems(report),
    ...report.unlisted.map(
      (file) =>
        `migrations/${file} is not in migrations/${HASH_LIST}. Once it is final, record it ` +
        `with \`${RECORD_COMMAND}\` and commit the list with it.`,
    ),
  ];
}

/**
 * Adds the unlisted migrations of `dir` to the list; returns their names. Refuses (throws,
 * writing nothing) when a listed migration was edited or removed: its hash is never rewritten.
 */
export function recordMigrationHashes(dir: string): string[] {
  const report = compareHashes(dir);
  const problems = landedProblems(report);
  if (problems.length > 0) {
    throw new Error(
      `Not recording: a listed hash never changes.\n${problems.map((p) => `  ${p}`).join('\n')}`,
    );
  }
  if (report.unlisted.length === 0) return [];
  const hashes = readHashList(dir);
  for (const file of report.unlisted) hashes.set(file, sha256(join(dir, file)));
  writeHashList(dir, hashes);
  return report.unlisted;
}

/** `node migration-hashes.js verify` (CI) or `node migration-hashes.js record`. */
function main(command: string | undefined): void {
  if (command === 'verify') {
    const problems = verifyMigrationHashes(MIGRATIONS_DIR);
    if (problems.length > 0) {
      process.stderr.write(`Migration hashes do not match:\n`);
      for (const problem of problems) process.stderr.write(`  ${problem}\n`);
      process.exitCode = 1;
    } else {
      const count = migrationFiles(MIGRATIONS_DIR).length;
      process.stdout.write(`All ${count} migrations match migrations/${HASH_LIST}.\n`);
    }
  } else if (command === 'record') {
    const added = recordMigrationHashes(MIGRATIONS_DIR);
    if (added.length === 0) process.stdout.write(`Every migration is already recorded.\n`);
    for (const file of added) process.stdout.write(`Recorded migrations/${file}\n`);
  } else {
    process.stderr.write('Usage: migration-hashes.js verify|record\n');
    process.exitCode = 2;
  }
}

if (require.main === module) {
  try {
    main(process.argv[2]);
  } catch (error: unknown) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
