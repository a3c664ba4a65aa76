import { createTestApp, TestApp } from '../helpers/app';

describe('authentication', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers 401 without a token', async () => {
    const res = await t.anonymous.get('/v1/user').expect(401);
    expect(res.body).toEqual({ error: { code: 401, message: expect.stringContaining('Bearer') } });
  });

  it('answers 401 for an unknown token and for a malformed header', async () => {
    await t.as('bnd_not-a-real-token').get('/v1/user').expect(401);
    await t.anonymous.get('/v1/user').set('Authorization', 'Basic dXNlcjpwYXNz').expect(401);
    await t.anonymous.get('/v1/user').set('Authorization', 'Bearer').expect(401);
  });

  it('stores only a hash of each token', async () => {
    const user = await t.factories.user();
    const rows: { token_hash: string }[] = await t.dataSource.query(
      'SELECT token_hash FROM api_tokens WHERE user_id = $1',
      [user.id],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0].token_hash).not.toContain(user.token);
    expect(user.token.length).toBeGreaterThanOrEqual(43);
  });

  it("stops a disabled user's tokens at once, and restores them when re-enabled", async () => {
    const user = await t.factories.user();
    await user.client.get('/v1/user').expect(200);
    await t.admin.patch(`/v1/admin/users/${user.id}`, { disabled: true }).expect(200);
    await user.client.get('/v1/user').expect(401);
    await t.admin.patch(`/v1/admin/users/${user.id}`, { disabled: false }).expect(200);
    await user.client.get('/v1/user').expect(200);
  });

  it('refuses the administrator token on user routes with 403', async () => {
    const res = await t.admin.get('/v1/user').expect(403);
    expect(res.body.error.message).toMatch(/admin/);
  });

  it('refuses user tokens on admin routes with 403', async () => {
    const user = await t.factories.user();
    await user.client.get('/v1/admin/users').expect(403);
    await user.client
      .post('/v1/admin/users', { email: 'x@example.com', displayName: 'X' })
      .expect(403);
  });
});

describe('administrator token generated on first start', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ ADMIN_TOKEN: '' });
  });
  afterAll(() => t.close());

  it('is printed once and works; only its hash is stored', async () => {
    const token = t.bindery.generatedAdminToken as string;
    expect(token).toMatch(/^bnd_admin_[A-Za-z0-9_-]{43}$/);
    await t.as(token).get('/v1/admin/users').expect(200);
    const rows: { value: string }[] = await t.dataSource.query(
      "SELECT value FROM instance_settings WHERE key = 'admin_token_sha256'",
    );
    expect(rows[0].value).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0].value).not.toBe(token);
  });
});
