import { AuditEvent } from '../src/audit/entities/audit-event.entity';
import { OutboxEvent } from '../src/platform/events/outbox-event.entity';
import { createTestApp, TestApp } from './helpers/app';
import { BINDERY_DOCUMENT, expectConforms } from './helpers/conformance';

/**
 * The instance administrator's user writes beyond creating and disabling (test/users.e2e-spec.ts):
 * renaming, changing the address, and deleting a user, whose content keeps its author.
 */
describe('admin API: updating and deleting users', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const auditEvents = (operationId: string, targetId: string) =>
    t.dataSource.getRepository(AuditEvent).findBy({ operationId, targetId });

  describe('adminUpdateUser', () => {
    it('renames a user: its own reads show the new name at once', async () => {
      const user = await t.factories.user();
      await user.client.get('/v1/user').expect(200);
      const res = await t.admin
        .patch(`/v1/admin/users/${user.id}`, { displayName: '  Ada King ' })
        .expect(200);
      expectConforms(res, 'adminUpdateUser', BINDERY_DOCUMENT);
      expect(res.body).toEqual(
        expect.objectContaining({ id: user.id, displayName: 'Ada King', disabled: false }),
      );
      const me = await user.client.get('/v1/user').expect(200);
      expect(me.body.displayName).toBe('Ada King');
      expect(await auditEvents('adminUpdateUser', user.id)).toEqual([
        expect.objectContaining({ action: 'user.updated', actorId: 'admin', targetType: 'user' }),
      ]);
    });

    it('changes the address, lower-cased; the old one is free, another user’s is refused with 409', async () => {
      const user = await t.factories.user();
      const other = await t.factories.user();
      const res = await t.admin
        .patch(`/v1/admin/users/${user.id}`, { email: 'Ada.New@Example.COM' })
        .expect(200);
      expectConforms(res, 'adminUpdateUser', BINDERY_DOCUMENT);
      expect(res.body.email).toBe('ada.new@example.com');
      expect((await user.client.get('/v1/user').expect(200)).body.email).toBe(
        'ada.new@example.com',
      );

      const taken = await t.admin
        .patch(`/v1/admin/users/${other.id}`, { email: 'ADA.NEW@example.com' })
        .expect(409);
      expectConforms(taken, 'adminUpdateUser', BINDERY_DOCUMENT);
      expect(taken.body).toEqual({
        error: { code: 409, message: expect.stringContaining('ada.new@example.com') },
      });
      // Its own address again is no conflict; the old one can go to a new user.
      await t.admin
        .patch(`/v1/admin/users/${user.id}`, { email: 'ada.new@example.com' })
        .expect(200);
      await t.admin
        .post('/v1/admin/users', { email: user.email, displayName: 'Newcomer' })
        .expect(201);
    });

    it.each([
      [{}, 'at least one'],
      [{ displayName: '' }, 'displayName'],
      [{ displayName: '   ' }, 'displayName'],
      [{ displayName: null }, 'displayName'],
      [{ displayName: 'x'.repeat(256) }, 'displayName'],
      [{ email: 'not-an-email' }, 'email'],
      [{ email: null }, 'email'],
      [{ disabled: 'yes' }, 'disabled'],
      [{ displayName: 'Fine', role: 'admin' }, 'role'],
    ])('refuses %j with 400 naming %s', async (body, field) => {
      const user = await t.factories.user();
      const res = await t.admin.patch(`/v1/admin/users/${user.id}`, body).expect(400);
      expect(res.body).toEqual({ error: { code: 400, message: expect.stringContaining(field) } });
      expectConforms(res, 'adminUpdateUser', BINDERY_DOCUMENT);
    });

    it('answers 404 for an unknown user', async () => {
      const res = await t.admin.patch('/v1/admin/users/nobody', { displayName: 'X' }).expect(404);
      expect(res.body.error.code).toBe(404);
      expectConforms(res, 'adminUpdateUser', BINDERY_DOCUMENT);
    });

    it('answers 403 to a user token, itself included', async () => {
      const user = await t.factories.user();
      const res = await user.client
        .patch(`/v1/admin/users/${user.id}`, { displayName: 'Me' })
        .expect(403);
      expectConforms(res, 'adminUpdateUser', BINDERY_DOCUMENT);
    });
  });

  describe('adminDeleteUser', () => {
    it('stops the user at once, removes its memberships and keeps its content attributed', async () => {
      const org = await t.factories.organization();
      const author = await t.factories.member(org, 'edit');
      const space = await t.factories.space(org);
      const comment = await t.factories.comment(org, space.id, {
        by: author.client,
        body: { markdown: 'Looks good.' },
      });
      const changeRequest = await t.factories.changeRequest(org, space.id, {
        by: author.client,
        subject: 'Their change',
      });
      await author.client.get('/v1/user').expect(200);

      const res = await t.admin.delete(`/v1/admin/users/${author.id}`).expect(204);
      expectConforms(res, 'adminDeleteUser', BINDERY_DOCUMENT);

      // Its token is refused at once (the token cache forgets it), and stays refused.
      await author.client.get('/v1/user').expect(401);
      await author.client.get(`/v1/spaces/${space.id}`).expect(401);

      // Its comment and change request still present it as author.
      const comments = await org.owner.client.get(`/v1/spaces/${space.id}/comments`).expect(200);
      expectConforms(comments, 'listCommentsInSpace');
      const listed = comments.body.items.find((c: { id: string }) => c.id === comment.id);
      expect(listed.postedBy).toEqual(
        expect.objectContaining({ object: 'user', id: author.id, displayName: author.displayName }),
      );
      const one = await org.owner.client
        .get(`/v1/spaces/${space.id}/comments/${comment.id}`)
        .expect(200);
      expectConforms(one, 'getCommentInSpace');
      expect(one.body.postedBy.id).toBe(author.id);
      const cr = await org.owner.client
        .get(`/v1/spaces/${space.id}/change-requests/${changeRequest.id}`)
        .expect(200);
      expectConforms(cr, 'getChangeRequestById');
      expect(cr.body.createdBy).toEqual(
        expect.objectContaining({ object: 'user', id: author.id, displayName: author.displayName }),
      );

      // No longer a member, nor listed; its address is free for someone else.
      await org.owner.client.get(`/v1/orgs/${org.id}/members/${author.id}`).expect(404);
      const users = await t.admin.get('/v1/admin/users?limit=1000').expect(200);
      expect(users.body.items.map((u: { id: string }) => u.id)).not.toContain(author.id);
      await t.admin
        .post('/v1/admin/users', { email: author.email, displayName: 'Someone else' })
        .expect(201);

      // The instance administrator's write is audited.
      expect(await auditEvents('adminDeleteUser', author.id)).toEqual([
        expect.objectContaining({ action: 'user.deleted', actorId: 'admin', targetType: 'user' }),
      ]);
    });

    it('ends its memberships as removals: member_removed in each of its organizations, by the system', async () => {
      const first = await t.factories.organization();
      const second = await t.factories.organization();
      const user = await t.factories.member(first, 'edit');
      await second.owner.client
        .post(`/v1/orgs/${second.id}/invites`, { emails: [user.email], role: 'read' })
        .expect(200);
      const removals = async (organizationId: string) =>
        t.dataSource
          .getRepository(OutboxEvent)
          .findBy({ organizationId, type: 'member_removed', resourceKey: `member:${user.id}` });
      expect(await removals(first.id)).toEqual([]);

      await t.admin.delete(`/v1/admin/users/${user.id}`).expect(204);

      const [inFirst] = await removals(first.id);
      expect(inFirst.payload).toMatchObject({
        actor: { kind: 'system' },
        userId: user.id,
        member: { object: 'member', role: 'edit', user: { id: user.id } },
      });
      const [inSecond] = await removals(second.id);
      expect(inSecond.payload).toMatchObject({ member: { role: 'read' } });
      await first.owner.client.get(`/v1/orgs/${first.id}/members/${user.id}`).expect(404);
      await second.owner.client.get(`/v1/orgs/${second.id}/members/${user.id}`).expect(404);
    });

    it('treats a deleted user as unknown: 404 to deleting, updating it or giving it a token', async () => {
      const user = await t.factories.user();
      await t.admin.delete(`/v1/admin/users/${user.id}`).expect(204);
      const again = await t.admin.delete(`/v1/admin/users/${user.id}`).expect(404);
      expectConforms(again, 'adminDeleteUser', BINDERY_DOCUMENT);
      await t.admin.patch(`/v1/admin/users/${user.id}`, { disabled: false }).expect(404);
      await t.admin.post(`/v1/admin/users/${user.id}/tokens`, {}).expect(404);
      await t.admin.get(`/v1/admin/users/${user.id}/tokens`).expect(404);
    });

    it('refuses with 409 to delete the last admin of an organization', async () => {
      const org = await t.factories.organization();
      const res = await t.admin.delete(`/v1/admin/users/${org.owner.id}`).expect(409);
      expectConforms(res, 'adminDeleteUser', BINDERY_DOCUMENT);
      expect(res.body.error.message).toContain(org.id);
      await org.owner.client.get('/v1/user').expect(200);

      // With another admin, it goes.
      await t.factories.member(org, 'admin');
      await t.admin.delete(`/v1/admin/users/${org.owner.id}`).expect(204);
    });

    it('answers 404 for an unknown user and 403 to a user token', async () => {
      const missing = await t.admin.delete('/v1/admin/users/nobody').expect(404);
      expectConforms(missing, 'adminDeleteUser', BINDERY_DOCUMENT);
      const user = await t.factories.user();
      const other = await t.factories.user();
      const refused = await user.client.delete(`/v1/admin/users/${other.id}`).expect(403);
      expectConforms(refused, 'adminDeleteUser', BINDERY_DOCUMENT);
      await other.client.get('/v1/user').expect(200);
    });
  });
});
