import { randomBytes } from 'node:crypto';
import { Client as PgClient } from 'pg';
import { TEST_ADMIN_TOKEN, TEST_PUBLIC_URL, TEST_SECRET_KEY } from '../helpers/app';
import { freshDatabase, type TestDatabase } from '../helpers/database';
import {
  assertBuilt,
  type BinderyProcess,
  expectStatus,
  freePort,
  ProcessClient,
  type Reply,
  spawnBindery,
} from '../helpers/processes';

/**
 * What Bindery does when PostgreSQL goes away under it, run as a deployment runs it: an API
 * process (`node dist/src/main.js`) on a database of its own, with a read and write load going
 * on while the test terminates its connections (`pg_terminate_backend`, what a failover, a
 * pooler restart or an idle-connection reaper does), refuses new ones (`ALLOW_CONNECTIONS
 * false`), or holds a lock on a table longer than the lock timeout.
 *
 * What must hold: the process never exits; every answer is 2xx or 503 with Retry-After (never a
 * 500, never a dropped connection); no write it acknowledged is lost and none is applied twice;
 * liveness (/health) stays 200 while readiness (/health/ready) follows the database; and reads
 * answer again within a second of the database coming back.
 *
 * Only on PostgreSQL (DATABASE_URL): the embedded database's equivalent, its connections
 * dropped, is in database-faults-embedded.e2e-spec.ts.
 */
const onPostgres = process.env.DATABASE_URL ? describe : describe.skip;

const LOCK_TIMEOUT_MS = 1000;
/** What a request may take beyond a timeout on a busy two-core machine. */
const SLACK_MS = 1500;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Why a request got no answer at all (the process is gone, or cut the connection). */
function noAnswer(error: unknown): string {
  const { message, cause } = error as { message?: string; cause?: { code?: string } };
  return `${message ?? String(error)} (${cause?.code ?? 'no code'})`;
}

interface Outcome {
  what: string;
  status: number | 'no answer';
  retryAfter: string | null;
  detail: string;
  /** When the request was sent and answered (Date.now()). */
  from: number;
  to: number;
}

/** Requests of a load, with what each got. */
class Tally {
  readonly outcomes: Outcome[] = [];

  async record<T>(what: string, reply: Promise<Reply<T>>): Promise<Reply<T> | undefined> {
    const from = Date.now();
    try {
      const answer = await reply;
      this.outcomes.push({
        what,
        status: answer.status,
        retryAfter: answer.headers.get('retry-after'),
        detail: answer.status >= 300 ? answer.bytes.toString('utf8').slice(0, 300) : '',
        from,
        to: Date.now(),
      });
      return answer;
    } catch (error) {
      this.outcomes.push({
        what,
        status: 'no answer',
        retryAfter: null,
        detail: noAnswer(error),
        from,
        to: Date.now(),
      });
      return undefined;
    }
  }

  count(status: number): number {
    return this.outcomes.filter((outcome) => outcome.status === status).length;
  }

  /** Answers other than 2xx, and 503s without Retry-After: each is a failure of the test. */
  unexpected(): Outcome[] {
    return this.outcomes.filter(
      (outcome) =>
        typeof outcome.status !== 'number' ||
        (outcome.status >= 300 && outcome.status !== 503) ||
        (outcome.status === 503 && outcome.retryAfter === null),
    );
  }
}

onPostgres('when PostgreSQL goes away', () => {
  let database: TestDatabase;
  let databaseName: string;
  /** The test's own connection to the server, outside Bindery's pool. */
  let sql: PgClient;
  let api: BinderyProcess;
  let admin: ProcessClient;
  let owner: ProcessClient;
  let organizationId: string;
  let spaceId: string;

  beforeAll(async () => {
    assertBuilt();
    database = await freshDatabase();
    databaseName = new URL(database.url!).pathname.slice(1);
    sql = new PgClient({ connectionString: process.env.DATABASE_URL });
    sql.on('error', () => undefined);
    await sql.connect();
    api = spawnBindery(
      'api',
      'API process',
      {
        DATABASE_URL: database.url!,
        DATABASE_POOL_SIZE: '4',
        DATABASE_LOCK_TIMEOUT_MS: String(LOCK_TIMEOUT_MS),
        SECRET_KEY: TEST_SECRET_KEY,
        ADMIN_TOKEN: TEST_ADMIN_TOKEN,
        PUBLIC_URL: TEST_PUBLIC_URL,
        SEED_DEMO: 'false',
        LOG_LEVEL: 'error',
        RATE_LIMIT_PER_MINUTE: '0',
        // Every request reads its token from the database: no answer comes from a cache.
        TOKEN_CACHE_MS: '0',
        MIGRATIONS_RUN: 'false',
      },
      { port: await freePort() },
    );
    await api.ready;
    admin = new ProcessClient(api.origin!, TEST_ADMIN_TOKEN);
    const email = `owner-${randomBytes(4).toString('hex')}@example.com`;
    const user = await expectStatus(
      admin.post<{ token: string }>('/v1/admin/users', { email, displayName: 'Owner' }),
      201,
      'createUser',
    );
    owner = admin.as(user.body.token);
    const org = await expectStatus(
      owner.post<{ id: string }>('/v1/orgs', { title: 'Faults' }),
      201,
      'createOrganization',
    );
    organizationId = org.body.id;
    const space = await expectStatus(
      owner.post<{ id: string }>(`/v1/orgs/${organizationId}/spaces`, { title: 'Read me' }),
      201,
      'createSpace',
    );
    spaceId = space.body.id;
  }, 120_000);

  afterAll(async () => {
    api?.kill();
    await api?.exited;
    await sql?.query(`ALTER DATABASE "${databaseName}" WITH ALLOW_CONNECTIONS true`).catch(() => 0);
    await sql?.end().catch(() => undefined);
    await database?.drop();
  });

  /** Fails with the end of the process's output when it is no longer running. */
  function expectAlive(): void {
    if (!api.running()) throw new Error(`the API process exited:\n${api.output().slice(-3000)}`);
  }

  /** A statement on Bindery's database, on a connection of the test's own. */
  async function inDatabase<T>(text: string, values: unknown[]): Promise<T[]> {
    const client = new PgClient({ connectionString: database.url });
    await client.connect();
    try {
      return (await client.query(text, values)).rows as T[];
    } finally {
      await client.end();
    }
  }

  /** Ends every connection to Bindery's database (its pool, its job queue's), as a failover. */
  async function terminateConnections(): Promise<number> {
    const { rows } = await sql.query<{ terminated: boolean }>(
      `SELECT pg_terminate_backend(pid) AS terminated FROM pg_stat_activity
        WHERE datname = $1 AND pid <> pg_backend_pid()`,
      [databaseName],
    );
    return rows.filter((row) => row.terminated).length;
  }

  /**
   * Readers and writers against the API until `stop()`: reads of an organization, a space, a
   * list and a user; writes that create a space with a title of their own (kept when
   * acknowledged, to look for afterwards).
   */
  function startLoad(tally: Tally, readers = 6, writers = 2) {
    let running = true;
    const acknowledged: { id: string; title: string }[] = [];
    const attempted: string[] = [];
    const reads = [
      () => owner.get(`/v1/orgs/${organizationId}`),
      () => owner.get(`/v1/spaces/${spaceId}`),
      () => owner.get(`/v1/orgs/${organizationId}/spaces`),
      () => owner.get('/v1/user'),
      () => owner.get(`/v1/spaces/${spaceId}/content`),
    ];
    // A request that got no answer ends its loop: the process is gone, or broke a connection.
    const reader = async (index: number) => {
      for (let i = index; running; i++) {
        const read = reads[i % reads.length];
        if (!(await tally.record('read', read()))) return;
      }
    };
    const writer = async () => {
      while (running) {
        const title = `Load ${randomBytes(6).toString('hex')}`;
        attempted.push(title);
        const answer = await tally.record(
          'write',
          owner.post<{ id: string }>(`/v1/orgs/${organizationId}/spaces`, { title }),
        );
        if (!answer) return;
        if (answer.status === 201) acknowledged.push({ id: answer.body.id, title });
      }
    };
    const loops = [
      ...Array.from({ length: readers }, (_, i) => reader(i)),
      ...Array.from({ length: writers }, () => writer()),
    ];
    return {
      acknowledged,
      attempted,
      stop: async () => {
        running = false;
        await Promise.all(loops);
      },
    };
  }

  /** Milliseconds until `read` answers 200, polled every 25 ms; fails after `withinMs`. */
  async function msUntilOk(read: () => Promise<Reply>, withinMs = 10_000): Promise<number> {
    const started = Date.now();
    for (;;) {
      const answer = await read().catch(() => undefined);
      if (answer?.status === 200) return Date.now() - started;
      if (Date.now() - started > withinMs) {
        throw new Error(`not 200 within ${withinMs} ms: ${answer?.status ?? 'no answer'}`);
      }
      await sleep(25);
    }
  }

  it('survives its connections terminated 40 times under load: only 2xx or 503, no write lost or doubled', async () => {
    const tally = new Tally();
    const load = startLoad(tally);
    let terminated = 0;
    /** When each termination began and ended. */
    const terminations: [number, number][] = [];
    try {
      await sleep(300);
      for (let round = 0; round < 40 && api.running(); round++) {
        const began = Date.now();
        terminated += await terminateConnections();
        terminations.push([began, Date.now()]);
        await sleep(100 + Math.random() * 100);
      }
    } finally {
      await load.stop();
    }

    expectAlive();
    expect(terminated).toBeGreaterThan(40);
    expect(tally.unexpected()).toEqual([]);
    expect(tally.count(200) + tally.count(201)).toBeGreaterThan(100);
    // A read whose connection died runs again on a fresh one: only one that fails twice in a
    // row, both times cut off by a termination, answers 503.
    // (A share of failed reads would depend on the machine's load: on a busy one a read takes
    // longer and sees two terminations more often.)
    const reads = tally.outcomes.filter((outcome) => outcome.what === 'read');
    // A backend ends a little after pg_terminate_backend returns, and the pool may hand out its
    // connection meanwhile: a termination that ended up to 100 ms before a read counts too.
    const terminationsWhile = (read: Outcome) =>
      terminations.filter(([began, ended]) => ended >= read.from - 100 && began <= read.to).length;
    const failedReads = reads.filter((outcome) => outcome.status === 503);
    expect(failedReads.map(terminationsWhile).filter((count) => count < 2)).toEqual([]);
    expect(
      reads.filter((read) => read.status === 200 && terminationsWhile(read) >= 1).length,
    ).toBeGreaterThan(0);
    // Reads back at once: the next read after the last termination.
    await terminateConnections();
    expect(await msUntilOk(() => owner.get(`/v1/spaces/${spaceId}`))).toBeLessThan(1000);

    // Every acknowledged write is there, and no write was applied twice.
    const rows = await inDatabase<{ title: string; count: number }>(
      `SELECT title, count(*)::int AS count FROM spaces WHERE organization_id = $1 AND title = ANY($2)
        GROUP BY title`,
      [organizationId, load.attempted],
    );
    const counts = new Map(rows.map((row) => [row.title, row.count]));
    expect(load.acknowledged.filter(({ title }) => counts.get(title) !== 1)).toEqual([]);
    expect(rows.filter((row) => row.count > 1)).toEqual([]);
    // And each has its audit event, recorded once.
    const audited = await inDatabase<{ target_id: string; count: number }>(
      `SELECT target_id, count(*)::int AS count FROM audit_events
        WHERE operation_id = 'createSpace' AND target_id = ANY($1) GROUP BY target_id`,
      [load.acknowledged.map(({ id }) => id)],
    );
    expect(audited.filter((row) => row.count !== 1)).toEqual([]);
    expect(audited).toHaveLength(load.acknowledged.length);
    for (const { id } of load.acknowledged.slice(-3)) {
      await expectStatus(owner.get(`/v1/spaces/${id}`), 200, 'getSpaceById');
    }
  }, 60_000);

  it('answers 503 with Retry-After while the database refuses connections, live but not ready, and ready within a second after', async () => {
    await sql.query(`ALTER DATABASE "${databaseName}" WITH ALLOW_CONNECTIONS false`);
    let allowed = false;
    try {
      await terminateConnections();
      const tally = new Tally();
      const load = startLoad(tally, 3, 1);
      const probes: { live: number; ready: number }[] = [];
      try {
        const refusedUntil = Date.now() + 10_000;
        while (Date.now() < refusedUntil && api.running()) {
          const [live, ready] = await Promise.all([
            admin.get('/health'),
            admin.get('/health/ready'),
          ]);
          probes.push({ live: live.status, ready: ready.status });
          await sleep(250);
        }
      } finally {
        await load.stop();
      }

      expectAlive();
      expect(tally.unexpected()).toEqual([]);
      // Nothing reaches a database that refuses every connection.
      expect(tally.outcomes.length).toBeGreaterThan(20);
      expect(tally.count(503)).toBe(tally.outcomes.length);
      expect(probes.filter((probe) => probe.live !== 200)).toEqual([]);
      expect(probes.filter((probe) => probe.ready !== 503)).toEqual([]);
      const answer = await owner.get(`/v1/orgs/${organizationId}`);
      expect(answer.status).toBe(503);
      expect(answer.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(answer.body).toEqual({
        error: { code: 503, message: expect.stringMatching(/database/i) },
      });

      await sql.query(`ALTER DATABASE "${databaseName}" WITH ALLOW_CONNECTIONS true`);
      allowed = true;
      const [ready, read] = await Promise.all([
        msUntilOk(() => admin.get('/health/ready')),
        msUntilOk(() => owner.get(`/v1/orgs/${organizationId}`)),
      ]);
      expect(ready).toBeLessThan(1000);
      expect(read).toBeLessThan(1000);
    } finally {
      if (!allowed) {
        await sql.query(`ALTER DATABASE "${databaseName}" WITH ALLOW_CONNECTIONS true`);
      }
    }
  }, 60_000);

  it('answers 503 in bounded time when a table stays locked past the lock timeout, and blocks nothing else', async () => {
    const locker = new PgClient({ connectionString: database.url });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE spaces IN ACCESS EXCLUSIVE MODE');
      const started = Date.now();
      const [blocked, other] = await Promise.all([
        owner.get(`/v1/spaces/${spaceId}`),
        // A request that needs no locked table answers meanwhile.
        owner.get('/v1/user').then((reply) => ({ reply, ms: Date.now() - started })),
      ]);
      const elapsed = Date.now() - started;
      expect(blocked.status).toBe(503);
      expect(blocked.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(blocked.body).toEqual({ error: { code: 503, message: expect.any(String) } });
      expect(elapsed).toBeGreaterThanOrEqual(LOCK_TIMEOUT_MS - 50);
      expect(elapsed).toBeLessThan(LOCK_TIMEOUT_MS + SLACK_MS);
      expect(other.reply.status).toBe(200);
      expect(other.ms).toBeLessThan(LOCK_TIMEOUT_MS);
      // Held longer than the lock timeout.
      await sleep(LOCK_TIMEOUT_MS);
    } finally {
      await locker.query('ROLLBACK').catch(() => undefined);
      await locker.end();
    }
    // Nothing left waiting: reads and writes go on.
    await expectStatus(owner.get(`/v1/spaces/${spaceId}`), 200, 'getSpaceById');
    await expectStatus(
      owner.patch(`/v1/spaces/${spaceId}`, { title: 'Read me again' }),
      200,
      'updateSpaceById',
    );
    expectAlive();
  }, 30_000);
});
