import { mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Every temporary file or folder of a test run (the tests', the application's, the servers'
 * and processes' it starts) goes in one folder of its own: `TMPDIR` points there for the test
 * workers and everything they start, and the folder is removed at the end of the run, with a
 * warning naming anything a test left behind.
 */
export function enterRunTempFolder(): void {
  if (process.env.BINDERY_TEST_RUN_TMPDIR) return; // another project of the run made it
  const folder = realpathSync(mkdtempSync(join(tmpdir(), 'bindery-test-run-')));
  process.env.BINDERY_TEST_RUN_TMPDIR = folder;
  process.env.TMPDIR = folder;
}

export function leaveRunTempFolder(): void {
  const folder = process.env.BINDERY_TEST_RUN_TMPDIR;
  if (!folder) return;
  let left: string[] = [];
  try {
    left = readdirSync(folder).filter((name) => !name.startsWith('bindery-test-template-'));
  } catch {
    return; // removed already, by the teardown of another project of the run
  }
  if (left.length > 0) {
    process.stderr.write(
      `\nTemporary files left behind by the tests (removed now): ${left.sort().join(', ')}\n`,
    );
  }
  rmSync(folder, { recursive: true, force: true });
}
