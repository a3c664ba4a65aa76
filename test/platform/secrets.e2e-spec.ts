import { Controller, Get, Module } from '@nestjs/common';
import { Access } from '../../src/platform/auth/access.decorator';
import { createTestApp, TEST_ADMIN_TOKEN, TestApp } from '../helpers/app';
import type { TestOrganization } from '../helpers/factories';

/**
 * Secrets stay out of the logs and out of the database: signatures of download and PDF links,
 * share keys, tokens, the instance secret and Git credentials. The application logs at `info`
 * into a buffer; at the end, every log line and every row of every table is searched for each
 * secret the test saw.
 */

@Controller('test-secrets')
class CrashController {
  @Get('crash')
  @Access.public()
  crash(): never {
    throw new Error('an unexpected failure');
  }
}

@Module({ controllers: [CrashController] })
class CrashModule {}

const SECRET_KEY = 'secrets-e2e-instance-secret-0123456789abcdef';
const GIT_PASSWORD = 'g1t-Passw0rd-never-stored';

/** Every row of every table of the public and pg-boss schemas, as JSON text. */
async function everyRow(t: TestApp): Promise<string> {
  const tables: { schema: string; name: string }[] = await t.dataSource.query(
    `SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
      WHERE table_schema IN ('public', 'pgboss') AND table_type = 'BASE TABLE'`,
  );
  const dumps: string[] = [];
  for (const { schema, name } of tables) {
    const rows: { row: string }[] = await t.dataSource.query(
      `SELECT row_to_json(t)::text AS row FROM "${schema}"."${name}" t`,
    );
    dumps.push(...rows.map((r) => `${schema}.${name} ${r.row}`));
  }
  return dumps.join('\n');
}

describe('secrets in logs and rows', () => {
  let t: TestApp;
  let org: TestOrganization;
  const logs: Record<string, unknown>[] = [];

  beforeAll(async () => {
    t = await createTestApp({ LOG_LEVEL: 'info', SECRET_KEY }, { logs, modules: [CrashModule] });
    org = await t.factories.organization();
  });
  afterAll(() => t.close());

  it('keeps signatures, share keys, tokens and credentials out of every log line and row', async () => {
    const client = org.owner.client;
    const secrets: string[] = [SECRET_KEY, TEST_ADMIN_TOKEN, org.owner.token, GIT_PASSWORD];

    // A file, its signed download URL, fetched.
    const { id: space } = await t.factories.space(org, { title: 'Files' });
    await t.factories.changeRequest(org, space, {
      subject: 'Add',
      changes: [
        {
          operation: 'insert_files',
          files: [
            {
              name: 'notes.txt',
              contentType: 'text/plain',
              base64: Buffer.from('Notes').toString('base64'),
            },
          ],
        },
      ],
    });
    const pdf = await client.get(`/v1/spaces/${space}/change-requests/1/pdf`).expect(200);
    await client.post(`/v1/spaces/${space}/change-requests/1/merge`, {}).expect(200);
    const files = await client.get(`/v1/spaces/${space}/content/files`).expect(200);
    const download = new URL(files.body.items[0].downloadURL as string);
    const pdfUrl = new URL(pdf.body.url as string);
    for (const url of [download, pdfUrl]) {
      secrets.push(url.searchParams.get('signature') as string);
      await t.anonymous.get(`${url.pathname}${url.search}`).expect(200);
    }

    // A share link, opened with its key.
    const { id: site } = await t.factories.site(org, { title: 'Docs' });
    const sitePath = `/v1/orgs/${org.id}/sites/${site}`;
    await client.patch(sitePath, { visibility: 'share-link' }).expect(200);
    await client.post(`${sitePath}/publish`).expect(200);
    const link = await t.factories.shareLink(org, site, { name: 'Partners' });
    const shareKey = new URL(link.urls.published as string).pathname.split('/').pop() as string;
    secrets.push(shareKey);
    await (
      await t.factories.user()
    ).client
      .get(`${sitePath}/published?shareKey=${shareKey}`)
      .expect(200);

    // Git credentials, sent to a repository that does not answer (the job fails, later).
    await client
      .post(`/v1/spaces/${space}/git/export`, {
        url: `http://bot:${GIT_PASSWORD}@127.0.0.1:9/repo.git`,
        ref: 'refs/heads/main',
        commitMessage: 'Export',
      })
      .expect(204);

    // An unexpected failure logs its URL: redacted too.
    await t.anonymous.get(`/v1/test-secrets/crash?signature=${shareKey}`).expect(500);

    const logText = JSON.stringify(logs);
    const requestLines = logs.filter((line) => (line.req as { url?: string } | undefined)?.url);
    expect(requestLines.length).toBeGreaterThan(10);
    expect(logText).toContain('signature=[REDACTED]');
    expect(logText).toContain('shareKey=[REDACTED]');
    expect(logs.some((line) => line.msg === 'Unexpected failure')).toBe(true);

    const rows = await everyRow(t);
    expect(rows.length).toBeGreaterThan(1000);
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThanOrEqual(16);
      expect({ secret, inLogs: logText.includes(secret) }).toEqual({ secret, inLogs: false });
      expect({ secret, inRows: rows.includes(secret) }).toEqual({ secret, inRows: false });
    }
  });
});
