import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { AppConfig } from '../config/app-config';
import { EmbeddedDatabase } from './embedded-database';

/** A migrated database archive shipped by `npm run build`, so a first start skips initdb. */
export const SHIPPED_TEMPLATE = join(__dirname, '..', '..', '..', 'embedded-template.tar.gz');

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
    template: options.template ?? shippedTemplate(),
    // The pg pool, the job queue's pool and a few for tools.
    maxConnections: config.DATABASE_POOL_SIZE + 10,
  });
  return { url: embedded.url, embedded: true, close: () => embedded.stop() };
}

/** Unzipped here (native zlib) rather than by PGlite: half the start time of a first run. */
function shippedTemplate(): Blob | undefined {
  if (!existsSync(SHIPPED_TEMPLATE)) return undefined;
  return new Blob([gunzipSync(readFileSync(SHIPPED_TEMPLATE))]);
}
