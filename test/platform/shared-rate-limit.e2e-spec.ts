import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import type { DynamicModule } from '@nestjs/common';
import { Redis } from 'ioredis';
import { sha256Hex } from '../../src/platform/ids/ids';
import { RATE_LIMIT_KEY_PREFIX } from '../../src/platform/rate-limit/rate-limit';
import { createTestApp, TestApp } from '../helpers/app';
import { sharedDatabase } from '../helpers/database';

const LIMIT = 10;
/** RATE_LIMIT_SYNC_MS of the apps that add their hits to the store together. */
const SYNC_MS = 50;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/**
 * The Redis server of the Redis cases: CI names the machine's (TEST_REDIS_URL, set by .ci/run),
 * where they must pass; a machine with only Node has none, and skips them.
 */
const REDIS_URL = process.env.TEST_REDIS_URL;
const STORES = REDIS_URL ? (['database', 'redis'] as const) : (['database'] as const);

/** This run's key prefix for the counters, so that runs sharing a Redis server never collide. */
function keyPrefix(prefix: string): DynamicModule {
  return {
    module: class RateLimitKeyPrefixModule {},
    global: true,
    providers: [{ provide: RATE_LIMIT_KEY_PREFIX, useValue: prefix }],
    exports: [RATE_LIMIT_KEY_PREFIX],
  };
}

/** A local port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Two application instances on one database act as two API processes behind a load balancer:
 * with RATE_LIMIT_STORE=database or redis, a token's requests spread over both count against
 * one limit. The database store runs on the embedded database too (served to both apps over
 * its socket, as in the webhook crash test); the Redis store needs a Redis server
 * (TEST_REDIS_URL).
 */
if (!REDIS_URL) {
  describe.skip('rate limits shared by every process (redis): TEST_REDIS_URL is unset', () => {
    it('runs with a Redis server', () => undefined);
  });
}

describe.each(STORES)('rate limits shared by every process (%s)', (store) => {
  const prefix = `bindery-test:${randomBytes(6).toString('hex')}`;
  let database: Awaited<ReturnType<typeof sharedDatabase>>;
  let a: TestApp;
  let b: TestApp;
  /** Two more, adding their hits to the store every SYNC_MS rather than at each hit. */
  let c: TestApp;
  let d: TestApp;
  let redis: Redis | undefined;

  beforeAll(async () => {
    if (store === 'redis') {
      redis = new Redis(REDIS_URL!, { lazyConnect: true, maxRetriesPerRequest: 1 });
      await redis.connect().catch((error: unknown) => {
        throw new Error(
          `Redis does not answer at ${REDIS_URL} (${String(error)}): this test needs the ` +
            'Redis server TEST_REDIS_URL names',
        );
      });
    }
    database = await sharedDatabase();
    const settings = {
      ...database.settings,
      RATE_LIMIT_PER_MINUTE: String(LIMIT),
      RATE_LIMIT_STORE: store,
      ...(store === 'redis' ? { REDIS_URL } : {}),
    };
    const options = { databaseUrl: database.url, modules: [keyPrefix(prefix)] };
    // Every hit a round trip: the count is exact whichever app a request reaches.
    a = await createTestApp({ ...settings, RATE_LIMIT_SYNC_MS: '0' }, options);
    b = await createTestApp({ ...settings, RATE_LIMIT_SYNC_MS: '0' }, options);
    c = await createTestApp({ ...settings, RATE_LIMIT_SYNC_MS: String(SYNC_MS) }, options);
    d = await createTestApp({ ...settings, RATE_LIMIT_SYNC_MS: String(SYNC_MS) }, options);
  });

  afterAll(async () => {
    for (const app of [a, b, c, d]) await app?.close();
    await database?.close();
    if (redis) {
      const keys = await redis.keys(`${prefix}:*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
    }
  });

  it('answers 429 on either app once the requests to both reach the limit, with consistent headers', async () => {
    const user = await a.factories.user();
    const clients = [a.as(user.token), b.as(user.token)];
    for (let i = 0; i < LIMIT; i++) {
      const response = await clients[i % 2].get('/v1/user').expect(200);
      expect(response.headers['x-ratelimit-limit']).toBe(String(LIMIT));
      expect(response.headers['x-ratelimit-remaining']).toBe(String(LIMIT - i - 1));
      const reset = Number(response.headers['x-ratelimit-reset']);
      expect(reset).toBeGreaterThan(0);
      expect(reset).toBeLessThanOrEqual(60);
    }
    for (const client of [...clients, ...clients]) {
      const refused = await client.get('/v1/user').expect(429);
      expect(refused.body).toEqual({ error: { code: 429, message: expect.any(String) } });
      const retryAfter = Number(refused.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60);
    }

    // Another token has its own window, on both apps.
    const other = await a.factories.user();
    await b.as(other.token).get('/v1/user').expect(200);
    await a.as(other.token).get('/v1/user').expect(200);
  });

  it('holds one limit when the apps add their hits to the store every RATE_LIMIT_SYNC_MS', async () => {
    const user = await a.factories.user();
    const clients = [c.as(user.token), d.as(user.token)];
    // Hits further apart than RATE_LIMIT_SYNC_MS each take the store's count along: exact.
    for (let i = 0; i < LIMIT; i++) {
      const response = await clients[i % 2].get('/v1/user').expect(200);
      expect(response.headers['x-ratelimit-remaining']).toBe(String(LIMIT - i - 1));
      await sleep(SYNC_MS * 3);
    }
    for (const client of clients) await client.get('/v1/user').expect(429);
  });

  it('loses no hit of a burst over both apps, and refuses on both once they synced', async () => {
    const user = await a.factories.user();
    const clients = [c.as(user.token), d.as(user.token)];
    const burst = await Promise.all(
      Array.from({ length: LIMIT * 2 }, (_, i) => clients[i % 2].get('/v1/user')),
    );
    const admitted = burst.filter((response) => response.status === 200).length;
    // Each app admits at most the limit on its own; the other's hits reach it at its next sync.
    expect(admitted).toBeGreaterThanOrEqual(LIMIT);
    expect(admitted).toBeLessThanOrEqual(LIMIT * 2);
    expect(burst.every((response) => [200, 429].includes(response.status))).toBe(true);
    await sleep(SYNC_MS * 3);
    for (const client of [...clients, ...clients]) await client.get('/v1/user').expect(429);
    if (store === 'database') {
      await sleep(SYNC_MS * 3);
      const tracker = `${prefix}:default:token:${sha256Hex(user.token)}`;
      const [row] = (await a.dataSource.query(`SELECT points FROM rate_limits WHERE key = $1`, [
        tracker,
      ])) as Array<{ points: number }>;
      // Every hit is in the store: the burst, and the four refused since.
      expect(row.points).toBeGreaterThanOrEqual(LIMIT * 2 + 2);
    }
  });

  it('keeps the counters in the store under the run’s key prefix', async () => {
    if (store === 'database') {
      const rows = (await a.dataSource.query(
        `SELECT key, points, expire FROM rate_limits WHERE key LIKE $1`,
        [`${prefix}:%`],
      )) as Array<{ key: string; points: number; expire: string }>;
      expect(rows.length).toBeGreaterThanOrEqual(2);
      expect(rows.some((row) => row.points > LIMIT)).toBe(true);
      for (const row of rows) expect(Number(row.expire)).toBeGreaterThan(Date.now());
    } else {
      const keys = await redis!.keys(`${prefix}:*`);
      expect(keys.length).toBeGreaterThanOrEqual(2);
      for (const key of keys) expect(await redis!.pttl(key)).toBeGreaterThan(0);
    }
  });
});

describe('rate limits when the shared store does not answer', () => {
  let t: TestApp;
  const logs: Record<string, unknown>[] = [];

  beforeAll(async () => {
    t = await createTestApp(
      {
        RATE_LIMIT_PER_MINUTE: String(LIMIT),
        RATE_LIMIT_STORE: 'redis',
        REDIS_URL: `redis://127.0.0.1:${await closedPort()}`,
        LOG_LEVEL: 'warn',
      },
      { logs },
    );
  });
  afterAll(() => t?.close());

  it('counts in the process instead: requests are answered, the limit still holds, a warning is logged', async () => {
    const user = await t.factories.user();
    for (let i = 0; i < LIMIT; i++) {
      const response = await user.client.get('/v1/user').expect(200);
      expect(response.headers['x-ratelimit-remaining']).toBe(String(LIMIT - i - 1));
    }
    const refused = await user.client.get('/v1/user').expect(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    await t.anonymous.get('/health').expect(200);

    const warnings = logs.filter((line) => /rate limit store \(redis\)/.test(String(line.msg)));
    expect(warnings.length).toBeGreaterThan(0);
    // Once a minute at most for each kind of warning, not once per request.
    expect(warnings.length).toBeLessThanOrEqual(3);
  });
});
