import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { EmbeddedDatabase } from '../src/platform/database/embedded-database';
import { prepareDatabase } from '../src/platform/database/template';
import { databaseUrlFor } from './helpers/database';
import { enterRunTempFolder } from './run-temp-folder';

/**
 * Migrates one template database for the whole run; each test file then starts from a copy
 * of it: a `CREATE DATABASE ... TEMPLATE` on PostgreSQL (DATABASE_URL set), or a PGlite data
 * directory loaded from a dump on the embedded database.
 */
export default async function globalSetup(): Promise<void> {
  enterRunTempFolder();
  const runId = `${process.pid}_${Date.now().toString(36)}`;
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl) {
    const template = `bindery_template_${runId}`;
    const admin = new Client({ connectionString: serverUrl });
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE "${template}"`);
    } finally {
      await admin.end();
    }
    await prepareDatabase(databaseUrlFor(serverUrl, template));
    process.env.BINDERY_TEST_TEMPLATE_DATABASE = template;
    return;
  }
  const database = await EmbeddedDatabase.start();
  try {
    await prepareDatabase(database.url);
    const file = join(tmpdir(), `bindery-test-template-${runId}.tar.gz`);
    writeFileSync(file, Buffer.from(await (await database.dump()).arrayBuffer()));
    process.env.BINDERY_TEST_TEMPLATE_FILE = file;
  } finally {
    await database.stop();
  }
}
