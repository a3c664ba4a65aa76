import { rmSync } from 'node:fs';
import { Client } from 'pg';
import { leaveRunTempFolder } from './run-temp-folder';

export default async function globalTeardown(): Promise<void> {
  const file = process.env.BINDERY_TEST_TEMPLATE_FILE;
  if (file) rmSync(file, { force: true });
  leaveRunTempFolder();
  const template = process.env.BINDERY_TEST_TEMPLATE_DATABASE;
  if (template && process.env.DATABASE_URL) {
    const admin = new Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    try {
      await admin.query(`DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`);
    } finally {
      await admin.end();
    }
  }
}
