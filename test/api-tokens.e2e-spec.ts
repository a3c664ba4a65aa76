import { createTestApp, TEST_ADMIN_TOKEN, TestApp } from './helpers/app';
import { BINDERY_DOCUMENT, expectConforms } from './helpers/conformance';

/**
 * API tokens a user manages (Bindery's own operations): create with a label and an expiry
 * (the secret shown once), list (never the secret), revoke (the next request fails), expiry,
 * last use; and the administrator's list and revoke of any user's tokens.
 */
describe('API tokens', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  // Each test at a time of its own that moves only when it says so.
  beforeEach(() => t.clock.set(new Date(Date.now() + 1000)));

  const inOneDay = () => new Date(t.clock.now().getTime() + 86_400_000).toISOString();

  describe('a user’s own (createUserToken, listUserTokens, revokeUserToken)', () => {
    it('creates a token that works, shows it once, and lists it without its secret', async () => {
      const user = await t.factories.user();
      const expiresAt = inOneDay();
      const res = await user.client.post('/v1/user/tokens', { label: 'CI', expiresAt }).expect(201);
      expect(res.body).toEqual({
        object: 'api-token',
        id: expect.any(String),
        label: 'CI',
        createdAt: t.clock.now().toISOString(),
        expiresAt,
        scopes: { access: 'read-write' },
        token: expect.stringMatching(/^bnd_[A-Za-z0-9_-]{20,}$/),
      });
      const me = await t
        .as(res.body.token as string)
        .get('/v1/user')
        .expect(200);
      expectConforms(me, 'getAuthenticatedUser');
      expect(me.body.id).toBe(user.id);

      const list = await user.client.get('/v1/user/tokens').expect(200);
      const listed = (list.body.items as Record<string, unknown>[]).find(
        (token) => token.id === res.body.id,
      );
      expect(listed).toEqual({
        object: 'api-token',
        id: res.body.id,
        label: 'CI',
        createdAt: res.body.createdAt,
        expiresAt,
        lastUsedAt: t.clock.now().toISOString(),
        scopes: { access: 'read-write' },
      });
      expect(JSON.stringify(list.body)).not.toContain('bnd_');
    });

    it('lists only the caller’s tokens, newest first, a page at a time', async () => {
      const user = await t.factories.user();
      const other = await t.factories.user();
      for (const label of ['one', 'two', 'three']) {
        t.clock.advance(1000);
        await user.client.post('/v1/user/tokens', { label }).expect(201);
      }
      await other.client.post('/v1/user/tokens', { label: 'theirs' }).expect(201);
      const first = await user.client.get('/v1/user/tokens?limit=2').expect(200);
      expect(first.body.items.map((token: { label?: string }) => token.label)).toEqual([
        'three',
        'two',
      ]);
      const rest = await user.client
        .get(`/v1/user/tokens?limit=2&page=${first.body.next.page as string}`)
        .expect(200);
      // The factory's own token comes last.
      expect(rest.body.items.map((token: { label?: string }) => token.label)).toHaveLength(2);
      expect(rest.body.items[0].label).toBe('one');
      expect(rest.body.next).toBeUndefined();
    });

    it('revokes a token: the next request with it is refused', async () => {
      const user = await t.factories.user();
      const created = await user.client.post('/v1/user/tokens', { label: 'gone' }).expect(201);
      const token = created.body.token as string;
      await t.as(token).get('/v1/user').expect(200);
      await user.client.delete(`/v1/user/tokens/${created.body.id as string}`).expect(204);
      await t.as(token).get('/v1/user').expect(401);
      const list = await user.client.get('/v1/user/tokens').expect(200);
      expect(list.body.items.map((item: { id: string }) => item.id)).not.toContain(created.body.id);
      // A token may revoke itself.
      const self = await user.client.post('/v1/user/tokens', {}).expect(201);
      await t
        .as(self.body.token as string)
        .delete(`/v1/user/tokens/${self.body.id as string}`)
        .expect(204);
      await t
        .as(self.body.token as string)
        .get('/v1/user')
        .expect(401);
    });

    it('stops a token at its expiry', async () => {
      const user = await t.factories.user();
      const created = await user.client
        .post('/v1/user/tokens', { expiresAt: inOneDay() })
        .expect(201);
      await t
        .as(created.body.token as string)
        .get('/v1/user')
        .expect(200);
      t.clock.advance(86_400_000);
      await t
        .as(created.body.token as string)
        .get('/v1/user')
        .expect(401);
    });

    it('records the last use to the minute', async () => {
      const user = await t.factories.user();
      const created = await user.client.post('/v1/user/tokens', {}).expect(201);
      const lastUsed = async () =>
        (
          (await user.client.get('/v1/user/tokens').expect(200)).body.items as {
            id: string;
            lastUsedAt?: string;
          }[]
        ).find((token) => token.id === created.body.id)!.lastUsedAt;
      expect(await lastUsed()).toBeUndefined();
      const used = t.clock.now().toISOString();
      await t
        .as(created.body.token as string)
        .get('/v1/user')
        .expect(200);
      t.clock.advance(30_000);
      await t
        .as(created.body.token as string)
        .get('/v1/user')
        .expect(200);
      expect(await lastUsed()).toBe(used);
      t.clock.advance(30_000);
      await t
        .as(created.body.token as string)
        .get('/v1/user')
        .expect(200);
      expect(await lastUsed()).toBe(t.clock.now().toISOString());
    });

    it('refuses bad input with 400', async () => {
      const user = await t.factories.user();
      const bad = [
        { label: '' },
        { label: 'x'.repeat(101) },
        { label: 3 },
        { expiresAt: 'tomorrow' },
        { expiresAt: new Date(t.clock.now().getTime() - 1000).toISOString() },
        { scopes: 'all' },
      ];
      for (const body of bad) {
        const res = await user.client.post('/v1/user/tokens', body).expect(400);
        expect(res.body).toEqual({
          error: { code: 400, message: expect.any(String) },
        });
      }
      await user.client.get('/v1/user/tokens?limit=0').expect(400);
    });

    it('answers 404 for a token that is not the caller’s, and 401 without a token', async () => {
      const user = await t.factories.user();
      const other = await t.factories.user();
      const theirs = await other.client.post('/v1/user/tokens', {}).expect(201);
      const res = await user.client
        .delete(`/v1/user/tokens/${theirs.body.id as string}`)
        .expect(404);
      expect(res.body).toEqual({ error: { code: 404, message: 'API token not found.' } });
      await user.client.delete('/v1/user/tokens/unknown').expect(404);
      await t
        .as(theirs.body.token as string)
        .get('/v1/user')
        .expect(200);
      await t.anonymous.get('/v1/user/tokens').expect(401);
      await t.anonymous.post('/v1/user/tokens', {}).expect(401);
    });
  });

  describe('the administrator’s (adminListUserTokens, adminRevokeUserToken)', () => {
    it('lists and revokes any user’s tokens', async () => {
      const user = await t.factories.user();
      const created = await t.admin
        .post(`/v1/admin/users/${user.id}/tokens`, { label: 'deploy', expiresAt: inOneDay() })
        .expect(201);
      expect(created.body).toMatchObject({ object: 'api-token', label: 'deploy' });
      const list = await t.admin.get(`/v1/admin/users/${user.id}/tokens`).expect(200);
      expect(list.body.items.map((token: { id: string }) => token.id)).toContain(created.body.id);
      await t.admin
        .delete(`/v1/admin/users/${user.id}/tokens/${created.body.id as string}`)
        .expect(204);
      await t
        .as(created.body.token as string)
        .get('/v1/user')
        .expect(401);
    });

    it('answers 404 for unknown users and tokens, 400 for bad input, 403 to users', async () => {
      const user = await t.factories.user();
      await t.admin.get('/v1/admin/users/nobody/tokens').expect(404);
      await t.admin.delete(`/v1/admin/users/${user.id}/tokens/unknown`).expect(404);
      await t.admin.post(`/v1/admin/users/${user.id}/tokens`, { expiresAt: 'soon' }).expect(400);
      await user.client.get(`/v1/admin/users/${user.id}/tokens`).expect(403);
      await user.client.delete(`/v1/admin/users/${user.id}/tokens/x`).expect(403);
    });
  });

  it("answers every token operation in the shape Bindery's API document declares", async () => {
    const user = await t.factories.user();
    const admin = t.as(TEST_ADMIN_TOKEN);
    const check = (res: { status: number; body: unknown }, operationId: string) =>
      expectConforms(res, operationId, BINDERY_DOCUMENT);
    const mine = await user.client
      .post('/v1/user/tokens', { label: 'mine', scopes: { access: 'read-only' } })
      .expect(201);
    check(mine, 'createUserToken');
    check(await user.client.get('/v1/user/tokens').expect(200), 'listUserTokens');
    check(
      await user.client.delete(`/v1/user/tokens/${mine.body.id as string}`).expect(204),
      'revokeUserToken',
    );
    const theirs = await admin.post(`/v1/admin/users/${user.id}/tokens`, {}).expect(201);
    check(theirs, 'adminCreateUserToken');
    check(await admin.get(`/v1/admin/users/${user.id}/tokens`).expect(200), 'adminListUserTokens');
    check(
      await admin
        .delete(`/v1/admin/users/${user.id}/tokens/${theirs.body.id as string}`)
        .expect(204),
      'adminRevokeUserToken',
    );
  });
});
