import { randomBytes } from 'node:crypto';
import { TestOrganization } from './helpers/factories';
import { createTestApp, TEST_PUBLIC_URL, TestApp } from './helpers/app';
import { expectConforms } from './helpers/conformance';

const unique = () => randomBytes(4).toString('hex');

describe('invites and joining', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** The membership as stored, or null. */
  async function membership(organizationId: string, userId: string) {
    const rows: { role: string | null; sso: boolean; disabled: boolean }[] =
      await t.dataSource.query(
        'SELECT role, sso, disabled FROM organization_members WHERE organization_id = $1 AND user_id = $2',
        [organizationId, userId],
      );
    return rows[0] ?? null;
  }

  async function memberCount(organizationId: string): Promise<number> {
    const [row] = await t.dataSource.query(
      'SELECT count(*)::int AS n FROM organization_members WHERE organization_id = $1',
      [organizationId],
    );
    return row.n;
  }

  async function disable(organizationId: string, userId: string) {
    await t.dataSource.query(
      'UPDATE organization_members SET disabled = true WHERE organization_id = $1 AND user_id = $2',
      [organizationId, userId],
    );
  }

  async function createInvite(org: TestOrganization, role: string | null): Promise<string> {
    const res = await org.owner.client
      .post(`/v1/orgs/${org.id}/link-invites`, { role })
      .expect(201);
    return res.body.id;
  }

  describe('POST /v1/orgs/{organizationId}/invites (inviteUsersToOrganization)', () => {
    it('adds existing users with their roles and invites unknown addresses', async () => {
      const org = await t.factories.organization();
      const ada = await t.factories.user({ email: `ada-${unique()}@example.com` });
      const grace = await t.factories.user();
      const guest = await t.factories.user();
      const unknown = `nobody-${unique()}@Example.com`;
      const res = await org.owner.client
        .post(`/v1/orgs/${org.id}/invites`, {
          emails: [
            ada.email.toUpperCase(),
            { email: grace.email, role: 'admin' },
            { email: guest.email, role: null },
            unknown,
            ada.email,
          ],
          role: 'comment',
        })
        .expect(200);
      expectConforms(res, 'inviteUsersToOrganization');
      expect(res.body).toEqual({
        users: [ada.id, grace.id, guest.id],
        invited: 4,
        pendingInvites: [
          expect.objectContaining({
            object: 'email-invite',
            email: unknown.toLowerCase(),
            role: 'comment',
            invitedBy: org.owner.id,
            url: expect.stringMatching(/\/v1\/invitations\/[\w-]+\?expires=\d+&signature=/),
          }),
        ],
        emailSent: false,
      });
      expect(await membership(org.id, ada.id)).toEqual({
        role: 'comment',
        sso: false,
        disabled: false,
      });
      expect((await membership(org.id, grace.id))?.role).toBe('admin');
      expect(await membership(org.id, guest.id)).toEqual(
        expect.objectContaining({ role: null, disabled: false }),
      );
      const seen = await grace.client.get(`/v1/orgs/${org.id}`).expect(200);
      expect(seen.body.permissions.admin).toBe(true);
    });

    it("gives plain addresses the organization's default role when no role is sent", async () => {
      const org = await t.factories.organization();
      await org.owner.client.patch(`/v1/orgs/${org.id}`, { defaultRole: 'edit' }).expect(200);
      const editor = await t.factories.user();
      await org.owner.client
        .post(`/v1/orgs/${org.id}/invites`, { emails: [editor.email] })
        .expect(200);
      expect((await membership(org.id, editor.id))?.role).toBe('edit');

      await org.owner.client.patch(`/v1/orgs/${org.id}`, { defaultRole: null }).expect(200);
      const guest = await t.factories.user();
      await org.owner.client
        .post(`/v1/orgs/${org.id}/invites`, { emails: [guest.email] })
        .expect(200);
      expect(await membership(org.id, guest.id)).toEqual(expect.objectContaining({ role: null }));
    });

    it('adds SSO members when sso is true', async () => {
      const org = await t.factories.organization();
      const user = await t.factories.user();
      await org.owner.client
        .post(`/v1/orgs/${org.id}/invites`, { emails: [user.email], sso: true })
        .expect(200);
      expect(await membership(org.id, user.id)).toEqual({
        role: 'read',
        sso: true,
        disabled: false,
      });
    });

    it('leaves members as they are, without counting them', async () => {
      const org = await t.factories.organization();
      const reader = await t.factories.member(org, 'read');
      const disabled = await t.factories.member(org, 'edit');
      await disable(org.id, disabled.id);
      const res = await org.owner.client
        .post(`/v1/orgs/${org.id}/invites`, {
          emails: [reader.email, disabled.email, org.owner.email],
          role: 'admin',
        })
        .expect(200);
      expectConforms(res, 'inviteUsersToOrganization');
      expect(res.body).toEqual({ users: [], invited: 0, pendingInvites: [], emailSent: false });
      expect((await membership(org.id, reader.id))?.role).toBe('read');
      expect(await membership(org.id, disabled.id)).toEqual(
        expect.objectContaining({ role: 'edit', disabled: true }),
      );
      expect(await memberCount(org.id)).toBe(3);
    });

    it.each([
      ['no emails', {}, 'emails'],
      ['an empty list', { emails: [] }, 'emails'],
      ['a string', { emails: 'ada@example.com' }, 'emails'],
      ['101 addresses', { emails: Array<string>(101).fill('ada@example.com') }, 'emails'],
      ['a bad address', { emails: ['ada@example.com', 'not-an-address'] }, 'emails.1'],
      ['an item without role', { emails: [{ email: 'ada@example.com' }] }, 'emails.0.role'],
      [
        'an item with an unknown role',
        { emails: [{ email: 'ada@example.com', role: 'owner' }] },
        'emails.0.role',
      ],
      [
        'an item with an unknown field',
        { emails: [{ email: 'ada@example.com', role: 'read', team: 'x' }] },
        'emails.0.team',
      ],
      ['an unknown role', { emails: ['ada@example.com'], role: 'owner' }, 'role'],
      ['sso null', { emails: ['ada@example.com'], sso: null }, 'sso'],
      ['sso a string', { emails: ['ada@example.com'], sso: 'yes' }, 'sso'],
      ['an unknown field', { emails: ['ada@example.com'], teams: [] }, 'teams'],
    ])('refuses %s with 400 naming %s, adding no one', async (_label, body, field) => {
      const org = await t.factories.organization();
      await t.factories.user({ email: `ada-${unique()}@example.com` });
      const res = await org.owner.client.post(`/v1/orgs/${org.id}/invites`, body).expect(400);
      expect(res.body).toEqual({ error: { code: 400, message: expect.stringContaining(field) } });
      expectConforms(res, 'inviteUsersToOrganization');
      expect(await memberCount(org.id)).toBe(1);
    });

    it('answers 404 for an unknown organization and for an admin of another one', async () => {
      const org = await t.factories.organization();
      const stranger = await t.factories.organization();
      const user = await t.factories.user();
      const hidden = await stranger.owner.client
        .post(`/v1/orgs/${org.id}/invites`, { emails: [user.email] })
        .expect(404);
      const unknown = await stranger.owner.client
        .post('/v1/orgs/no-such-org/invites', { emails: [user.email] })
        .expect(404);
      expect(hidden.body).toEqual(unknown.body);
      expect(await membership(org.id, user.id)).toBeNull();
    });

    it.each([['create'], ['read']] as const)('answers 403 to a %s member', async (role) => {
      const org = await t.factories.organization();
      const member = await t.factories.asMember(org, role);
      const user = await t.factories.user();
      await member.post(`/v1/orgs/${org.id}/invites`, { emails: [user.email] }).expect(403);
      expect(await membership(org.id, user.id)).toBeNull();
    });
  });

  describe('POST /v1/orgs/{organizationId}/link-invites (createOrganizationInvite)', () => {
    it('creates an invite link, readable and listed afterwards', async () => {
      const org = await t.factories.organization();
      const res = await org.owner.client
        .post(`/v1/orgs/${org.id}/link-invites`, { role: 'edit' })
        .expect(201);
      expectConforms(res, 'createOrganizationInvite');
      expect(res.body).toEqual({
        object: 'invite',
        id: expect.any(String),
        role: 'edit',
        redundant: true,
        urls: {
          location: `${TEST_PUBLIC_URL}/v1/orgs/${org.id}/link-invites/${res.body.id}`,
          app: `${TEST_PUBLIC_URL}/invite/${org.id}/${res.body.id}`,
        },
      });
      const read = await org.owner.client
        .get(`/v1/orgs/${org.id}/link-invites/${res.body.id}`)
        .expect(200);
      expect(read.body).toEqual(res.body);
      const list = await org.owner.client.get(`/v1/orgs/${org.id}/link-invites`).expect(200);
      expect(list.body.items).toEqual([res.body]);
    });

    it('creates a guest invite with role null', async () => {
      const org = await t.factories.organization();
      const res = await org.owner.client
        .post(`/v1/orgs/${org.id}/link-invites`, { role: null })
        .expect(201);
      expectConforms(res, 'createOrganizationInvite');
      expect(res.body.role).toBeNull();
    });

    it.each([
      [{}, 'role'],
      [{ role: 'owner' }, 'role'],
      [{ role: 'read', expiresAt: '2030-01-01' }, 'expiresAt'],
      [{ role: 'read', level: 'read' }, 'level'],
      [{ level: 'read', space: 'space123' }, 'space space123 not found'],
      [{ level: 'read', collection: 'col123' }, 'collection col123 not found'],
      [{ space: 'space123' }, 'space space123 not found'], // level defaults to read
    ])('refuses %j with 400 naming %s, creating nothing', async (body, field) => {
      const org = await t.factories.organization();
      const res = await org.owner.client.post(`/v1/orgs/${org.id}/link-invites`, body).expect(400);
      expect(res.body).toEqual({ error: { code: 400, message: expect.stringContaining(field) } });
      const list = await org.owner.client.get(`/v1/orgs/${org.id}/link-invites`).expect(200);
      expect(list.body.count).toBe(0);
    });

    it('answers 404 for an unknown organization and for an admin of another one', async () => {
      const org = await t.factories.organization();
      const stranger = await t.factories.organization();
      const hidden = await stranger.owner.client
        .post(`/v1/orgs/${org.id}/link-invites`, { role: 'read' })
        .expect(404);
      const unknown = await stranger.owner.client
        .post('/v1/orgs/no-such-org/link-invites', { role: 'read' })
        .expect(404);
      expect(hidden.body).toEqual(unknown.body);
      const list = await org.owner.client.get(`/v1/orgs/${org.id}/link-invites`).expect(200);
      expect(list.body.count).toBe(0);
    });

    it.each([['create'], ['read']] as const)('answers 403 to a %s member', async (role) => {
      const org = await t.factories.organization();
      const member = await t.factories.asMember(org, role);
      await member.post(`/v1/orgs/${org.id}/link-invites`, { role: 'read' }).expect(403);
    });
  });

  describe('GET /v1/orgs/{organizationId}/link-invites (listOrganizationInviteLinks)', () => {
    it("lists the organization's invites only, newest first, across pages", async () => {
      const org = await t.factories.organization();
      const created: string[] = [];
      for (let i = 0; i < 3; i++) {
        t.clock.set(new Date(Date.UTC(2026, 6, 1, 0, 0, i)));
        created.push(await createInvite(org, 'read'));
      }
      await createInvite(await t.factories.organization(), 'read'); // someone else's
      const first = await org.owner.client
        .get(`/v1/orgs/${org.id}/link-invites?limit=2`)
        .expect(200);
      expectConforms(first, 'listOrganizationInviteLinks');
      expect(first.body.count).toBe(3);
      expect(first.body.items.map((i: { id: string }) => i.id)).toEqual([created[2], created[1]]);
      const second = await org.owner.client
        .get(`/v1/orgs/${org.id}/link-invites?limit=2&page=${first.body.next.page}`)
        .expect(200);
      expectConforms(second, 'listOrganizationInviteLinks');
      expect(second.body.items.map((i: { id: string }) => i.id)).toEqual([created[0]]);
      expect(second.body).not.toHaveProperty('next');
    });

    it.each([
      ['?limit=0', 'limit'],
      ['?limit=1001', 'limit'],
      ['?page=nope', 'page'],
    ])('refuses %s with 400 naming %s', async (search, field) => {
      const org = await t.factories.organization();
      const res = await org.owner.client
        .get(`/v1/orgs/${org.id}/link-invites${search}`)
        .expect(400);
      expect(res.body).toEqual({ error: { code: 400, message: expect.stringContaining(field) } });
    });

    it('answers 404 to an admin of another organization, 403 to a create member', async () => {
      const org = await t.factories.organization();
      await createInvite(org, 'read');
      const stranger = await t.factories.organization();
      await stranger.owner.client.get(`/v1/orgs/${org.id}/link-invites`).expect(404);
      await stranger.owner.client.get('/v1/orgs/no-such-org/link-invites').expect(404);
      const creator = await t.factories.asMember(org, 'create');
      await creator.get(`/v1/orgs/${org.id}/link-invites`).expect(403);
    });
  });

  describe('GET /v1/orgs/{organizationId}/link-invites/{inviteId} (getOrganizationInviteLink)', () => {
    it('shows the invite to anyone holding its id, redundant when they already have its role', async () => {
      const org = await t.factories.organization();
      const editInvite = await createInvite(org, 'edit');
      const guestInvite = await createInvite(org, null);

      const outsider = await t.factories.organization(); // a member of another organization
      const seen = await outsider.owner.client
        .get(`/v1/orgs/${org.id}/link-invites/${editInvite}`)
        .expect(200);
      expectConforms(seen, 'getOrganizationInviteLink');
      expect(seen.body).toEqual(
        expect.objectContaining({ id: editInvite, role: 'edit', redundant: false }),
      );

      const reader = await t.factories.asMember(org, 'read');
      const forReader = await reader.get(`/v1/orgs/${org.id}/link-invites/${editInvite}`);
      expect(forReader.body.redundant).toBe(false);
      const guestForReader = await reader.get(`/v1/orgs/${org.id}/link-invites/${guestInvite}`);
      expect(guestForReader.body.redundant).toBe(true);
      const reviewer = await t.factories.asMember(org, 'review');
      const forReviewer = await reviewer
        .get(`/v1/orgs/${org.id}/link-invites/${editInvite}`)
        .expect(200);
      expect(forReviewer.body.redundant).toBe(true);
    });

    it('answers 404 for an unknown invite, another organization, or an unknown organization', async () => {
      const org = await t.factories.organization();
      const other = await t.factories.organization();
      const invite = await createInvite(org, 'read');
      const unknown = await org.owner.client
        .get(`/v1/orgs/${org.id}/link-invites/no-such-invite`)
        .expect(404);
      expect(unknown.body).toEqual({ error: { code: 404, message: 'Invite not found.' } });
      const elsewhere = await other.owner.client
        .get(`/v1/orgs/${other.id}/link-invites/${invite}`)
        .expect(404);
      expect(elsewhere.body).toEqual(unknown.body);
      await org.owner.client.get(`/v1/orgs/no-such-org/link-invites/${invite}`).expect(404);
    });

    it('hides invites from all but admins while invite links are off', async () => {
      const org = await t.factories.organization();
      const invite = await createInvite(org, 'read');
      await org.owner.client.patch(`/v1/orgs/${org.id}`, { inviteLinks: false }).expect(200);
      const outsider = await t.factories.user();
      await outsider.client.get(`/v1/orgs/${org.id}/link-invites/${invite}`).expect(404);
      const creator = await t.factories.asMember(org, 'create');
      await creator.get(`/v1/orgs/${org.id}/link-invites/${invite}`).expect(404);
      const admin = await org.owner.client
        .get(`/v1/orgs/${org.id}/link-invites/${invite}`)
        .expect(200);
      expect(admin.body.id).toBe(invite);
    });

    it('answers 403 to the administrator token', async () => {
      const org = await t.factories.organization();
      const invite = await createInvite(org, 'read');
      await t.admin.get(`/v1/orgs/${org.id}/link-invites/${invite}`).expect(403);
    });
  });

  describe('PATCH /v1/orgs/{organizationId}/link-invites/{inviteId} (updateOrganizationInviteById)', () => {
    it('changes the role, including to guest', async () => {
      const org = await t.factories.organization();
      const invite = await createInvite(org, 'read');
      const res = await org.owner.client
        .patch(`/v1/orgs/${org.id}/link-invites/${invite}`, { role: 'admin' })
        .expect(200);
      expectConforms(res, 'updateOrganizationInviteById');
      expect(res.body).toEqual(expect.objectContaining({ id: invite, role: 'admin' }));
      const read = await org.owner.client.get(`/v1/orgs/${org.id}/link-invites/${invite}`);
      expect(read.body).toEqual(res.body);

      const guest = await org.owner.client
        .patch(`/v1/orgs/${org.id}/link-invites/${invite}`, { role: null })
        .expect(200);
      expectConforms(guest, 'updateOrganizationInviteById');
      expect(guest.body.role).toBeNull();
    });

    it.each([
      [{}, 'role'],
      [{ role: 'owner' }, 'role'],
      [{ level: 'read' }, 'level'],
      [{ level: 'owner' }, 'level'],
      [{ role: 'read', label: 'x' }, 'label'],
    ])('refuses %j with 400 naming %s, changing nothing', async (body, field) => {
      const org = await t.factories.organization();
      const invite = await createInvite(org, 'comment');
      const res = await org.owner.client
        .patch(`/v1/orgs/${org.id}/link-invites/${invite}`, body)
        .expect(400);
      expect(res.body).toEqual({ error: { code: 400, message: expect.stringContaining(field) } });
      const read = await org.owner.client.get(`/v1/orgs/${org.id}/link-invites/${invite}`);
      expect(read.body.role).toBe('comment');
    });

    it('answers 404 for an unknown invite and for an admin of another organization', async () => {
      const org = await t.factories.organization();
      const invite = await createInvite(org, 'read');
      const unknown = await org.owner.client
        .patch(`/v1/orgs/${org.id}/link-invites/no-such-invite`, { role: 'admin' })
        .expect(404);
      expect(unknown.body).toEqual({ error: { code: 404, message: 'Invite not found.' } });
      const stranger = await t.factories.organization();
      await stranger.owner.client
        .patch(`/v1/orgs/${org.id}/link-invites/${invite}`, { role: 'admin' })
        .expect(404);
      await stranger.owner.client
        .patch(`/v1/orgs/${stranger.id}/link-invites/${invite}`, { role: 'admin' })
        .expect(404);
      const read = await org.owner.client.get(`/v1/orgs/${org.id}/link-invites/${invite}`);
      expect(read.body.role).toBe('read');
    });

    it('answers 403 to a create member', async () => {
      const org = await t.factories.organization();
      const invite = await createInvite(org, 'read');
      const member = await t.factories.asMember(org, 'create');
      await member
        .patch(`/v1/orgs/${org.id}/link-invites/${invite}`, { role: 'admin' })
        .expect(403);
    });
  });

  describe('DELETE /v1/orgs/{organizationId}/link-invites/{inviteId} (deleteOrganizationInviteById)', () => {
    it('deletes the invite, which stops working; 204 again when already gone', async () => {
      const org = await t.factories.organization();
      const invite = await createInvite(org, 'read');
      const res = await org.owner.client
        .delete(`/v1/orgs/${org.id}/link-invites/${invite}`)
        .expect(204);
      expectConforms(res, 'deleteOrganizationInviteById');
      await org.owner.client.get(`/v1/orgs/${org.id}/link-invites/${invite}`).expect(404);
      const user = await t.factories.user();
      await user.client.post(`/v1/orgs/${org.id}/invites/${invite}`).expect(404);
      expect(await membership(org.id, user.id)).toBeNull();
      await org.owner.client.delete(`/v1/orgs/${org.id}/link-invites/${invite}`).expect(204);
      await org.owner.client.delete(`/v1/orgs/${org.id}/link-invites/never-existed`).expect(204);
    });

    it("answers 404 to an admin of another organization and leaves the invite (even through the admin's own organization)", async () => {
      const org = await t.factories.organization();
      const invite = await createInvite(org, 'read');
      const stranger = await t.factories.organization();
      await stranger.owner.client.delete(`/v1/orgs/${org.id}/link-invites/${invite}`).expect(404);
      await stranger.owner.client
        .delete(`/v1/orgs/${stranger.id}/link-invites/${invite}`)
        .expect(204);
      await org.owner.client.get(`/v1/orgs/${org.id}/link-invites/${invite}`).expect(200);
    });

    it('answers 403 to a create member and keeps the invite', async () => {
      const org = await t.factories.organization();
      const invite = await createInvite(org, 'read');
      const member = await t.factories.asMember(org, 'create');
      await member.delete(`/v1/orgs/${org.id}/link-invites/${invite}`).expect(403);
      await org.owner.client.get(`/v1/orgs/${org.id}/link-invites/${invite}`).expect(200);
    });
  });

  describe('POST /v1/orgs/{organizationId}/invites/{inviteId} (joinOrganizationWithInvite)', () => {
    it("makes the caller a member with the invite's role", async () => {
      const org = await t.factories.organization();
      const invite = await createInvite(org, 'edit');
      const user = await t.factories.user();
      const res = await user.client.post(`/v1/orgs/${org.id}/invites/${invite}`).expect(200);
      expectConforms(res, 'joinOrganizationWithInvite');
      expect(res.body).toEqual({});
      expect(await membership(org.id, user.id)).toEqual({
        role: 'edit',
        sso: false,
        disabled: false,
      });
      await user.client.get(`/v1/orgs/${org.id}`).expect(200);
      const after = await user.client.get(`/v1/orgs/${org.id}/link-invites/${invite}`);
      expect(after.body.redundant).toBe(true);
    });

    it.each([
      ['read', 'admin', 'admin'],
      ['admin', 'read', 'admin'],
      [null, 'comment', 'comment'],
      [null, null, null],
      ['edit', null, 'edit'],
    ] as const)(
      'a %p member joining with a %p invite is %p afterwards (raised, never lowered)',
      async (current, inviteRole, expected) => {
        const org = await t.factories.organization();
        const member = await t.factories.member(org, current);
        const invite = await createInvite(org, inviteRole);
        await member.client.post(`/v1/orgs/${org.id}/invites/${invite}`).expect(200);
        expect((await membership(org.id, member.id))?.role).toBe(expected);
        expect(await memberCount(org.id)).toBe(2);
      },
    );

    it('refuses while the organization has invite links off (400)', async () => {
      const org = await t.factories.organization();
      const invite = await createInvite(org, 'read');
      await org.owner.client.patch(`/v1/orgs/${org.id}`, { inviteLinks: false }).expect(200);
      const user = await t.factories.user();
      const res = await user.client.post(`/v1/orgs/${org.id}/invites/${invite}`).expect(400);
      expect(res.body).toEqual({
        error: { code: 400, message: expect.stringContaining('inviteLinks') },
      });
      expect(await membership(org.id, user.id)).toBeNull();

      await org.owner.client.patch(`/v1/orgs/${org.id}`, { inviteLinks: true }).expect(200);
      await user.client.post(`/v1/orgs/${org.id}/invites/${invite}`).expect(200);
      expect((await membership(org.id, user.id))?.role).toBe('read');
    });

    it('answers 404 for an unknown invite, an invite of another organization, an unknown organization', async () => {
      const org = await t.factories.organization();
      const other = await t.factories.organization();
      const otherInvite = await createInvite(other, 'admin');
      const user = await t.factories.user();
      const unknown = await user.client
        .post(`/v1/orgs/${org.id}/invites/no-such-invite`)
        .expect(404);
      expect(unknown.body).toEqual({ error: { code: 404, message: 'Invite not found.' } });
      await user.client.post(`/v1/orgs/${org.id}/invites/${otherInvite}`).expect(404);
      const noOrg = await user.client
        .post(`/v1/orgs/no-such-org/invites/${otherInvite}`)
        .expect(404);
      expect(noOrg.body).toEqual({ error: { code: 404, message: 'Organization not found.' } });
      expect(await membership(org.id, user.id)).toBeNull();
      expect(await membership(other.id, user.id)).toBeNull();
    });

    it('does not enable a disabled membership (403)', async () => {
      const org = await t.factories.organization();
      const member = await t.factories.member(org, 'read');
      await disable(org.id, member.id);
      const invite = await createInvite(org, 'admin');
      const res = await member.client.post(`/v1/orgs/${org.id}/invites/${invite}`).expect(403);
      expect(res.body.error.message).toContain('disabled');
      expect(await membership(org.id, member.id)).toEqual(
        expect.objectContaining({ role: 'read', disabled: true }),
      );
    });

    it('answers 403 to the administrator token', async () => {
      const org = await t.factories.organization();
      const invite = await createInvite(org, 'read');
      await t.admin.post(`/v1/orgs/${org.id}/invites/${invite}`).expect(403);
    });
  });

  describe('POST /v1/orgs/{organizationId}/join (joinOrganization)', () => {
    async function orgWithDomain(domain: string, defaultRole?: string | null) {
      const org = await t.factories.organization();
      await org.owner.client
        .patch(`/v1/orgs/${org.id}`, {
          emailDomains: [domain],
          ...(defaultRole !== undefined ? { defaultRole } : {}),
        })
        .expect(200);
      return org;
    }

    it('refuses to join an organization that signs in with SSO (its identity provider is the way in)', async () => {
      const domain = `acme-${unique()}.example`;
      const org = await orgWithDomain(domain);
      await org.owner.client.patch(`/v1/orgs/${org.id}`, { sso: true }).expect(200);
      const user = await t.factories.user({ email: `ada.${unique()}@${domain}` });
      const res = await user.client.post(`/v1/orgs/${org.id}/join`).expect(403);
      expect(res.body.error).toEqual({
        code: 403,
        message: expect.stringMatching(/single sign-on/),
      });
      expect(await membership(org.id, user.id)).toBeNull();
    });

    it.each([
      [undefined, 'read'],
      ['edit', 'edit'],
      [null, null],
    ] as const)(
      'joins a user of an allowed email domain with the default role (defaultRole %s)',
      async (defaultRole, expected) => {
        const domain = `acme-${unique()}.example`;
        const org = await orgWithDomain(domain, defaultRole);
        const user = await t.factories.user({ email: `Ada.${unique()}@${domain.toUpperCase()}` });
        const res = await user.client.post(`/v1/orgs/${org.id}/join`).expect(204);
        expectConforms(res, 'joinOrganization');
        expect(await membership(org.id, user.id)).toEqual({
          role: expected,
          sso: false,
          disabled: false,
        });
        await user.client.get(`/v1/orgs/${org.id}`).expect(200);
      },
    );

    it('refuses other email domains, subdomains included (400)', async () => {
      const domain = `acme-${unique()}.example`;
      const org = await orgWithDomain(domain);
      for (const email of [`eve-${unique()}@evil.example`, `eve-${unique()}@sub.${domain}`]) {
        const user = await t.factories.user({ email });
        const res = await user.client.post(`/v1/orgs/${org.id}/join`).expect(400);
        expect(res.body).toEqual({
          error: { code: 400, message: expect.stringContaining('email domain not allowed') },
        });
        expectConforms(res, 'joinOrganization');
        expect(await membership(org.id, user.id)).toBeNull();
      }
    });

    it('refuses everyone when the organization has no email domains (400)', async () => {
      const org = await t.factories.organization();
      const user = await t.factories.user();
      await user.client.post(`/v1/orgs/${org.id}/join`).expect(400);
      expect(await membership(org.id, user.id)).toBeNull();
    });

    it('leaves a member as it is (204), whatever its email domain', async () => {
      const org = await orgWithDomain(`acme-${unique()}.example`, 'admin');
      const reader = await t.factories.member(org, 'read');
      await reader.client.post(`/v1/orgs/${org.id}/join`).expect(204);
      expect(await membership(org.id, reader.id)).toEqual(
        expect.objectContaining({ role: 'read', disabled: false }),
      );
      expect(await memberCount(org.id)).toBe(2);
    });

    it('does not enable a disabled membership (403)', async () => {
      const domain = `acme-${unique()}.example`;
      const org = await orgWithDomain(domain);
      const user = await t.factories.user({ email: `bob-${unique()}@${domain}` });
      await user.client.post(`/v1/orgs/${org.id}/join`).expect(204);
      await disable(org.id, user.id);
      await user.client.post(`/v1/orgs/${org.id}/join`).expect(403);
      expect((await membership(org.id, user.id))?.disabled).toBe(true);
    });

    it('answers 404 for an unknown organization', async () => {
      const user = await t.factories.user();
      const res = await user.client.post('/v1/orgs/no-such-org/join').expect(404);
      expect(res.body).toEqual({ error: { code: 404, message: 'Organization not found.' } });
      expectConforms(res, 'joinOrganization');
    });

    it('answers 401 without a token and 403 to the administrator token', async () => {
      const org = await t.factories.organization();
      await t.anonymous.post(`/v1/orgs/${org.id}/join`).expect(401);
      await t.admin.post(`/v1/orgs/${org.id}/join`).expect(403);
    });
  });

  describe('GET /v1/email-domains/{emailDomain}/orgs (getOrganizationsForEmailDomain)', () => {
    it('lists the organizations of the domain, oldest first, as a guest sees them', async () => {
      const domain = `acme-${unique()}.example`;
      t.clock.set('2026-08-01T00:00:00.000Z');
      const older = await t.factories.organization();
      t.clock.set('2026-08-02T00:00:00.000Z');
      const newer = await t.factories.organization();
      const unrelated = await t.factories.organization();
      await newer.owner.client
        .patch(`/v1/orgs/${newer.id}`, { emailDomains: ['other.example', domain] })
        .expect(200);
      await older.owner.client
        .patch(`/v1/orgs/${older.id}`, { emailDomains: [domain] })
        .expect(200);
      await unrelated.owner.client
        .patch(`/v1/orgs/${unrelated.id}`, { emailDomains: [`x${domain}`] })
        .expect(200);

      const res = await t.admin.get(`/v1/email-domains/${domain.toUpperCase()}/orgs`).expect(200);
      expectConforms(res, 'getOrganizationsForEmailDomain');
      expect(res.body.organizations.map((o: { id: string }) => o.id)).toEqual([older.id, newer.id]);
      const read = await older.owner.client.get(`/v1/orgs/${older.id}`).expect(200);
      expect(res.body.organizations[0]).toEqual({
        ...read.body,
        permissions: expect.objectContaining({ view: true, admin: false, listMembers: false }),
      });
    });

    it('answers an empty list for a domain no organization has', async () => {
      const res = await t.admin.get(`/v1/email-domains/none-${unique()}.example/orgs`).expect(200);
      expectConforms(res, 'getOrganizationsForEmailDomain');
      expect(res.body).toEqual({ organizations: [] });
    });

    it('refuses a value that is not a domain name (400)', async () => {
      const res = await t.admin.get('/v1/email-domains/not_a_domain/orgs').expect(400);
      expect(res.body).toEqual({
        error: { code: 400, message: expect.stringContaining('emailDomain') },
      });
    });

    it('answers a user whose email address is at the domain, and an empty list to other users', async () => {
      const domain = `acme-${unique()}.example`;
      const org = await t.factories.organization();
      await org.owner.client.patch(`/v1/orgs/${org.id}`, { emailDomains: [domain] }).expect(200);

      // A newcomer of the domain, member of nothing: the organizations it could join.
      const newcomer = await t.factories.user({ email: `ada@${domain.toUpperCase()}` });
      const res = await newcomer.client.get(`/v1/email-domains/${domain}/orgs`).expect(200);
      expectConforms(res, 'getOrganizationsForEmailDomain');
      expect(res.body.organizations.map((o: { id: string }) => o.id)).toEqual([org.id]);
      expect(res.body.organizations[0].permissions).toMatchObject({ view: true, admin: false });
      await newcomer.client.post(`/v1/orgs/${org.id}/join`).expect(204);

      // Anyone else, even an admin of an organization of the domain (another email domain), or
      // a user of a subdomain: none to join, and nothing told of the domain's organizations.
      const sub = await t.factories.user({ email: `bob@eu.${domain}` });
      for (const other of [org.owner, sub]) {
        const answer = await other.client.get(`/v1/email-domains/${domain}/orgs`).expect(200);
        expectConforms(answer, 'getOrganizationsForEmailDomain');
        expect(answer.body).toEqual({ organizations: [] });
      }
      // The same answer as for a domain no organization has.
      const unknown = await sub.client
        .get(`/v1/email-domains/none-${unique()}.example/orgs`)
        .expect(200);
      expect(unknown.body).toEqual({ organizations: [] });
      await t.anonymous.get(`/v1/email-domains/${domain}/orgs`).expect(401);
    });
  });

  async function createContentInvite(
    org: TestOrganization,
    body: { space?: string; collection?: string; level?: string },
  ): Promise<string> {
    const res = await org.owner.client.post(`/v1/orgs/${org.id}/link-invites`, body).expect(201);
    return res.body.id;
  }

  /** The user's own grant on the space or collection, as stored, or null. */
  async function grantOf(resourceId: string, userId: string): Promise<string | null> {
    const rows: { role: string }[] = await t.dataSource.query(
      'SELECT role FROM content_grants WHERE resource_id = $1 AND user_id = $2',
      [resourceId, userId],
    );
    return rows[0]?.role ?? null;
  }

  describe('space and collection invite links (createOrganizationInvite {level, space|collection})', () => {
    it('creates a space invite carrying the level and the space, readable and listed', async () => {
      const org = await t.factories.organization();
      const { id: space } = await t.factories.space(org, { title: `Space ${unique()}` });
      t.clock.set('2026-09-01T00:00:00.000Z');
      const res = await org.owner.client
        .post(`/v1/orgs/${org.id}/link-invites`, { level: 'edit', space })
        .expect(201);
      expectConforms(res, 'createOrganizationInvite');
      const seenSpace = await org.owner.client.get(`/v1/spaces/${space}`).expect(200);
      expect(res.body).toEqual({
        object: 'invite',
        id: expect.any(String),
        level: 'edit',
        space: seenSpace.body,
        redundant: true, // the owner is an admin there
        urls: {
          location: `${TEST_PUBLIC_URL}/v1/orgs/${org.id}/link-invites/${res.body.id}`,
          app: `${TEST_PUBLIC_URL}/invite/${org.id}/${res.body.id}`,
        },
      });
      const read = await org.owner.client
        .get(`/v1/orgs/${org.id}/link-invites/${res.body.id}`)
        .expect(200);
      expectConforms(read, 'getOrganizationInviteLink');
      expect(read.body).toEqual(res.body);

      t.clock.set('2026-09-01T00:00:01.000Z');
      const orgInvite = await createInvite(org, 'comment');
      const list = await org.owner.client.get(`/v1/orgs/${org.id}/link-invites`).expect(200);
      expectConforms(list, 'listOrganizationInviteLinks');
      // Listed items carry `role` too, as GitBook's listing shape requires: null, a guest.
      expect(list.body.items).toEqual([
        expect.objectContaining({ id: orgInvite, role: 'comment' }),
        { ...res.body, role: null },
      ]);
      expect(list.body.items[0]).not.toHaveProperty('level');
    });

    it('creates a collection invite, with level read when none is given', async () => {
      const org = await t.factories.organization();
      const { id: collection } = await t.factories.collection(org, {
        title: `Collection ${unique()}`,
      });
      const res = await org.owner.client
        .post(`/v1/orgs/${org.id}/link-invites`, { collection })
        .expect(201);
      expectConforms(res, 'createOrganizationInvite');
      const seen = await org.owner.client.get(`/v1/collections/${collection}`).expect(200);
      expect(res.body).toEqual(
        expect.objectContaining({ level: 'read', collection: seen.body, redundant: true }),
      );
      expect(res.body).not.toHaveProperty('role');
      expect(res.body).not.toHaveProperty('space');
      const stored: { role: string | null; level: string; collection_id: string }[] =
        await t.dataSource.query(
          'SELECT role, level, collection_id FROM organization_invites WHERE id = $1',
          [res.body.id],
        );
      expect(stored).toEqual([{ role: null, level: 'read', collection_id: collection }]);
    });

    it('refuses what is not a live space or a collection of the organization, and bad levels (400), creating nothing', async () => {
      const org = await t.factories.organization();
      const other = await t.factories.organization();
      const { id: space } = await t.factories.space(org, { title: `Space ${unique()}` });
      const { id: collection } = await t.factories.collection(org, {
        title: `Collection ${unique()}`,
      });
      const { id: foreignSpace } = await t.factories.space(other, { title: `Space ${unique()}` });
      const { id: foreignCollection } = await t.factories.collection(other, {
        title: `Collection ${unique()}`,
      });
      const { id: trashed } = await t.factories.space(org, { title: `Space ${unique()}` });
      await org.owner.client.delete(`/v1/spaces/${trashed}`).expect(204);

      const cases: [object, string][] = [
        [{ level: 'read', space: foreignSpace }, `space ${foreignSpace} not found`],
        [{ level: 'read', space: trashed }, `space ${trashed} not found`],
        [{ level: 'read', collection: foreignCollection }, `collection ${foreignCollection}`],
        [{ level: 'read', space, collection }, 'space, collection'],
        [{ level: null, space }, 'level'],
        [{ level: 'owner', collection }, 'level'],
        [{ role: 'read', space }, 'role'],
        [{ role: null, level: 'read', collection }, 'role'],
      ];
      for (const [body, message] of cases) {
        const res = await org.owner.client.post(`/v1/orgs/${org.id}/link-invites`, body);
        expect({ body, status: res.status, response: res.body }).toEqual({
          body,
          status: 400,
          response: { error: { code: 400, message: expect.stringContaining(message) } },
        });
      }
      const list = await org.owner.client.get(`/v1/orgs/${org.id}/link-invites`).expect(200);
      expect(list.body.count).toBe(0);
    });

    it('changes the level with PATCH {level}, refusing role and null (400)', async () => {
      const org = await t.factories.organization();
      const invite = await createContentInvite(org, {
        space: (await t.factories.space(org, { title: `Space ${unique()}` })).id,
      });
      const res = await org.owner.client
        .patch(`/v1/orgs/${org.id}/link-invites/${invite}`, { level: 'review' })
        .expect(200);
      expectConforms(res, 'updateOrganizationInviteById');
      expect(res.body).toEqual(expect.objectContaining({ id: invite, level: 'review' }));
      expect(res.body).not.toHaveProperty('role');

      for (const [body, message] of [
        [{ role: 'admin' }, 'role'],
        [{ level: null }, 'level'],
      ] as const) {
        const refused = await org.owner.client
          .patch(`/v1/orgs/${org.id}/link-invites/${invite}`, body)
          .expect(400);
        expect(refused.body.error.message).toContain(message);
      }
      const read = await org.owner.client.get(`/v1/orgs/${org.id}/link-invites/${invite}`);
      expect(read.body.level).toBe('review');
    });

    it('shows the invite to a non-member holding the link, with no permission on the space, until it joins', async () => {
      const org = await t.factories.organization();
      const { id: space } = await t.factories.space(org, { title: `Space ${unique()}` });
      const invite = await createContentInvite(org, { space, level: 'comment' });
      const user = await t.factories.user();
      const before = await user.client.get(`/v1/orgs/${org.id}/link-invites/${invite}`).expect(200);
      expectConforms(before, 'getOrganizationInviteLink');
      expect(before.body.redundant).toBe(false);
      expect(before.body.space.id).toBe(space);
      expect(Object.values(before.body.space.permissions).every((p) => p === false)).toBe(true);

      await user.client.post(`/v1/orgs/${org.id}/invites/${invite}`).expect(200);
      const after = await user.client.get(`/v1/orgs/${org.id}/link-invites/${invite}`).expect(200);
      expect(after.body.redundant).toBe(true);
      expect(after.body.space.permissions).toEqual(
        expect.objectContaining({ view: true, comment: true, edit: false }),
      );
    });

    it('treats an invite whose space moved to another organization as gone (404), and deletes invites with their collection', async () => {
      const org = await t.factories.organization();
      const elsewhere = await t.factories.organization({ owner: org.owner });
      const { id: space } = await t.factories.space(org, { title: `Space ${unique()}` });
      const { id: collection } = await t.factories.collection(org, {
        title: `Collection ${unique()}`,
      });
      const spaceInvite = await createContentInvite(org, { space });
      const collectionInvite = await createContentInvite(org, { collection });
      await org.owner.client
        .post(`/v1/spaces/${space}/transfer`, { organization: elsewhere.id })
        .expect(200);
      await org.owner.client.delete(`/v1/collections/${collection}`).expect(204);

      for (const invite of [spaceInvite, collectionInvite]) {
        await org.owner.client.get(`/v1/orgs/${org.id}/link-invites/${invite}`).expect(404);
        const user = await t.factories.user();
        await user.client.post(`/v1/orgs/${org.id}/invites/${invite}`).expect(404);
        expect(await membership(org.id, user.id)).toBeNull();
      }
      const list = await org.owner.client.get(`/v1/orgs/${org.id}/link-invites`).expect(200);
      expect(list.body).toEqual({ items: [], count: 0 });
    });
  });

  describe('joining with a space or collection invite (joinOrganizationWithInvite)', () => {
    it('makes a non-member a guest with the level on the space, and nothing more', async () => {
      const org = await t.factories.organization();
      const { id: space } = await t.factories.space(org, { title: `Space ${unique()}` });
      const { id: unrelated } = await t.factories.space(org, { title: `Space ${unique()}` });
      const invite = await createContentInvite(org, { space, level: 'edit' });
      const user = await t.factories.user();
      const res = await user.client.post(`/v1/orgs/${org.id}/invites/${invite}`).expect(200);
      expectConforms(res, 'joinOrganizationWithInvite');
      expect(res.body).toEqual({});
      expect(await membership(org.id, user.id)).toEqual({
        role: null,
        sso: false,
        disabled: false,
      });
      expect(await grantOf(space, user.id)).toBe('edit');

      const seen = await user.client.get(`/v1/spaces/${space}`).expect(200);
      expect(seen.body.permissions).toEqual(
        expect.objectContaining({ view: true, edit: true, admin: false }),
      );
      await user.client.get(`/v1/spaces/${unrelated}`).expect(404);
      const listed = await user.client.get(`/v1/orgs/${org.id}/spaces`).expect(200);
      expect(listed.body.items.map((s: { id: string }) => s.id)).toEqual([space]);
    });

    it('grants the level on the collection, which reaches the spaces inside it', async () => {
      const org = await t.factories.organization();
      const { id: collection } = await t.factories.collection(org, {
        title: `Collection ${unique()}`,
      });
      const { id: inside } = await t.factories.space(org, {
        title: `Space ${unique()}`,
        parent: collection,
      });
      const { id: outside } = await t.factories.space(org, { title: `Space ${unique()}` });
      const invite = await createContentInvite(org, { collection, level: 'review' });
      const user = await t.factories.user();
      await user.client.post(`/v1/orgs/${org.id}/invites/${invite}`).expect(200);
      expect((await membership(org.id, user.id))?.role).toBeNull();
      expect(await grantOf(collection, user.id)).toBe('review');

      const seenCollection = await user.client.get(`/v1/collections/${collection}`).expect(200);
      expect(seenCollection.body.id).toBe(collection);
      const seenSpace = await user.client.get(`/v1/spaces/${inside}`).expect(200);
      expect(seenSpace.body.permissions).toEqual(
        expect.objectContaining({ view: true, edit: true, admin: false }),
      );
      await user.client.get(`/v1/spaces/${outside}`).expect(404);
    });

    it('keeps the role of a member and gives it the grant', async () => {
      const org = await t.factories.organization();
      const { id: space } = await t.factories.space(org, { title: `Space ${unique()}` });
      const member = await t.factories.member(org, 'comment');
      const invite = await createContentInvite(org, { space, level: 'admin' });
      await member.client.post(`/v1/orgs/${org.id}/invites/${invite}`).expect(200);
      expect((await membership(org.id, member.id))?.role).toBe('comment');
      expect(await grantOf(space, member.id)).toBe('admin');
      const seen = await member.client.get(`/v1/spaces/${space}`).expect(200);
      expect(seen.body.permissions.admin).toBe(true);
      expect(await memberCount(org.id)).toBe(2);
    });

    it.each([
      ['read', 'edit', 'edit'],
      ['edit', 'read', 'edit'],
      ['admin', 'create', 'admin'],
      ['review', 'edit', 'review'], // review ranks above edit
    ] as const)(
      'a user granted %p who joins with a %p invite holds %p (raised, never lowered)',
      async (first, second, expected) => {
        const org = await t.factories.organization();
        const { id: space } = await t.factories.space(org, { title: `Space ${unique()}` });
        const user = await t.factories.user();
        for (const level of [first, second]) {
          const invite = await createContentInvite(org, { space, level });
          await user.client.post(`/v1/orgs/${org.id}/invites/${invite}`).expect(200);
        }
        expect(await grantOf(space, user.id)).toBe(expected);
        const [{ n }] = await t.dataSource.query(
          'SELECT count(*)::int AS n FROM content_grants WHERE resource_id = $1',
          [space],
        );
        expect(n).toBe(1);
      },
    );

    it('refuses while the space is in the trash (400), and works once it is restored', async () => {
      const org = await t.factories.organization();
      const { id: space } = await t.factories.space(org, { title: `Space ${unique()}` });
      const invite = await createContentInvite(org, { space, level: 'edit' });
      await org.owner.client.delete(`/v1/spaces/${space}`).expect(204);
      const user = await t.factories.user();
      const res = await user.client.post(`/v1/orgs/${org.id}/invites/${invite}`).expect(400);
      expect(res.body).toEqual({ error: { code: 400, message: expect.stringContaining('trash') } });
      expect(await membership(org.id, user.id)).toBeNull();
      expect(await grantOf(space, user.id)).toBeNull();

      await org.owner.client.post(`/v1/spaces/${space}/restore`).expect(200);
      await user.client.post(`/v1/orgs/${org.id}/invites/${invite}`).expect(200);
      expect(await grantOf(space, user.id)).toBe('edit');
    });

    it('refuses a disabled member (403) and, with invite links off, everyone (400), granting nothing', async () => {
      const org = await t.factories.organization();
      const { id: space } = await t.factories.space(org, { title: `Space ${unique()}` });
      const invite = await createContentInvite(org, { space, level: 'edit' });
      const disabled = await t.factories.member(org, 'read');
      await disable(org.id, disabled.id);
      await disabled.client.post(`/v1/orgs/${org.id}/invites/${invite}`).expect(403);
      expect(await grantOf(space, disabled.id)).toBeNull();

      await org.owner.client.patch(`/v1/orgs/${org.id}`, { inviteLinks: false }).expect(200);
      const user = await t.factories.user();
      await user.client.post(`/v1/orgs/${org.id}/invites/${invite}`).expect(400);
      expect(await membership(org.id, user.id)).toBeNull();
      expect(await grantOf(space, user.id)).toBeNull();
    });

    it('answers 404 for an invite of another organization', async () => {
      const org = await t.factories.organization();
      const other = await t.factories.organization();
      const invite = await createContentInvite(other, {
        space: (await t.factories.space(other, { title: `Space ${unique()}` })).id,
      });
      const user = await t.factories.user();
      await user.client.post(`/v1/orgs/${org.id}/invites/${invite}`).expect(404);
      expect(await membership(org.id, user.id)).toBeNull();
      expect(await membership(other.id, user.id)).toBeNull();
    });
  });
});
