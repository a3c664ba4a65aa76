import { createTestApp, TestApp } from '../helpers/app';
import { sharedDatabase } from '../helpers/database';

/** Polls `check` until it holds; answers how long that took (ms), or fails after `limitMs`. */
async function within(limitMs: number, check: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > limitMs) throw new Error(`still not so after ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return Date.now() - started;
}

/**
 * A process keeps the tokens it looked up for TOKEN_CACHE_MS: two apps on one database stand
 * for two API processes. A revoked token, or a disabled user's, stops at once where it was
 * revoked and within TOKEN_CACHE_MS on the other.
 */
describe('tokens kept by each process (TOKEN_CACHE_MS)', () => {
  let database: Awaited<ReturnType<typeof sharedDatabase>>;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    database = await sharedDatabase();
    const settings = { ...database.settings, TOKEN_CACHE_MS: '1000' };
    a = await createTestApp(settings, { databaseUrl: database.url });
    b = await createTestApp(settings, { databaseUrl: database.url });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.close();
  });

  it('stops a revoked token at once where it was revoked, and within a second elsewhere', async () => {
    const user = await a.factories.user();
    const created = await a.as(user.token).post('/v1/user/tokens', { label: 'ci' }).expect(201);
    const token = created.body.token as string;
    await a.as(token).get('/v1/user').expect(200);
    await b.as(token).get('/v1/user').expect(200); // now kept by b too

    await a.as(user.token).delete(`/v1/user/tokens/${created.body.id}`).expect(204);
    await a.as(token).get('/v1/user').expect(401);
    const waited = await within(
      1500,
      async () => (await b.as(token).get('/v1/user')).status === 401,
    );
    expect(waited).toBeLessThanOrEqual(1200);
  });

  it("stops a disabled user's tokens at once where it was disabled, and within a second elsewhere", async () => {
    const user = await a.factories.user();
    await a.as(user.token).get('/v1/user').expect(200);
    await b.as(user.token).get('/v1/user').expect(200);

    await a.admin.patch(`/v1/admin/users/${user.id}`, { disabled: true }).expect(200);
    await a.as(user.token).get('/v1/user').expect(401);
    const waited = await within(
      1500,
      async () => (await b.as(user.token).get('/v1/user')).status === 401,
    );
    expect(waited).toBeLessThanOrEqual(1200);
  });

  it('serves a kept token without looking it up again', async () => {
    const user = await a.factories.user();
    await b.as(user.token).get('/v1/user').expect(200);
    // Revoked behind b's back (no request to b): b keeps answering until its entry ends.
    await a.dataSource.query('DELETE FROM api_tokens WHERE user_id = $1', [user.id]);
    await b.as(user.token).get('/v1/user').expect(200);
    await within(1500, async () => (await b.as(user.token).get('/v1/user')).status === 401);
  });
});
