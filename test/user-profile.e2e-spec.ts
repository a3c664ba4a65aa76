import { createTestApp, TestApp } from './helpers/app';
import { expectConforms, GITBOOK_0202 } from './helpers/conformance';

/** updateUserById: users change their own profile; the instance administrator anyone's. */

function expectError(res: { status: number; body: unknown }, code: number, text: string) {
  expect(res.status).toBe(code);
  expect(res.body).toEqual({ error: { code, message: expect.stringContaining(text) } });
}

describe('updateUserById', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('changes the caller’s own display name and picture, seen by others', async () => {
    const org = await t.factories.organization();
    const ada = await t.factories.member(org, 'read');
    const colleague = await t.factories.asMember(org, 'read');

    const res = await ada.client
      .patch(`/v1/users/${ada.id}`, {
        displayName: '  Ada Lovelace ',
        photoURL: 'https://example.com/ada.png',
      })
      .expect(200);
    expectConforms(res, 'updateUserById', GITBOOK_0202);
    expect(res.body).toMatchObject({
      object: 'user',
      id: ada.id,
      displayName: 'Ada Lovelace',
      email: ada.email,
      photoURL: 'https://example.com/ada.png',
    });
    // Read back: by the user itself (its token's cached user is refreshed), and by a colleague.
    const me = await ada.client.get('/v1/user').expect(200);
    expect(me.body).toEqual(res.body);
    const seen = await colleague.get(`/v1/users/${ada.id}`).expect(200);
    expect(seen.body).toMatchObject({
      displayName: 'Ada Lovelace',
      photoURL: 'https://example.com/ada.png',
    });

    // One field at a time leaves the other.
    const renamed = await ada.client
      .patch(`/v1/users/${ada.id}`, { displayName: 'Ada King' })
      .expect(200);
    expect(renamed.body).toMatchObject({
      displayName: 'Ada King',
      photoURL: 'https://example.com/ada.png',
    });
    // The change is in the audit log of no organization, but as the user's own action.
    const rows: { action: string; target_id: string }[] = await t.dataSource.query(
      `SELECT action, target_id FROM audit_events WHERE operation_id = 'updateUserById' AND target_id = $1`,
      [ada.id],
    );
    expect(rows.length).toBeGreaterThan(0);
    expect(rows[0].action).toBe('user.updated');
  });

  it('lets the instance administrator change any user’s profile', async () => {
    const user = await t.factories.user();
    const res = await t.admin.patch(`/v1/users/${user.id}`, { displayName: 'Grace' }).expect(200);
    expectConforms(res, 'updateUserById', GITBOOK_0202);
    expect(res.body).toMatchObject({ id: user.id, displayName: 'Grace' });
    expect((await user.client.get('/v1/user').expect(200)).body.displayName).toBe('Grace');
    expectError(await t.admin.patch('/v1/users/nope', { displayName: 'X' }), 404, 'User not found');
    // A deleted user is not found.
    const gone = await t.factories.user();
    await t.admin.delete(`/v1/admin/users/${gone.id}`).expect(204);
    expectError(
      await t.admin.patch(`/v1/users/${gone.id}`, { displayName: 'X' }),
      404,
      'User not found',
    );
  });

  it('refuses bad input', async () => {
    const user = await t.factories.user();
    const path = `/v1/users/${user.id}`;
    expectError(await user.client.patch(path, {}), 400, 'at least one');
    expectError(await user.client.patch(path, { displayName: '' }), 400, 'displayName');
    expectError(await user.client.patch(path, { displayName: '   ' }), 400, 'blank');
    expectError(await user.client.patch(path, { displayName: 'x'.repeat(65) }), 400, 'displayName');
    expectError(await user.client.patch(path, { displayName: null }), 400, 'displayName');
    expectError(await user.client.patch(path, { photoURL: 'not a url' }), 400, 'photoURL');
    expectError(
      await user.client.patch(path, { photoURL: 'javascript:alert(1)' }),
      400,
      'photoURL',
    );
    expectError(await user.client.patch(path, { email: 'x@example.com' }), 400, 'email');
    // Nothing changed.
    const me = await user.client.get('/v1/user').expect(200);
    expect(me.body.displayName).toBe(user.displayName);
    expect(me.body.photoURL).toBeUndefined();
  });

  it("refuses another user's profile: 403 when the caller sees them, 404 otherwise", async () => {
    const org = await t.factories.organization();
    const target = await t.factories.member(org, 'read');
    const admin = org.owner; // an organization admin is no instance administrator
    expectError(
      await admin.client.patch(`/v1/users/${target.id}`, { displayName: 'Hijacked' }),
      403,
      'your own profile',
    );
    const stranger = await t.factories.user();
    expectError(
      await stranger.client.patch(`/v1/users/${target.id}`, { displayName: 'Hijacked' }),
      404,
      'User not found',
    );
    expectError(
      await stranger.client.patch('/v1/users/nope', { displayName: 'Hijacked' }),
      404,
      'User not found',
    );
    const unchanged = await admin.client.get(`/v1/users/${target.id}`).expect(200);
    expect(unchanged.body.displayName).toBe(target.displayName);

    // A read-only token of the user itself does not write.
    const token = await target.client
      .post('/v1/user/tokens', { label: 'ro', scopes: { access: 'read-only' } })
      .expect(201);
    const readOnly = await t.as(token.body.token as string).patch(`/v1/users/${target.id}`, {
      displayName: 'Ro',
    });
    expect(readOnly.status).toBe(403);
  });
});
