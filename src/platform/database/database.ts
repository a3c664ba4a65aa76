import { existsSync, readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { AppConfig } from '../config/app-config';
import { EmbeddedDatabase, isEmptyFolder } from './embedded-database';

/**
 * A migrated database shipped by `npm run build`, so that a first start skips initdb and the
 * migrations: as a folder of database files (copied for a data folder) and as an archive
 * (loaded for DATA_DIR=memory).
 */
export const SHIPPED_TEMPLATE_FOLDER = join(__dirname, '..', '..', '..', 'embedded-template');
export const SHIPPED_TEMPLATE_ARCHIVE = `${SHIPPED_TEMPLATE_FOLDER}.tar.gz`;

/** Where the application's database is: its URL, and whether it is the embedded server. */
export interface DatabaseTarget {
  url: string;
  embedded: boolean;
}

export interface Database extends DatabaseTarget {
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** Archive to start an empty embedded database from (tests pass a migrated one). */
  template?: Blob;
}

/** Connects to DATABASE_URL, or starts the embedded database when it is unset. */
export async function openDatabase(
  config: AppConfig,
  options: OpenDatabaseOptions = {},
): Promise<Database> {
  if (config.DATABASE_URL) {
    return { url: config.DATABASE_URL, embedded: false, close: async () => undefined };
  }
  const embedded = await EmbeddedDatabase.start({
    dataDir: config.inMemory ? undefined : embeddedFolder(config),
    template: options.template ?? shippedTemplate(config.inMemory),
  });
  return { url: embedded.url, embedded: true, close: () => embedded.stop() };
}

function shippedTemplate(inMemory: boolean): Blob | { folder: string } | undefined {
  if (!inMemory)
    return existsSync(SHIPPED_TEMPLATE_FOLDER) ? { folder: SHIPPED_TEMPLATE_FOLDER } : undefined;
  if (!existsSync(SHIPPED_TEMPLATE_ARCHIVE)) return undefined;
  // Unzipped here with native zlib: PGlite's own gunzip is several times slower.
  return new Blob([gunzipSync(readFileSync(SHIPPED_TEMPLATE_ARCHIVE))]);
}

function embeddedFolder(config: AppConfig): string {
  return join(config.DATA_DIR, 'postgres');
}

/**
 * On a first start, copies the shipped database into the data folder on a worker thread, so
 * that the copy runs while the main thread loads the application's modules. The copy goes to
 * a temporary folder renamed at the end: an interrupted copy never looks like a database.
 */
export function prepareEmbeddedFolder(config: AppConfig): Promise<void> {
  if (config.DATABASE_URL || config.inMemory || !existsSync(SHIPPED_TEMPLATE_FOLDER)) {
    return Promise.resolve();
  }
  const folder = embeddedFolder(config);
  if (!isEmptyFolder(folder)) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const worker = new Worker(COPY_FOLDER, {
      eval: true,
      workerData: { from: SHIPPED_TEMPLATE_FOLDER, to: folder },
    });
    worker.once('error', reject);
    worker.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`copy exited ${code}`)),
    );
  });
}

const COPY_FOLDER = `
  const { cpSync, renameSync, rmSync, constants } = require('node:fs');
  const { from, to } = require('node:worker_threads').workerData;
  const partial = to + '.partial';
  rmSync(partial, { recursive: true, force: true });
  cpSync(from, partial, { recursive: true, mode: constants.COPYFILE_FICLONE });
  rmSync(to, { recursive: true, force: true });
  renameSync(partial, to);
`;
