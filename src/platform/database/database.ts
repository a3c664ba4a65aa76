import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { AppConfig } from '../config/app-config';
import { EmbeddedDatabase } from './embedded-database';

/**
 * A migrated database shipped by `npm run build`, so that a first start skips initdb and the
 * migrations: as a folder of database files (copied for a data folder) and as an archive
 * (loaded for DATA_DIR=memory).
 */
export const SHIPPED_TEMPLATE_FOLDER = join(__dirname, '..', '..', '..', 'embedded-template');
export const SHIPPED_TEMPLATE_ARCHIVE = `${SHIPPED_TEMPLATE_FOLDER}.tar.gz`;

export interface Database {
  url: string;
  embedded: boolean;
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
    dataDir: config.inMemory ? undefined : join(config.DATA_DIR, 'postgres'),
    template: options.template ?? shippedTemplate(config.inMemory),
    // The pg pool, the job queue's pool and a few for tools.
    maxConnections: config.DATABASE_POOL_SIZE + 10,
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
