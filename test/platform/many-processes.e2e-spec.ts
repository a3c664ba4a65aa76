import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as PgClient } from 'pg';
import { blobKeyOf } from '../../src/content-engine/files/file-content';
import { GIT_OPERATIONS_QUEUE } from '../../src/git/jobs/git-operations';
import { OPENAPI_PROCESS_QUEUE } from '../../src/openapi/processing/openapi-processing';
import { S3BlobStore } from '../../src/platform/blob-store/s3-blob-store';
import { sha256Hex } from '../../src/platform/ids/ids';
import { TRANSLATION_RUN_QUEUE } from '../../src/translations/job/translation-runs';
import { DELIVER_QUEUE } from '../../src/webhooks/deliveries/delivery-jobs';
import { DISPATCH_QUEUE } from '../../src/webhooks/deliveries/webhook-dispatcher';
import { TEST_ADMIN_TOKEN, TEST_PUBLIC_URL, TEST_SECRET_KEY } from '../helpers/app';
import type { ChangeRequestBody, OpenAPISpecBody, TranslationBody } from '../helpers/bodies';
import { databaseUrlFor, sharedDatabase } from '../helpers/database';
import {
  type FakeTranslationServer,
  startFakeTranslationServer,
} from '../helpers/fake-translation-servers';
import { type GitServer, startGitServer } from '../helpers/git-server';
import {
  assertBuilt,
  type BinderyProcess,
  expectStatus,
  freePort,
  ProcessClient,
  type Reply,
  spawnBindery,
} from '../helpers/processes';
import { startS3Server, type TestS3Server } from '../helpers/s3-server';
import { WebhookReceiver } from '../helpers/webhook-receiver';

/** Requests per minute and token, counted once for both API processes. */
const LIMIT = 300;
const TOKEN_CACHE_MS = 1000;
const PUBLISHED_LOOKUP_CACHE_SECONDS = 2;
/** What a request may take beyond TOKEN_CACHE_MS on a busy machine. */
const REQUEST_SLACK_MS = 500;
/** The queues the workload sends jobs to. */
const WORKLOAD_QUEUES = [
  OPENAPI_PROCESS_QUEUE,
  TRANSLATION_RUN_QUEUE,
  GIT_OPERATIONS_QUEUE,
  DISPATCH_QUEUE,
  DELIVER_QUEUE,
];

interface Database {
  url: string;
  settings: Record<string, string>;
  close(): Promise<void>;
}

/**
 * On PostgreSQL (DATABASE_URL), an empty database that the processes migrate as they start; on
 * the embedded database, one PGlite served over its socket to every process (from the migrated
 * template: a deployment's embedded database serves one process, which migrates it alone).
 */
async function startDatabase(): Promise<Database> {
  const server = process.env.DATABASE_URL;
  if (!server) return sharedDatabase();
  const name = `bindery_test_${randomBytes(6).toString('hex')}`;
  await adminQuery(server, `CREATE DATABASE "${name}"`);
  return {
    url: databaseUrlFor(server, name),
    settings: {},
    close: () => adminQuery(server, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}

async function adminQuery(serverUrl: string, sql: string): Promise<void> {
  const client = new PgClient({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** BINDERY_TEST_SKIP_GIT=1 leaves the Git export out (see test/git.e2e-spec.ts). */
const skipGit = process.env.BINDERY_TEST_SKIP_GIT === '1';
if (skipGit) console.warn('many-processes: no Git export (BINDERY_TEST_SKIP_GIT=1).');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `read` until it answers something other than undefined; fails after `withinMs`. */
async function eventually<T>(
  what: string,
  read: () => Promise<T | undefined>,
  withinMs = 30_000,
  everyMs = 200,
): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still not so after ${withinMs} ms`);
    await sleep(everyMs);
  }
}

/** Why a request got no answer: the code of fetch's cause (ECONNREFUSED, UND_ERR_SOCKET, …). */
function connectionError(error: unknown): string | undefined {
  // Not `instanceof TypeError`: fetch's errors come from Node's realm, not the test's.
  const { message, cause } = error as { message?: string; cause?: { code?: string } };
  if (message !== 'fetch failed') return undefined;
  return cause?.code ?? message;
}

interface TestUser {
  id: string;
  email: string;
  token: string;
}

interface SpaceBody {
  id: string;
  title: string;
}

/** A content write's answer with `compat=false`. */
interface WriteBody {
  changeRequest: ChangeRequestBody;
  insertedFiles?: { id: string; name: string; size: number; downloadURL: string }[];
}

interface ContentBody {
  id: string;
  pages: { id: string; title: string; pages: ContentBody['pages'] }[];
}

const PETSTORE = JSON.stringify({
  openapi: '3.0.3',
  info: { title: 'Petstore', version: '1.0.0' },
  paths: {
    '/pets': {
      get: { operationId: 'listPets', responses: { '200': { description: 'The pets' } } },
    },
  },
});

/**
 * Bindery as a deployment runs it: two API processes (`node dist/src/main.js`, with
 * JOBS_IN_PROCESS=false) and a worker (`node dist/src/worker.js`), started together on one
 * database and one S3 store (s3rver), with rate limits counted in the database. A mixed
 * workload goes to both API processes at once; then: every job ran once, in the worker; a file
 * uploaded through one process downloads through the other; the rate limit holds for both
 * together; no process answers from a stale cache; and an API process stopped mid-load loses no
 * write it acknowledged.
 */
describe('several processes on one database and one S3 store', () => {
  let database: Database;
  let sql: PgClient;
  let s3: TestS3Server;
  let translator: FakeTranslationServer;
  let git: GitServer;
  let receiver: WebhookReceiver;
  const dataDirs: string[] = [];
  const processes: BinderyProcess[] = [];
  let a: BinderyProcess;
  let b: BinderyProcess;
  let worker: BinderyProcess;
  /** The instance administrator on each API process. */
  let adminA: ProcessClient;
  let adminB: ProcessClient;
  let owner: TestUser;
  let writers: TestUser[];
  let organizationId: string;
  let webhookId: string;

  const on = (process_: BinderyProcess, user?: TestUser) =>
    new ProcessClient(process_.origin!, user?.token);

  async function query<T>(text: string, params: unknown[] = []): Promise<T[]> {
    return (await sql.query(text, params)).rows as T[];
  }

  beforeAll(async () => {
    assertBuilt();
    database = await startDatabase();
    s3 = await startS3Server();
    translator = await startFakeTranslationServer();
    if (!skipGit) git = await startGitServer();
    receiver = await WebhookReceiver.start();
    const settings = (dataDir: string): Record<string, string> => ({
      DATABASE_URL: database.url,
      ...database.settings,
      DATABASE_POOL_SIZE: '4',
      SECRET_KEY: TEST_SECRET_KEY,
      ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      PUBLIC_URL: TEST_PUBLIC_URL,
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      // A folder of its own: what the processes share goes through the database and the bucket.
      DATA_DIR: dataDir,
      ...s3.settings,
      RATE_LIMIT_STORE: 'database',
      RATE_LIMIT_PER_MINUTE: String(LIMIT),
      // Every hit counted in the store as it comes: exact across processes.
      RATE_LIMIT_SYNC_MS: '0',
      TOKEN_CACHE_MS: String(TOKEN_CACHE_MS),
      PUBLISHED_LOOKUP_CACHE_SECONDS: String(PUBLISHED_LOOKUP_CACHE_SECONDS),
      OUTBOUND_ALLOW_PRIVATE: 'true',
      TRANSLATION_PROVIDER: 'libretranslate',
      TRANSLATION_API_URL: translator.origin,
      TRANSLATION_API_KEY: 'libre-key',
      SHUTDOWN_TIMEOUT_MS: '20000',
    });
    const dataDir = () => {
      const dir = mkdtempSync(join(tmpdir(), 'bindery-process-'));
      dataDirs.push(dir);
      return dir;
    };
    const [portA, portB] = [await freePort(), await freePort()];
    // All at once, as replicas of a deployment start.
    a = spawnBindery(
      'api',
      'API process A',
      { ...settings(dataDir()), JOBS_IN_PROCESS: 'false' },
      { port: portA },
    );
    b = spawnBindery(
      'api',
      'API process B',
      { ...settings(dataDir()), JOBS_IN_PROCESS: 'false' },
      { port: portB },
    );
    worker = spawnBindery('worker', 'worker', settings(dataDir()));
    processes.push(a, b, worker);
    await Promise.all(processes.map((process_) => process_.ready));
    sql = new PgClient({ connectionString: database.url });
    await sql.connect();
    adminA = on(a).as(TEST_ADMIN_TOKEN);
    adminB = on(b).as(TEST_ADMIN_TOKEN);
  }, 120_000);

  afterAll(async () => {
    for (const process_ of processes) process_.kill();
    await Promise.all(processes.map((process_) => process_.exited));
    await sql?.end().catch(() => undefined);
    await receiver?.close();
    await git?.close();
    await translator?.close();
    await s3?.close();
    await database?.close();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  async function createUser(admin: ProcessClient, label: string): Promise<TestUser> {
    const email = `${label}-${randomBytes(4).toString('hex')}@example.com`;
    const { body } = await expectStatus(
      admin.post<{ user: { id: string }; token: string }>('/v1/admin/users', {
        email,
        displayName: label,
      }),
      201,
      'createUser',
    );
    return { id: body.user.id, email, token: body.token };
  }

  /** A space of the organization with one change request writing `pages`, merged. */
  async function spaceWithPages(
    [first, second]: [ProcessClient, ProcessClient],
    title: string,
    pages: { title: string; markdown: string }[],
  ): Promise<string> {
    const space = await expectStatus(
      first.post<SpaceBody>(`/v1/orgs/${organizationId}/spaces`, { title, empty: true }),
      201,
      'createSpace',
    );
    const spaceId = space.body.id;
    const created = await expectStatus(
      second.post<ChangeRequestBody>(`/v1/spaces/${spaceId}/change-requests`, {
        subject: `Pages of ${title}`,
      }),
      201,
      'createChangeRequest',
    );
    const crPath = `/v1/spaces/${spaceId}/change-requests/${created.body.id}`;
    await expectStatus(
      first.post(`${crPath}/content`, {
        changes: pages.map((page) => ({
          operation: 'insert_page',
          title: page.title,
          document: { markdown: page.markdown },
        })),
      }),
      200,
      'updateChangeRequestContent',
    );
    const merged = await expectStatus(second.post(`${crPath}/merge`, {}), 200, 'merge');
    expect(merged.body.result).toBe('merge');
    return spaceId;
  }

  async function pageTitles(client: ProcessClient, spaceId: string): Promise<string[]> {
    const { body } = await expectStatus(
      client.get<ContentBody>(`/v1/spaces/${spaceId}/content`),
      200,
      'getCurrentRevision',
    );
    const titles = (pages: ContentBody['pages']): string[] =>
      pages.flatMap((page) => [page.title, ...titles(page.pages ?? [])]);
    return titles(body.pages);
  }

  it('starts together: migrations run once, every process agrees and is ready', async () => {
    const files = readdirSync(join(__dirname, '..', '..', 'dist', 'migrations')).filter((file) =>
      file.endsWith('.js'),
    );
    const rows = await query<{ name: string; count: number }>(
      'SELECT name, count(*)::int AS count FROM migrations GROUP BY name',
    );
    expect(rows).toHaveLength(files.length);
    expect(rows.filter((row) => row.count !== 1)).toEqual([]);
    for (const process_ of [a, b]) {
      expect((await on(process_).get('/health/ready')).status).toBe(200);
    }
    expect(worker.running()).toBe(true);
  });

  it('runs a mixed workload sent to both API processes at once; each job runs once, in the worker', async () => {
    // Users and an organization, through either process.
    [owner, ...writers] = await Promise.all(
      ['owner', 'writer-1', 'writer-2', 'writer-3', 'writer-4'].map((label, i) =>
        createUser(i % 2 ? adminB : adminA, label),
      ),
    );
    const org = await expectStatus(
      on(a, owner).post<{ id: string }>('/v1/orgs', { title: 'Many processes' }),
      201,
      'createOrganization',
    );
    organizationId = org.body.id;
    // Every event of the organization from here on goes to the receiver.
    const hook = await expectStatus(
      on(a, owner).post<{ id: string }>(`/v1/orgs/${organizationId}/webhooks`, {
        url: `${receiver.url}/hook`,
        events: ['*'],
      }),
      201,
      'createWebhook',
    );
    webhookId = hook.body.id;
    await expectStatus(
      on(b, owner).post(`/v1/orgs/${organizationId}/invites`, {
        emails: writers.map((writer) => writer.email),
        role: 'admin',
      }),
      200,
      'inviteUsersToOrganization',
    );

    /** Each writer alternates the processes from one request to the next. */
    const contentStreams = writers.map(async (writer, w) => {
      const [first, second] = w % 2 ? [b, a] : [a, b];
      const made: { spaceId: string; title: string }[] = [];
      for (let i = 0; i < 3; i++) {
        const title = `Page ${w}-${i}`;
        const spaceId = await spaceWithPages(
          [on(first, writer), on(second, writer)],
          `Space ${w}-${i}`,
          [{ title, markdown: `Written by writer ${w}, round ${i}.\n` }],
        );
        made.push({ spaceId, title });
      }
      return made;
    });

    // A file uploaded through A, read back through B byte for byte.
    const upload = (async () => {
      const bytes = randomBytes(256 * 1024);
      const space = await expectStatus(
        on(a, owner).post<SpaceBody>(`/v1/orgs/${organizationId}/spaces`, { title: 'Files' }),
        201,
        'createSpace',
      );
      const cr = await expectStatus(
        on(a, owner).post<ChangeRequestBody>(`/v1/spaces/${space.body.id}/change-requests`, {
          subject: 'Upload',
        }),
        201,
        'createChangeRequest',
      );
      const crPath = `/v1/spaces/${space.body.id}/change-requests/${cr.body.id}`;
      const written = await expectStatus(
        on(a, owner).post<WriteBody>(`${crPath}/content?compat=false`, {
          changes: [
            {
              operation: 'insert_files',
              files: [
                {
                  name: 'data.bin',
                  contentType: 'application/octet-stream',
                  base64: bytes.toString('base64'),
                },
              ],
            },
          ],
        }),
        200,
        'updateChangeRequestContent',
      );
      const [file] = written.body.insertedFiles!;
      expect(file.size).toBe(bytes.length);
      // In the bucket (every process has a folder of its own, and none holds blobs).
      const bucket = new S3BlobStore(s3.storeOptions());
      try {
        expect(await bucket.size(blobKeyOf(sha256Hex(bytes)))).toBe(bytes.length);
      } finally {
        bucket.close();
      }
      for (const dir of dataDirs) expect(existsSync(join(dir, 'blobs'))).toBe(false);
      // A's download URL, served by B.
      const fromB = await on(b).get(file.downloadURL.slice(TEST_PUBLIC_URL.length));
      expect(fromB.status).toBe(200);
      expect(fromB.bytes.equals(bytes)).toBe(true);
      // Merged through B; the primary's file, listed and served by B.
      await expectStatus(on(b, owner).post(`${crPath}/merge`, {}), 200, 'merge');
      const files = await expectStatus(
        on(b, owner).get<{ items: { id: string; downloadURL: string }[] }>(
          `/v1/spaces/${space.body.id}/content/files`,
        ),
        200,
        'listFiles',
      );
      const listed = files.body.items.find((item) => item.id === file.id)!;
      const again = await on(b).get(listed.downloadURL.slice(TEST_PUBLIC_URL.length));
      expect(again.bytes.equals(bytes)).toBe(true);
    })();

    // OpenAPI specifications created through each process, processed by the worker.
    const specs = [a, b].map(async (process_, i) => {
      const slug = `petstore-${i}`;
      await expectStatus(
        on(process_, owner).post(`/v1/orgs/${organizationId}/openapi`, {
          slug,
          source: { text: PETSTORE },
        }),
        201,
        'createOpenAPISpec',
      );
      return slug;
    });

    // A translation created through A, run through B.
    const translation = (async () => {
      const marker = randomBytes(4).toString('hex');
      const spaceId = await spaceWithPages([on(b, owner), on(a, owner)], 'Handbook', [
        { title: `Welcome ${marker}`, markdown: `Hello reader ${marker}.\n` },
        { title: `Install ${marker}`, markdown: `Install with care ${marker}.\n` },
      ]);
      const created = await expectStatus(
        on(a, owner).post<TranslationBody>(`/v1/orgs/${organizationId}/translations`, {
          source: { space: spaceId, language: 'en' },
          language: 'fr',
        }),
        201,
        'createTranslation',
      );
      await expectStatus(
        on(b, owner).post(`/v1/orgs/${organizationId}/translations/${created.body.id}/run`),
        204,
        'runTranslation',
      );
      return { id: created.body.id, marker };
    })();

    // A Git export asked through B of a space written through A.
    const exported = (async () => {
      if (skipGit) return undefined;
      const spaceId = await spaceWithPages([on(a, owner), on(b, owner)], 'Exported', [
        { title: 'Guide', markdown: 'Exported once.\n' },
      ]);
      const repository = git.createRepository('exported');
      await expectStatus(
        on(b, owner).post(`/v1/spaces/${spaceId}/git/export`, {
          url: repository,
          ref: 'refs/heads/main',
          commitMessage: 'Export',
        }),
        204,
        'exportToGitRepository',
      );
      return spaceId;
    })();

    const [made] = await Promise.all([Promise.all(contentStreams), upload]);
    const slugs = await Promise.all(specs);
    const run = await translation;
    const exportedSpace = await exported;

    // What each writer made is there, read through the process it did not end on.
    for (const [w, spaces] of made.entries()) {
      for (const { spaceId, title } of spaces) {
        const reader = on(w % 2 ? a : b, writers[w]);
        expect(await pageTitles(reader, spaceId)).toContain(title);
      }
    }

    // The jobs are done, each seen through the process that did not ask for it.
    for (const [i, slug] of slugs.entries()) {
      const reader = on(i ? a : b, owner);
      const path = `/v1/orgs/${organizationId}/openapi/${slug}`;
      await eventually(`${slug} processed`, async () => {
        const { body } = await reader.get<OpenAPISpecBody>(path);
        return body.processingState === 'complete' ? body : undefined;
      });
      const versions = await expectStatus(reader.get(`${path}/versions`), 200, 'versions');
      expect(versions.body.count).toBe(1);
    }

    const translated = await eventually('translation completed', async () => {
      const { body } = await on(a, owner).get<TranslationBody>(
        `/v1/orgs/${organizationId}/translations/${run.id}`,
      );
      return body.status === 'completed' ? body : undefined;
    });
    expect(translated.stats.runs).toBe(1);
    expect(await pageTitles(on(b, owner), translated.result!.space)).toEqual([
      `[fr]Welcome [fr]${run.marker}`,
      `[fr]Install [fr]${run.marker}`,
    ]);
    // One run: each text went to the translator once.
    const sent = translator.texts.filter((text) => text.includes(run.marker));
    expect(sent.length).toBeGreaterThan(0);
    expect(new Set(sent).size).toBe(sent.length);

    if (exportedSpace !== undefined) {
      const info = await eventually('git export done', async () => {
        const { body } = await on(a, owner).get<{ lastOperation: { status: string } }>(
          `/v1/spaces/${exportedSpace}/git/info`,
        );
        return ['pending', 'running'].includes(body.lastOperation.status) ? undefined : body;
      });
      expect(info.lastOperation.status).toBe('complete');
      expect(git.git('exported', 'rev-list', '--count', 'refs/heads/main').trim()).toBe('1');
    }

    await expectEveryEventDeliveredOnce();
    await expectEveryJobRunOnce();
  }, 90_000);

  /** Every event of the organization reached the webhook, each exactly once. */
  async function expectEveryEventDeliveredOnce(): Promise<void> {
    const events = await query<{ id: string }>('SELECT id FROM events WHERE organization_id = $1', [
      organizationId,
    ]);
    expect(events.length).toBeGreaterThan(20);
    await receiver.waitFor((requests) => {
      const ids = new Set(requests.map((request) => request.headers['webhook-id']));
      return events.every((event) => ids.has(event.id));
    }, 30_000);
    const counts = new Map<string, number>();
    for (const request of receiver.requests) {
      const id = String(request.headers['webhook-id']);
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    expect([...counts].filter(([, count]) => count > 1)).toEqual([]);
    const failed = await expectStatus(
      on(b, owner).get(`/v1/orgs/${organizationId}/webhooks/${webhookId}/deliveries?status=failed`),
      200,
      'listWebhookDeliveries',
    );
    expect(failed.body.count).toBe(0);
  }

  /** Every job of the workload's queues completed at its first attempt. */
  async function expectEveryJobRunOnce(): Promise<void> {
    const jobs = await eventually('jobs settled', async () => {
      const rows = await query<{ name: string; state: string; retry_count: number }>(
        `SELECT name, state::text AS state, retry_count FROM pgboss.job WHERE name = ANY($1)
         UNION ALL
         SELECT name, state::text AS state, retry_count FROM pgboss.archive WHERE name = ANY($1)`,
        [WORKLOAD_QUEUES],
      );
      return rows.every((row) => row.state !== 'created' && row.state !== 'active')
        ? rows
        : undefined;
    });
    const names = new Set(jobs.map((job) => job.name));
    const asked = [OPENAPI_PROCESS_QUEUE, TRANSLATION_RUN_QUEUE, DELIVER_QUEUE];
    for (const queue of skipGit ? asked : [...asked, GIT_OPERATIONS_QUEUE]) {
      expect(names).toContain(queue);
    }
    expect(jobs.filter((job) => job.state !== 'completed' || job.retry_count !== 0)).toEqual([]);
  }

  it('counts the rate limit once for both processes: N requests pass, then 429 on either', async () => {
    const user = await createUser(adminB, 'limited');
    const extra = 10;
    const replies = await Promise.all(
      Array.from({ length: LIMIT + extra }, (_, i) => on(i % 2 ? a : b, user).get('/v1/user')),
    );
    const statuses = replies.map((reply) => reply.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(LIMIT);
    expect(statuses.filter((status) => status === 429)).toHaveLength(extra);
    for (const reply of replies) {
      if (reply.status === 200) expect(reply.headers.get('x-ratelimit-limit')).toBe(String(LIMIT));
      else expect(Number(reply.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // Still refused on both.
    expect((await on(a, user).get('/v1/user')).status).toBe(429);
    expect((await on(b, user).get('/v1/user')).status).toBe(429);
  });

  it('serves no stale data: a change through one process shows at once through the other (tokens and published lookups within their cache time)', async () => {
    const [first] = writers;
    // A space renamed through A, read through B, and back.
    const space = await expectStatus(
      on(a, owner).post<SpaceBody>(`/v1/orgs/${organizationId}/spaces`, { title: 'Before' }),
      201,
      'createSpace',
    );
    const spacePath = `/v1/spaces/${space.body.id}`;
    for (const [writer, reader, title] of [
      [a, b, 'Renamed through A'],
      [b, a, 'Renamed through B'],
      [a, b, 'Renamed through A again'],
    ] as const) {
      await expectStatus(on(writer, owner).patch(spacePath, { title }), 200, 'updateSpace');
      expect((await on(reader, owner).get<SpaceBody>(spacePath)).body.title).toBe(title);
    }

    // A member's role changed through A applies at once through B, and back.
    const memberPath = `/v1/orgs/${organizationId}/members/${first.id}`;
    await expectStatus(on(b, first).patch(spacePath, { title: 'By a writer' }), 200, 'update');
    await expectStatus(on(a, owner).patch(memberPath, { role: 'read' }), 200, 'updateMember');
    expect((await on(b, owner).get<{ role: string }>(memberPath)).body.role).toBe('read');
    expect((await on(b, first).patch(spacePath, { title: 'Refused' })).status).toBe(403);
    await expectStatus(on(b, owner).patch(memberPath, { role: 'admin' }), 200, 'updateMember');
    await expectStatus(on(a, first).patch(spacePath, { title: 'Allowed' }), 200, 'update');

    // A site unpublished through A: its lookups stop there at once, and through B within
    // PUBLISHED_LOOKUP_CACHE_SECONDS.
    const site = await expectStatus(
      on(a, owner).post<{ id: string }>(`/v1/orgs/${organizationId}/sites`, { title: 'Docs' }),
      201,
      'createSite',
    );
    const sitePath = `/v1/orgs/${organizationId}/sites/${site.body.id}`;
    await expectStatus(
      on(b, owner).post(`${sitePath}/site-spaces`, { spaceId: space.body.id }),
      201,
      'addSpaceToSite',
    );
    const published = await expectStatus(
      on(a, owner).post<{ urls: { published: string } }>(`${sitePath}/publish`),
      200,
      'publishSite',
    );
    const lookup = async (process_: BinderyProcess) =>
      (await on(process_).post('/v1/urls/published', { url: published.body.urls.published }))
        .status;
    expect(await lookup(a)).toBe(200);
    expect(await lookup(b)).toBe(200); // B keeps the answer now

    // The structure a visitor reads: a site space added through A shows there at once, and
    // through B within PUBLISHED_LOOKUP_CACHE_SECONDS.
    const { apiToken } = (
      await on(a).post<{ apiToken: string }>('/v1/urls/published', {
        url: published.body.urls.published,
      })
    ).body;
    const siteSpaceCount = async (process_: BinderyProcess) => {
      const reply = await new ProcessClient(process_.origin!, apiToken).get<{
        structure: { structure: unknown[] };
      }>(`${sitePath}/published`);
      expect(reply.status).toBe(200);
      return reply.body.structure.structure.length;
    };
    expect(await siteSpaceCount(a)).toBe(1);
    expect(await siteSpaceCount(b)).toBe(1); // B keeps the structure now
    const other = await expectStatus(
      on(a, owner).post<SpaceBody>(`/v1/orgs/${organizationId}/spaces`, { title: 'Other' }),
      201,
      'createSpace',
    );
    await expectStatus(
      on(a, owner).post(`${sitePath}/site-spaces`, { spaceId: other.body.id }),
      201,
      'addSpaceToSite',
    );
    const addedAt = Date.now();
    expect(await siteSpaceCount(a)).toBe(2);
    await eventually(
      'the added site space shown by B',
      async () => ((await siteSpaceCount(b)) === 2 ? true : undefined),
      PUBLISHED_LOOKUP_CACHE_SECONDS * 1000 + 2000,
      50,
    );
    expect(Date.now() - addedAt).toBeLessThanOrEqual(
      PUBLISHED_LOOKUP_CACHE_SECONDS * 1000 + REQUEST_SLACK_MS,
    );

    await expectStatus(on(a, owner).post(`${sitePath}/unpublish`), 200, 'unpublishSite');
    const unpublishedAt = Date.now();
    expect(await lookup(a)).toBe(404);
    await eventually(
      'unpublished site no longer found by B',
      async () => ((await lookup(b)) === 404 ? true : undefined),
      PUBLISHED_LOOKUP_CACHE_SECONDS * 1000 + 2000,
      50,
    );
    expect(Date.now() - unpublishedAt).toBeLessThanOrEqual(
      PUBLISHED_LOOKUP_CACHE_SECONDS * 1000 + REQUEST_SLACK_MS,
    );

    // A token revoked through A stops there at once, and through B within TOKEN_CACHE_MS.
    const created = await expectStatus(
      on(a, first).post<{ id: string; token: string }>('/v1/user/tokens', { label: 'ci' }),
      201,
      'createUserToken',
    );
    const token = { ...first, token: created.body.token };
    expect((await on(a, token).get('/v1/user')).status).toBe(200);
    expect((await on(b, token).get('/v1/user')).status).toBe(200); // B keeps it now
    await expectStatus(
      on(a, first).delete(`/v1/user/tokens/${created.body.id}`),
      204,
      'revokeUserToken',
    );
    const revokedAt = Date.now();
    expect((await on(a, token).get('/v1/user')).status).toBe(401);
    await eventually(
      'revoked token refused by B',
      async () => ((await on(b, token).get('/v1/user')).status === 401 ? true : undefined),
      TOKEN_CACHE_MS + 2000,
      50,
    );
    expect(Date.now() - revokedAt).toBeLessThanOrEqual(TOKEN_CACHE_MS + REQUEST_SLACK_MS);

    // A user disabled through B stops there at once, and through A within TOKEN_CACHE_MS.
    const disabled = await createUser(adminA, 'disabled');
    expect((await on(a, disabled).get('/v1/user')).status).toBe(200);
    await expectStatus(
      adminB.patch(`/v1/admin/users/${disabled.id}`, { disabled: true }),
      200,
      'disableUser',
    );
    const disabledAt = Date.now();
    expect((await on(b, disabled).get('/v1/user')).status).toBe(401);
    await eventually(
      'disabled user refused by A',
      async () => ((await on(a, disabled).get('/v1/user')).status === 401 ? true : undefined),
      TOKEN_CACHE_MS + 2000,
      50,
    );
    expect(Date.now() - disabledAt).toBeLessThanOrEqual(TOKEN_CACHE_MS + REQUEST_SLACK_MS);
  });

  it('loses no acknowledged write when an API process stops mid-load', async () => {
    interface Outcome {
      what: string;
      /** When the request was sent, and when its answer (or its failure) came (Date.now()). */
      sentAt: number;
      doneAt: number;
      status?: number;
      error?: string;
    }
    const outcomes: Outcome[] = [];
    /** Spaces by id: the titles each may have now (acknowledged last, or asked for since). */
    const spaces = new Map<string, Set<string>>();
    const changeRequests: { spaceId: string; id: string; revision: string }[] = [];
    const specs: string[] = [];

    /** One request to A: its reply, or null once A no longer answers (the loop ends). */
    async function send<T>(what: string, request: () => Promise<Reply<T>>) {
      const sentAt = Date.now();
      try {
        const reply = await request();
        outcomes.push({ what, sentAt, doneAt: Date.now(), status: reply.status });
        return reply;
      } catch (error) {
        const code = connectionError(error);
        if (!code) throw error;
        outcomes.push({ what, sentAt, doneAt: Date.now(), error: code });
        return null;
      }
    }

    const loops = [owner, ...writers].map(async (user, k) => {
      const client = on(a, user);
      for (let i = 0; ; i++) {
        const title = `Load ${k}-${i}`;
        const space = await send('createSpace', () =>
          client.post<SpaceBody>(`/v1/orgs/${organizationId}/spaces`, { title }),
        );
        if (space?.status !== 201) return;
        const titles = new Set([title]);
        spaces.set(space.body.id, titles);

        const renamed = `${title} renamed`;
        const rename = await send('updateSpace', () =>
          client.patch(`/v1/spaces/${space.body.id}`, { title: renamed }),
        );
        if (!rename) titles.add(renamed); // in flight: done or not
        if (rename?.status !== 200) return;
        spaces.set(space.body.id, new Set([renamed]));

        const cr = await send('createChangeRequest', () =>
          client.post<ChangeRequestBody>(`/v1/spaces/${space.body.id}/change-requests`, {
            subject: title,
          }),
        );
        if (cr?.status !== 201) return;
        const written = await send('updateChangeRequestContent', () =>
          client.post<ChangeRequestBody>(
            `/v1/spaces/${space.body.id}/change-requests/${cr.body.id}/content`,
            {
              changes: [{ operation: 'insert_page', title, document: { markdown: 'Load.\n' } }],
            },
          ),
        );
        if (written?.status !== 200) return;
        changeRequests.push({
          spaceId: space.body.id,
          id: cr.body.id,
          revision: written.body.revision,
        });

        // A job to queue too: shutdown must not stop the queue before this request is done.
        const slug = `load-${k}-${i}`;
        const spec = await send('createOpenAPISpec', () =>
          client.post(`/v1/orgs/${organizationId}/openapi`, { slug, source: { text: PETSTORE } }),
        );
        if (spec?.status !== 201) return;
        specs.push(slug);
      }
    });

    // Under load, A is told to stop while requests are in flight.
    await sleep(1500);
    const signalledAt = Date.now();
    const exitCode = await a.stop();
    await Promise.all(loops);
    expect(exitCode).toBe(0);

    // Every request either got its answer (2xx: the load makes only valid ones) or no answer;
    // some were in flight at the signal and completed, the next ones were refused.
    expect(
      outcomes.filter((o) => o.status !== undefined && (o.status < 200 || o.status > 299)),
    ).toEqual([]);
    const drained = outcomes.filter((o) => o.sentAt < signalledAt && o.doneAt > signalledAt);
    expect(drained.filter((o) => o.status !== undefined).length).toBeGreaterThan(0);
    expect(outcomes.filter((o) => o.error !== undefined).length).toBeGreaterThan(0);
    expect(spaces.size).toBeGreaterThan(3);

    // Every acknowledged write is there, read through B.
    for (const [spaceId, titles] of spaces) {
      const { body } = await expectStatus(
        on(b, owner).get<SpaceBody>(`/v1/spaces/${spaceId}`),
        200,
        'getSpace',
      );
      expect(titles).toContain(body.title);
    }
    for (const cr of changeRequests) {
      const { body } = await expectStatus(
        on(b, owner).get<ChangeRequestBody>(`/v1/spaces/${cr.spaceId}/change-requests/${cr.id}`),
        200,
        'getChangeRequest',
      );
      expect(body.revision).toBe(cr.revision);
    }
    // ... and so is what they asked of the worker.
    for (const slug of specs) {
      await eventually(`${slug} processed`, async () => {
        const { body } = await on(b, owner).get<OpenAPISpecBody>(
          `/v1/orgs/${organizationId}/openapi/${slug}`,
        );
        return body.processingState === 'complete' ? true : undefined;
      });
    }
    await expectEveryEventDeliveredOnce();
    await expectEveryJobRunOnce();
  }, 60_000);

  it('stops the other processes cleanly; no process logged an error', async () => {
    expect(await b.stop()).toBe(0);
    expect(await worker.stop()).toBe(0);
    for (const process_ of processes) {
      const errors = process_
        .output()
        .split('\n')
        .filter((line) => /"level":(50|60)|failed|deadlock/i.test(line));
      expect({ process: process_.name, errors }).toEqual({ process: process_.name, errors: [] });
    }
  });
});
