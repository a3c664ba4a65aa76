import { createTestApp, TEST_PUBLIC_URL, TestApp } from './helpers/app';
import { expectConforms } from './helpers/conformance';

describe('users', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  describe('GET /v1/user (getAuthenticatedUser)', () => {
    it('returns the caller, in GitBook’s User shape', async () => {
      const user = await t.factories.user({
        displayName: 'Ada Lovelace',
        email: 'Ada@Example.com',
      });
      const res = await user.client.get('/v1/user').expect(200);
      expect(res.body).toEqual({
        object: 'user',
        id: user.id,
        displayName: 'Ada Lovelace',
        email: 'ada@example.com',
        urls: { location: `${TEST_PUBLIC_URL}/v1/users/${user.id}` },
      });
      expectConforms(res, 'getAuthenticatedUser');
    });

    it('answers 401 without a token', async () => {
      await t.anonymous.get('/v1/user').expect(401);
    });
  });

  describe('GET /v1/users/{userId} (getUserById)', () => {
    it('shows a user who shares an organization with the caller', async () => {
      const org = await t.factories.organization();
      const colleague = await t.factories.member(org, 'read');
      const res = await org.owner.client.get(`/v1/users/${colleague.id}`).expect(200);
      expect(res.body.id).toBe(colleague.id);
      expect(res.body.displayName).toBe(colleague.displayName);
      expectConforms(res, 'getUserById');
    });

    it('shows the caller itself, without any organization', async () => {
      const user = await t.factories.user();
      const res = await user.client.get(`/v1/users/${user.id}`).expect(200);
      expect(res.body.id).toBe(user.id);
    });

    it('answers 404 for a user of another organization', async () => {
      const mine = await t.factories.organization();
      const theirs = await t.factories.organization();
      const res = await mine.owner.client.get(`/v1/users/${theirs.owner.id}`).expect(404);
      expect(res.body).toEqual({ error: { code: 404, message: 'User not found.' } });
      expectConforms(res, 'getUserById');
    });

    it('answers 404 for an unknown user', async () => {
      const user = await t.factories.user();
      await user.client.get('/v1/users/no-such-user').expect(404);
    });

    it('answers 403 to the administrator token', async () => {
      const user = await t.factories.user();
      await t.admin.get(`/v1/users/${user.id}`).expect(403);
    });
  });
});

describe('admin API: users and tokens', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('creates a user whose token works at once', async () => {
    const res = await t.admin
      .post('/v1/admin/users', { email: 'grace@example.com', displayName: 'Grace Hopper' })
      .expect(201);
    expect(res.body.user).toEqual(
      expect.objectContaining({ object: 'user', email: 'grace@example.com', disabled: false }),
    );
    expect(res.body.token).toMatch(/^bnd_[A-Za-z0-9_-]{43}$/);
    const me = await t.as(res.body.token).get('/v1/user').expect(200);
    expect(me.body.id).toBe(res.body.user.id);
  });

  it('refuses a second user with the same email, whatever its case, with 409', async () => {
    await t.admin
      .post('/v1/admin/users', { email: 'twice@example.com', displayName: 'One' })
      .expect(201);
    const res = await t.admin
      .post('/v1/admin/users', { email: 'TWICE@example.com', displayName: 'Two' })
      .expect(409);
    expect(res.body.error.message).toContain('twice@example.com');
  });

  it.each([
    [{ email: 'not-an-email', displayName: 'X' }, 'email'],
    [{ email: 'a@example.com' }, 'displayName'],
    [{ email: 'a@example.com', displayName: '' }, 'displayName'],
    [{ email: 'a@example.com', displayName: 'X', role: 'admin' }, 'role'],
  ])('refuses %j with 400 naming %s', async (body, field) => {
    const res = await t.admin.post('/v1/admin/users', body).expect(400);
    expect(res.body).toEqual({ error: { code: 400, message: expect.stringContaining(field) } });
  });

  it('issues more tokens; each works', async () => {
    const user = await t.factories.user();
    const res = await t.admin
      .post(`/v1/admin/users/${user.id}/tokens`, { label: 'ci' })
      .expect(201);
    expect(res.body.token).not.toBe(user.token);
    await t.as(res.body.token).get('/v1/user').expect(200);
    await user.client.get('/v1/user').expect(200);
  });

  it('answers 404 for tokens or updates of an unknown user', async () => {
    await t.admin.post('/v1/admin/users/nobody/tokens', {}).expect(404);
    await t.admin.patch('/v1/admin/users/nobody', { disabled: true }).expect(404);
  });

  it('refuses a PATCH without a boolean disabled with 400', async () => {
    const user = await t.factories.user();
    await t.admin.patch(`/v1/admin/users/${user.id}`, { disabled: 'yes' }).expect(400);
    await t.admin.patch(`/v1/admin/users/${user.id}`, {}).expect(400);
  });

  it('lists users with their state', async () => {
    const user = await t.factories.user();
    await t.admin.patch(`/v1/admin/users/${user.id}`, { disabled: true }).expect(200);
    const res = await t.admin.get('/v1/admin/users?limit=1000').expect(200);
    const listed = res.body.items.find((u: { id: string }) => u.id === user.id);
    expect(listed).toEqual(
      expect.objectContaining({ disabled: true, createdAt: expect.any(String) }),
    );
    expect(res.body.count).toBe(res.body.items.length);
  });
});
