import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** What is running: Bindery's version, and when this code was built. */
export interface BuildInfo {
  /** The `version` of Bindery's package.json. */
  version: string;
  /** When the running code was built (its compiled files were written), ISO 8601. */
  build: string;
}

let info: BuildInfo | undefined;

/** Read once, from the package.json above this file (in src/ or in dist/src/) and this file. */
export function buildInfo(): BuildInfo {
  info ??= { version: packageVersion(), build: statSync(__filename).mtime.toISOString() };
  return info;
}

function packageVersion(): string {
  let folder = __dirname;
  while (!existsSync(join(folder, 'package.json')) && dirname(folder) !== folder) {
    folder = dirname(folder);
  }
  try {
    const { version } = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as {
      version?: string;
    };
    return version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}
