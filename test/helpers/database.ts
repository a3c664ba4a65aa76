import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { EmbeddedDatabase } from '../../src/platform/database/embedded-database';

export function databaseUrlFor(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

export interface TestDatabase {
  /** DATABASE_URL for the app, or undefined for the embedded database. */
  url?: string;
  /** Migrated archive to start the embedded database from. */
  template?: Blob;
  drop(): Promise<void>;
}

/** A fresh, migrated database for one test file (see global-setup.ts). */
export async function freshDatabase(): Promise<TestDatabase> {
  const serverUrl = process.env.DATABASE_URL;
  const template = process.env.BINDERY_TEST_TEMPLATE_DATABASE;
  if (serverUrl && template) {
    const name = `bindery_test_${randomBytes(6).toString('hex')}`;
    await adminQuery(serverUrl, `CREATE DATABASE "${name}" TEMPLATE "${template}"`);
    return {
      url: databaseUrlFor(serverUrl, name),
      drop: () => adminQuery(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
    };
  }
  const file = process.env.BINDERY_TEST_TEMPLATE_FILE;
  if (!file) throw new Error('No test template: run e2e tests through jest (test/global-setup.ts)');
  return { template: new Blob([readFileSync(file)]), drop: async () => undefined };
}

async function adminQuery(serverUrl: string, sql: string): Promise<void> {
  const client = new Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** One database for several apps: a fresh one on DATABASE_URL's server, else a served PGlite. */
export async function sharedDatabase(): Promise<{
  url: string;
  settings: Record<string, string>;
  close(): Promise<void>;
}> {
  if (process.env.DATABASE_URL) {
    const database = await freshDatabase();
    return { url: database.url!, settings: {}, close: () => database.drop() };
  }
  const template = new Blob([readFileSync(process.env.BINDERY_TEST_TEMPLATE_FILE!)]);
  const embedded = await EmbeddedDatabase.start({ template });
  // One PGlite session serves every connection: named prepared statements would collide.
  return {
    url: embedded.url,
    settings: { DATABASE_PREPARED_STATEMENTS: 'false' },
    close: () => embedded.stop(),
  };
}
