import { verify } from 'jsonwebtoken';
import { randomBytes } from 'node:crypto';
import { VISITOR_CLAIMS_PURPOSE } from '../src/orgs/members/visitor-claims';
import { InstanceSecret } from '../src/platform/settings/instance-secret';
import type { Role } from '../src/platform/policy/roles';
import { insertGrant } from './helpers/content';
import { createTestApp, TEST_PUBLIC_URL, TestApp } from './helpers/app';
import type { MemberBody } from './helpers/bodies';
import { expectConforms } from './helpers/conformance';
import type { TestOrganization, TestUser } from './helpers/factories';

const ids = (body: { items: { id: string }[] }) => body.items.map((item) => item.id);

describe('organization members', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const members = (org: TestOrganization) => `/v1/orgs/${org.id}/members`;
  const member = (org: TestOrganization, userId: string) => `${members(org)}/${userId}`;

  /** Sets a membership column directly, where no API writes it (dates, disabled). */
  async function setMember(
    org: TestOrganization,
    userId: string,
    column: 'joined_at' | 'last_seen_at' | 'disabled',
    value: Date | boolean | null,
  ): Promise<void> {
    await t.dataSource.query(
      `UPDATE organization_members SET ${column} = $3 WHERE organization_id = $1 AND user_id = $2`,
      [org.id, userId, value],
    );
  }

  /** A team of the organization with these members (the teams API belongs to another module). */
  async function team(org: TestOrganization, ...userIds: string[]): Promise<string> {
    const id = randomBytes(10).toString('hex');
    const now = new Date();
    await t.dataSource.query(
      `INSERT INTO teams (id, organization_id, title, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $4)`,
      [id, org.id, `Team ${id}`, now],
    );
    for (const userId of userIds) {
      await t.dataSource.query(
        `INSERT INTO team_members (team_id, user_id, organization_id, role, added_at)
         VALUES ($1, $2, $3, 'member', $4)`,
        [id, userId, org.id, now],
      );
    }
    return id;
  }

  async function roleOf(org: TestOrganization, userId: string): Promise<Role | null | undefined> {
    const rows: { role: Role | null }[] = await t.dataSource.query(
      'SELECT role FROM organization_members WHERE organization_id = $1 AND user_id = $2',
      [org.id, userId],
    );
    return rows.length ? rows[0].role : undefined;
  }

  describe('GET /v1/orgs/{organizationId}/members (listMembersInOrganizationById)', () => {
    it('lists every member in GitBook’s Member shape, with its true team count', async () => {
      const org = await t.factories.organization();
      const reader = await t.factories.member(org, 'read');
      const guest = await t.factories.member(org, null);
      await team(org, reader.id, org.owner.id);
      await team(org, reader.id);
      // The reader's teams in another organization do not count here.
      const elsewhere = await t.factories.organization();
      await t.dataSource.query(
        `INSERT INTO organization_members (organization_id, user_id, role, joined_at)
         VALUES ($1, $2, 'read', now())`,
        [elsewhere.id, reader.id],
      );
      await team(elsewhere, reader.id);

      const res = await reader.client.get(members(org)).expect(200);
      expectConforms(res, 'listMembersInOrganizationById');
      expect(res.body.count).toBe(3);
      expect(res.body).not.toHaveProperty('next');
      const byId = new Map<string, MemberBody>(
        res.body.items.map((item: MemberBody) => [item.id, item]),
      );
      expect(byId.get(reader.id)).toEqual({
        object: 'member',
        id: reader.id,
        role: 'read',
        user: {
          object: 'user',
          id: reader.id,
          displayName: reader.displayName,
          email: reader.email,
          urls: { location: `${TEST_PUBLIC_URL}/v1/users/${reader.id}` },
        },
        disabled: false,
        joinedAt: expect.any(String),
        sso: false,
        spaces: 0,
        teams: 2,
      });
      expect(byId.get(org.owner.id)).toEqual(expect.objectContaining({ role: 'admin', teams: 1 }));
      expect(byId.get(guest.id)).toEqual(expect.objectContaining({ role: null, teams: 0 }));
    });

    it('pages by join date, newest first by default, oldest first with order=asc', async () => {
      const org = await t.factories.organization();
      const joined = [org.owner.id];
      for (let i = 0; i < 4; i++) joined.push((await t.factories.member(org, 'read')).id);
      for (const [i, userId] of joined.entries()) {
        await setMember(org, userId, 'joined_at', new Date(Date.UTC(2026, 0, 1, 0, 0, i)));
      }

      const walk = async (query: string) => {
        const seen: string[] = [];
        let page = await org.owner.client.get(`${members(org)}?limit=2${query}`).expect(200);
        expectConforms(page, 'listMembersInOrganizationById');
        seen.push(...ids(page.body));
        while (page.body.next) {
          expect(page.body.count).toBe(5);
          page = await org.owner.client
            .get(`${members(org)}?limit=2${query}&page=${page.body.next.page}`)
            .expect(200);
          seen.push(...ids(page.body));
        }
        return seen;
      };
      expect(await walk('')).toEqual([...joined].reverse());
      expect(await walk('&order=desc&sort=joinedAt')).toEqual([...joined].reverse());
      expect(await walk('&order=asc')).toEqual(joined);
    });

    it('breaks ties on the join date by user id, without repeating or skipping anyone', async () => {
      const org = await t.factories.organization();
      const all = [org.owner.id];
      for (let i = 0; i < 4; i++) all.push((await t.factories.member(org, 'read')).id);
      for (const userId of all) {
        await setMember(org, userId, 'joined_at', new Date('2026-02-02T00:00:00.000Z'));
      }
      const seen: string[] = [];
      let next: string | undefined;
      do {
        const res = await org.owner.client
          .get(`${members(org)}?limit=2&order=asc${next ? `&page=${next}` : ''}`)
          .expect(200);
        seen.push(...ids(res.body));
        next = res.body.next?.page;
      } while (next);
      expect(seen).toEqual([...all].sort());
    });

    it('sort=lastSeenAt lists only members seen at least once, by last activity', async () => {
      const org = await t.factories.organization();
      const early = await t.factories.member(org, 'edit');
      const late = await t.factories.member(org, null);
      await t.factories.member(org, 'read'); // never seen
      await setMember(org, early.id, 'last_seen_at', new Date('2026-03-01T10:00:00.000Z'));
      await setMember(org, late.id, 'last_seen_at', new Date('2026-03-02T10:00:00.000Z'));

      const desc = await org.owner.client.get(`${members(org)}?sort=lastSeenAt`).expect(200);
      expectConforms(desc, 'listMembersInOrganizationById');
      expect(desc.body.count).toBe(2);
      expect(ids(desc.body)).toEqual([late.id, early.id]);
      expect(desc.body.items[0].lastSeenAt).toBe('2026-03-02T10:00:00.000Z');

      const first = await org.owner.client
        .get(`${members(org)}?sort=lastSeenAt&order=asc&limit=1`)
        .expect(200);
      expect(ids(first.body)).toEqual([early.id]);
      const second = await org.owner.client
        .get(`${members(org)}?sort=lastSeenAt&order=asc&limit=1&page=${first.body.next.page}`)
        .expect(200);
      expect(ids(second.body)).toEqual([late.id]);
      expect(second.body).not.toHaveProperty('next');
    });

    it('filters by role, and by role=guest for members without one', async () => {
      const org = await t.factories.organization();
      const editor = await t.factories.member(org, 'edit');
      const guest = await t.factories.member(org, null);
      await t.factories.member(org, 'read');

      const editors = await org.owner.client.get(`${members(org)}?role=edit`).expect(200);
      expect(ids(editors.body)).toEqual([editor.id]);
      expect(editors.body.count).toBe(1);
      const guests = await org.owner.client.get(`${members(org)}?role=guest`).expect(200);
      expectConforms(guests, 'listMembersInOrganizationById');
      expect(ids(guests.body)).toEqual([guest.id]);
      const admins = await org.owner.client.get(`${members(org)}?role=admin`).expect(200);
      expect(ids(admins.body)).toEqual([org.owner.id]);
      const none = await org.owner.client.get(`${members(org)}?role=review`).expect(200);
      expect(none.body).toEqual({ items: [], count: 0 });
    });

    it('searches display names and emails, case-insensitively, wildcards taken literally', async () => {
      const org = await t.factories.organization();
      const tag = randomBytes(3).toString('hex');
      const ada = await t.factories.user({
        displayName: `Ada Lovelace 100%`,
        email: `ada-${tag}@x.io`,
      });
      const bob = await t.factories.user({ displayName: 'Bob 1000', email: `bob_${tag}@y.io` });
      const cat = await t.factories.user({ displayName: 'Cat', email: `catx${tag}@y.io` });
      for (const user of [ada, bob, cat]) {
        await t.dataSource.query(
          `INSERT INTO organization_members (organization_id, user_id, role, joined_at)
           VALUES ($1, $2, 'read', now())`,
          [org.id, user.id],
        );
      }
      const search = async (text: string) => {
        const res = await org.owner.client
          .get(`${members(org)}?search=${encodeURIComponent(text)}`)
          .expect(200);
        expectConforms(res, 'listMembersInOrganizationById');
        expect(res.body.count).toBe(res.body.items.length);
        return ids(res.body).sort();
      };
      expect(await search('LOVELACE')).toEqual([ada.id]);
      expect(await search(`ADA-${tag}`)).toEqual([ada.id]);
      expect(await search('100%')).toEqual([ada.id]);
      expect(await search(`b_${tag}`)).toEqual([bob.id]);
      expect(await search(`x${tag}@Y.IO`)).toEqual([cat.id]);
      expect(await search(`${tag}@y.io`)).toEqual([bob.id, cat.id].sort());
      expect(await search('nobody-by-this-name')).toEqual([]);
    });

    it('lists disabled memberships too, marked disabled', async () => {
      const org = await t.factories.organization();
      const gone = await t.factories.member(org, 'read');
      await setMember(org, gone.id, 'disabled', true);
      const res = await org.owner.client.get(members(org)).expect(200);
      expectConforms(res, 'listMembersInOrganizationById');
      const item = res.body.items.find((m: MemberBody) => m.id === gone.id);
      expect(item.disabled).toBe(true);
    });

    it.each([
      ['order=up', 'order'],
      ['sort=displayName', 'sort'],
      ['role=owner', 'role'],
      ['role=read&role=edit', 'role'],
      ['search=<513 characters>', 'search'],
      ['limit=0', 'limit'],
      ['limit=1001', 'limit'],
      ['page=not-a-page', 'page'],
      ['title=x', 'title'],
    ])('refuses ?%s with 400 naming %s', async (query, field) => {
      const org = await t.factories.organization();
      const sent = query.replace('<513 characters>', 'x'.repeat(513));
      const res = await org.owner.client.get(`${members(org)}?${sent}`).expect(400);
      expect(res.body).toEqual({ error: { code: 400, message: expect.stringContaining(field) } });
    });

    it('refuses a page identifier of another sort order with 400', async () => {
      const org = await t.factories.organization();
      await t.factories.member(org, 'read');
      const first = await org.owner.client.get(`${members(org)}?limit=1`).expect(200);
      const res = await org.owner.client
        .get(`${members(org)}?limit=1&order=asc&page=${first.body.next.page}`)
        .expect(400);
      expect(res.body.error.message).toContain('page');
    });

    it('answers 403 to a guest, 404 to another organization and for an unknown one', async () => {
      const org = await t.factories.organization();
      const guest = await t.factories.asMember(org, null);
      const forbidden = await guest.get(members(org)).expect(403);
      expect(forbidden.body).toEqual({ error: { code: 403, message: expect.any(String) } });
      const stranger = await t.factories.organization();
      const hidden = await stranger.owner.client.get(members(org)).expect(404);
      expect(hidden.body).toEqual({ error: { code: 404, message: 'Organization not found.' } });
      await stranger.owner.client.get('/v1/orgs/no-such-org/members').expect(404);
    });
  });

  describe('GET /v1/orgs/{organizationId}/members/{userId} (getMemberInOrganizationById)', () => {
    it('shows one member to a reader', async () => {
      const org = await t.factories.organization();
      const reader = await t.factories.member(org, 'read');
      await team(org, org.owner.id);
      const res = await reader.client.get(member(org, org.owner.id)).expect(200);
      expectConforms(res, 'getMemberInOrganizationById');
      expect(res.body).toEqual(
        expect.objectContaining({ object: 'member', id: org.owner.id, role: 'admin', teams: 1 }),
      );
      expect(res.body.user.id).toBe(org.owner.id);
      expect(res.body).not.toHaveProperty('lastSeenAt');
    });

    it('answers 404 for a user who is not a member, or does not exist', async () => {
      const org = await t.factories.organization();
      const outsider = await t.factories.organization();
      const res = await org.owner.client.get(member(org, outsider.owner.id)).expect(404);
      expect(res.body).toEqual({ error: { code: 404, message: 'Member not found.' } });
      await org.owner.client.get(member(org, 'no-such-user')).expect(404);
    });

    it('answers 404 to a caller of another organization and 403 to a guest', async () => {
      const org = await t.factories.organization();
      const stranger = await t.factories.organization();
      await stranger.owner.client.get(member(org, org.owner.id)).expect(404);
      const guest = await t.factories.asMember(org, null);
      await guest.get(member(org, org.owner.id)).expect(403);
    });
  });

  describe('PATCH /v1/orgs/{organizationId}/members/{userId} (updateMemberInOrganizationById)', () => {
    it('changes the role, as read back', async () => {
      const org = await t.factories.organization();
      const reader = await t.factories.member(org, 'read');
      const res = await org.owner.client
        .patch(member(org, reader.id), { role: 'edit' })
        .expect(200);
      expectConforms(res, 'updateMemberInOrganizationById');
      expect(res.body).toEqual(expect.objectContaining({ id: reader.id, role: 'edit' }));
      const read = await org.owner.client.get(member(org, reader.id)).expect(200);
      expect(read.body).toEqual(res.body);
    });

    it('makes a member a guest with null, who then may not list members', async () => {
      const org = await t.factories.organization();
      const editor = await t.factories.member(org, 'edit');
      await editor.client.get(members(org)).expect(200);
      const res = await org.owner.client.patch(member(org, editor.id), { role: null }).expect(200);
      expectConforms(res, 'updateMemberInOrganizationById');
      expect(res.body.role).toBeNull();
      expect(await roleOf(org, editor.id)).toBeNull();
      await editor.client.get(members(org)).expect(403);
    });

    it('leaves the member unchanged when role is absent', async () => {
      const org = await t.factories.organization();
      const reviewer = await t.factories.member(org, 'review');
      const res = await org.owner.client.patch(member(org, reviewer.id), {}).expect(200);
      expectConforms(res, 'updateMemberInOrganizationById');
      expect(res.body.role).toBe('review');
    });

    it.each([
      [{ role: 'owner' }, 'role'],
      [{ role: 'guest' }, 'role'],
      [{ role: 3 }, 'role'],
      [{ role: ['read'] }, 'role'],
      [{ role: 'read', sso: true }, 'sso'],
    ])('refuses %j with 400 naming %s', async (body, field) => {
      const org = await t.factories.organization();
      const reader = await t.factories.member(org, 'read');
      const res = await org.owner.client.patch(member(org, reader.id), body).expect(400);
      expect(res.body).toEqual({ error: { code: 400, message: expect.stringContaining(field) } });
      expect(await roleOf(org, reader.id)).toBe('read');
    });

    it('refuses to demote the last admin with 400, and allows it while another admin remains', async () => {
      const org = await t.factories.organization();
      const alone = await org.owner.client
        .patch(member(org, org.owner.id), { role: 'create' })
        .expect(400);
      expect(alone.body).toEqual({
        error: { code: 400, message: expect.stringContaining('the last admin') },
      });
      expect(await roleOf(org, org.owner.id)).toBe('admin');

      const second = await t.factories.member(org, 'admin');
      await org.owner.client.patch(member(org, org.owner.id), { role: 'create' }).expect(200);
      expect(await roleOf(org, org.owner.id)).toBe('create');
      const last = await second.client.patch(member(org, second.id), { role: null }).expect(400);
      expect(last.body.error.message).toContain('the last admin');
      // Keeping the last admin an admin is no demotion.
      await second.client.patch(member(org, second.id), { role: 'admin' }).expect(200);
    });

    it('does not count a disabled admin as one that remains', async () => {
      const org = await t.factories.organization();
      const dormant = await t.factories.member(org, 'admin');
      await setMember(org, dormant.id, 'disabled', true);
      await org.owner.client.patch(member(org, org.owner.id), { role: 'read' }).expect(400);
      // The disabled admin itself may be demoted.
      await org.owner.client.patch(member(org, dormant.id), { role: 'read' }).expect(200);
    });

    it('lets only one of two concurrent demotions of the last two admins through', async () => {
      const org = await t.factories.organization();
      const other = await t.factories.member(org, 'admin');
      const results = await Promise.all([
        // Each demotes itself, so both pass the access check and race on the admin lock.
        org.owner.client.patch(member(org, org.owner.id), { role: 'read' }),
        other.client.patch(member(org, other.id), { role: 'read' }),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
      const roles = [await roleOf(org, org.owner.id), await roleOf(org, other.id)];
      expect(roles.sort()).toEqual(['admin', 'read']);
    });

    it('answers 404 for a user who is not a member', async () => {
      const org = await t.factories.organization();
      const outsider = await t.factories.user();
      const res = await org.owner.client
        .patch(member(org, outsider.id), { role: 'read' })
        .expect(404);
      expect(res.body).toEqual({ error: { code: 404, message: 'Member not found.' } });
      await org.owner.client.patch(member(org, 'no-such-user'), {}).expect(404);
    });

    it('answers 403 below admin and 404 to a caller of another organization', async () => {
      const org = await t.factories.organization();
      const reader = await t.factories.member(org, 'read');
      const creator = await t.factories.asMember(org, 'create');
      await creator.patch(member(org, reader.id), { role: 'admin' }).expect(403);
      await reader.client.patch(member(org, reader.id), { role: 'admin' }).expect(403);
      const stranger = await t.factories.organization();
      await stranger.owner.client.patch(member(org, reader.id), { role: 'admin' }).expect(404);
      expect(await roleOf(org, reader.id)).toBe('read');
    });
  });

  describe('DELETE /v1/orgs/{organizationId}/members/{userId} (removeMemberFromOrganizationById)', () => {
    it('removes the member and its team memberships', async () => {
      const org = await t.factories.organization();
      const reader = await t.factories.member(org, 'read');
      const teamId = await team(org, reader.id, org.owner.id);
      const res = await org.owner.client.delete(member(org, reader.id)).expect(204);
      expectConforms(res, 'removeMemberFromOrganizationById');
      await org.owner.client.get(member(org, reader.id)).expect(404);
      const list = await org.owner.client.get(members(org)).expect(200);
      expect(ids(list.body)).toEqual([org.owner.id]);
      const teamRows: { user_id: string }[] = await t.dataSource.query(
        'SELECT user_id FROM team_members WHERE team_id = $1',
        [teamId],
      );
      expect(teamRows.map((row) => row.user_id)).toEqual([org.owner.id]);
      await reader.client.get(`/v1/orgs/${org.id}`).expect(404);
    });

    it('answers 204 when the user is not a member', async () => {
      const org = await t.factories.organization();
      const res = await org.owner.client.delete(member(org, 'no-such-user')).expect(204);
      expectConforms(res, 'removeMemberFromOrganizationById');
      expect((await org.owner.client.get(members(org))).body.count).toBe(1);
    });

    it.each([
      ['a read member', 'read'],
      ['an edit member', 'edit'],
      ['a guest', null],
    ] as const)('lets %s leave', async (_label, role) => {
      const org = await t.factories.organization();
      const leaver = await t.factories.member(org, role);
      await leaver.client.delete(member(org, leaver.id)).expect(204);
      expect(await roleOf(org, leaver.id)).toBeUndefined();
      await leaver.client.get(`/v1/orgs/${org.id}`).expect(404);
    });

    it('refuses to remove the last admin with 400, even when it leaves', async () => {
      const org = await t.factories.organization();
      const res = await org.owner.client.delete(member(org, org.owner.id)).expect(400);
      expect(res.body).toEqual({
        error: { code: 400, message: expect.stringContaining('the last admin') },
      });
      expect(await roleOf(org, org.owner.id)).toBe('admin');

      const second = await t.factories.member(org, 'admin');
      await org.owner.client.delete(member(org, org.owner.id)).expect(204);
      await second.client.delete(member(org, second.id)).expect(400);
      expect(await roleOf(org, second.id)).toBe('admin');
    });

    it('lets only one of two concurrent removals of the last two admins through', async () => {
      const org = await t.factories.organization();
      const other = await t.factories.member(org, 'admin');
      const results = await Promise.all([
        // Each leaves, so both pass the access check and race on the admin lock.
        org.owner.client.delete(member(org, org.owner.id)),
        other.client.delete(member(org, other.id)),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual([204, 400]);
      const rows: unknown[] = await t.dataSource.query(
        `SELECT 1 FROM organization_members WHERE organization_id = $1 AND role = 'admin'`,
        [org.id],
      );
      expect(rows).toHaveLength(1);
    });

    it('answers 403 to a non-admin removing someone else, 404 to another organization', async () => {
      const org = await t.factories.organization();
      const reader = await t.factories.member(org, 'read');
      const creator = await t.factories.asMember(org, 'create');
      const res = await creator.delete(member(org, reader.id)).expect(403);
      expect(res.body).toEqual({ error: { code: 403, message: expect.any(String) } });
      const guest = await t.factories.asMember(org, null);
      await guest.delete(member(org, reader.id)).expect(403);
      const stranger = await t.factories.organization();
      await stranger.owner.client.delete(member(org, reader.id)).expect(404);
      expect(await roleOf(org, reader.id)).toBe('read');
    });
  });

  describe('POST /v1/orgs/{organizationId}/members/{userId}/sso (setUserAsSSOMemberForOrganization)', () => {
    it('marks the member as an SSO member', async () => {
      const org = await t.factories.organization();
      const reader = await t.factories.member(org, 'read');
      const res = await org.owner.client.post(`${member(org, reader.id)}/sso`).expect(200);
      expectConforms(res, 'setUserAsSSOMemberForOrganization');
      expect(res.body).toEqual(expect.objectContaining({ id: reader.id, sso: true, role: 'read' }));
      const read = await org.owner.client.get(member(org, reader.id)).expect(200);
      expect(read.body.sso).toBe(true);
    });

    it('answers 404 for a user who is not a member', async () => {
      const org = await t.factories.organization();
      const outsider = await t.factories.user();
      const res = await org.owner.client.post(`${member(org, outsider.id)}/sso`).expect(404);
      expect(res.body).toEqual({ error: { code: 404, message: 'Member not found.' } });
    });

    it('answers 403 below admin and 404 to a caller of another organization', async () => {
      const org = await t.factories.organization();
      const reader = await t.factories.member(org, 'read');
      await reader.client.post(`${member(org, reader.id)}/sso`).expect(403);
      const stranger = await t.factories.organization();
      await stranger.owner.client.post(`${member(org, reader.id)}/sso`).expect(404);
      const read = await org.owner.client.get(member(org, reader.id)).expect(200);
      expect(read.body.sso).toBe(false);
    });
  });

  describe('POST /v1/orgs/{organizationId}/ping (updateOrganizationMemberLastSeenAt)', () => {
    const secret = () => t.bindery.app.get(InstanceSecret).signingKey(VISITOR_CLAIMS_PURPOSE);
    const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

    it('records the last-seen time and returns signed visitor claims', async () => {
      const org = await t.factories.organization();
      const guest: TestUser = await t.factories.member(org, null);
      const first = new Date('2026-04-01T08:00:00.123Z');
      t.clock.set(first);
      const res = await guest.client.post(`/v1/orgs/${org.id}/ping`).expect(200);
      expectConforms(res, 'updateOrganizationMemberLastSeenAt');
      expect(Object.keys(res.body)).toEqual(['docsVisitorClaims']);
      const claims = verify(res.body.docsVisitorClaims, secret(), {
        algorithms: ['HS256'],
        issuer: 'bindery',
        clockTimestamp: seconds(first),
      });
      expect(claims).toEqual({
        sub: guest.id,
        organization: org.id,
        role: null,
        email: guest.email,
        iss: 'bindery',
        iat: seconds(first),
        exp: seconds(first) + 3600,
      });
      expect(() =>
        verify(res.body.docsVisitorClaims, secret(), { clockTimestamp: seconds(first) + 3601 }),
      ).toThrow(/expired/);

      const seen = await org.owner.client.get(member(org, guest.id)).expect(200);
      expect(seen.body.lastSeenAt).toBe('2026-04-01T08:00:00.123Z');

      t.clock.set('2026-04-01T09:30:00.000Z');
      await guest.client.post(`/v1/orgs/${org.id}/ping`).expect(200);
      const moved = await org.owner.client.get(member(org, guest.id)).expect(200);
      expect(moved.body.lastSeenAt).toBe('2026-04-01T09:30:00.000Z');
      const active = await org.owner.client.get(`${members(org)}?sort=lastSeenAt`).expect(200);
      expect(ids(active.body)).toEqual([guest.id]);
    });

    it("carries the caller's role", async () => {
      const org = await t.factories.organization();
      const res = await org.owner.client.post(`/v1/orgs/${org.id}/ping`).expect(200);
      const claims = verify(res.body.docsVisitorClaims, secret(), {
        clockTimestamp: seconds(t.clock.now()),
      }) as { role: string; sub: string };
      expect(claims).toEqual(expect.objectContaining({ role: 'admin', sub: org.owner.id }));
    });

    it('answers 404 to a caller of another organization and to a disabled member', async () => {
      const org = await t.factories.organization();
      const stranger = await t.factories.organization();
      await stranger.owner.client.post(`/v1/orgs/${org.id}/ping`).expect(404);
      const gone = await t.factories.member(org, 'read');
      await setMember(org, gone.id, 'disabled', true);
      await gone.client.post(`/v1/orgs/${org.id}/ping`).expect(404);
      const read = await org.owner.client.get(member(org, gone.id)).expect(200);
      expect(read.body).not.toHaveProperty('lastSeenAt');
    });
  });

  describe('Member.spaces: the live spaces the member can open', () => {
    /** Every member's `spaces`, by user id, from the listing. */
    async function spacesCounts(org: TestOrganization): Promise<Record<string, number>> {
      const res = await org.owner.client.get(`${members(org)}?limit=100`).expect(200);
      expectConforms(res, 'listMembersInOrganizationById');
      return Object.fromEntries(
        (res.body.items as (MemberBody & { spaces: number })[]).map((item) => [
          item.id,
          item.spaces,
        ]),
      );
    }

    it('counts every live space for a member with a role, and only granted ones for a guest', async () => {
      const org = await t.factories.organization();
      const { id: outer } = await t.factories.collection(org, { title: 'Collection' });
      const { id: inner } = await t.factories.collection(org, {
        title: 'Collection',
        parent: outer,
      });
      const { id: atRoot } = await t.factories.space(org, { title: 'Space' });
      const { id: inOuter } = await t.factories.space(org, { title: 'Space', parent: outer });
      await t.factories.space(org, { title: 'Space', parent: inner });
      const { id: trashed } = await t.factories.space(org, { title: 'Space', parent: outer });
      await org.owner.client.delete(`/v1/spaces/${trashed}`).expect(204);
      const elsewhere = await t.factories.organization();
      await t.factories.space(elsewhere, { title: 'Space' });

      const reader = await t.factories.member(org, 'read');
      const noGrant = await t.factories.member(org, null);
      const direct = await t.factories.member(org, null);
      await insertGrant(t, org, { space: atRoot }, { userId: direct.id }, 'read');
      const viaTeam = await t.factories.member(org, null);
      await insertGrant(
        t,
        org,
        { collection: inner },
        { teamId: await team(org, viaTeam.id) },
        'edit',
      );
      // A grant on the outer collection reaches both levels below; the direct grant on a space
      // inside it is not counted twice, and the trashed space not at all.
      const inherited = await t.factories.member(org, null);
      await insertGrant(t, org, { collection: outer }, { userId: inherited.id }, 'comment');
      await insertGrant(t, org, { space: inOuter }, { userId: inherited.id }, 'edit');
      await insertGrant(t, org, { space: trashed }, { userId: inherited.id }, 'edit');

      expect(await spacesCounts(org)).toEqual({
        [org.owner.id]: 3,
        [reader.id]: 3,
        [noGrant.id]: 0,
        [direct.id]: 1,
        [viaTeam.id]: 1,
        [inherited.id]: 2,
      });
      const one = await reader.client.get(member(org, inherited.id)).expect(200);
      expectConforms(one, 'getMemberInOrganizationById');
      expect(one.body.spaces).toBe(2);

      // The spaces the member listing counts are those its space listing shows.
      for (const user of [org.owner, reader, noGrant, direct, viaTeam, inherited]) {
        const listed = await org.owner.client.get(`${member(org, user.id)}/spaces`).expect(200);
        const read = await org.owner.client.get(member(org, user.id)).expect(200);
        expect({ user: user.id, spaces: read.body.spaces }).toEqual({
          user: user.id,
          spaces: listed.body.count,
        });
      }
    });

    it('follows the trash, restores and role changes', async () => {
      const org = await t.factories.organization();
      const { id: first } = await t.factories.space(org, { title: 'Space' });
      await t.factories.space(org, { title: 'Space' });
      const guest = await t.factories.member(org, null);
      await insertGrant(t, org, { space: first }, { userId: guest.id }, 'read');
      expect(await spacesCounts(org)).toEqual({ [org.owner.id]: 2, [guest.id]: 1 });

      await org.owner.client.delete(`/v1/spaces/${first}`).expect(204);
      expect(await spacesCounts(org)).toEqual({ [org.owner.id]: 1, [guest.id]: 0 });
      await org.owner.client.post(`/v1/spaces/${first}/restore`).expect(200);
      await org.owner.client.patch(member(org, guest.id), { role: 'read' }).expect(200);
      expect(await spacesCounts(org)).toEqual({ [org.owner.id]: 2, [guest.id]: 2 });
    });

    it('counts nothing for a disabled membership, which opens no space', async () => {
      const org = await t.factories.organization();
      const { id: granted } = await t.factories.space(org, { title: 'Space' });
      await t.factories.space(org, { title: 'Space' });
      const disabledReader = await t.factories.member(org, 'read');
      const disabledGuest = await t.factories.member(org, null);
      await insertGrant(t, org, { space: granted }, { userId: disabledGuest.id }, 'read');
      await setMember(org, disabledReader.id, 'disabled', true);
      await setMember(org, disabledGuest.id, 'disabled', true);
      const res = await org.owner.client.get(member(org, disabledReader.id)).expect(200);
      expect(res.body).toEqual(expect.objectContaining({ disabled: true, spaces: 0 }));
      expect(await spacesCounts(org)).toEqual({
        [org.owner.id]: 2,
        [disabledReader.id]: 0,
        [disabledGuest.id]: 0,
      });
      await disabledReader.client.get(`/v1/spaces/${granted}`).expect(404);
    });
  });

  describe('GET /v1/orgs/{organizationId}/members/{userId}/spaces (listSpacesForOrganizationMember)', () => {
    interface MemberSpaceBody {
      permission: Role;
      space: { id: string; title: string; permissions: { admin: boolean; edit: boolean } };
    }

    /** A grant as the permissions API stores it. */
    async function grantRole(
      org: TestOrganization,
      resourceType: 'space' | 'collection',
      resourceId: string,
      grantee: { userId: string } | { teamId: string },
      role: Role,
    ): Promise<void> {
      await t.dataSource.query(
        `INSERT INTO content_grants
           (id, organization_id, resource_type, resource_id, user_id, team_id, role, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, now())`,
        [
          randomBytes(10).toString('hex'),
          org.id,
          resourceType,
          resourceId,
          'userId' in grantee ? grantee.userId : null,
          'teamId' in grantee ? grantee.teamId : null,
          role,
        ],
      );
    }

    const listed = (body: { items: MemberSpaceBody[] }) =>
      body.items.map((item) => [item.space.id, item.permission]);

    it("lists the member's role on each live space, newest first, with the caller's permissions", async () => {
      const org = await t.factories.organization();
      const { id: col } = await t.factories.collection(org, { title: 'Collection' });
      const { id: plain } = await t.factories.later.space(org, { title: 'Space' });
      const { id: granted } = await t.factories.later.space(org, { title: 'Space' });
      const { id: inCollection } = await t.factories.later.space(org, {
        title: 'Space',
        parent: col,
      });
      const { id: trashed } = await t.factories.later.space(org, { title: 'Space' });
      await org.owner.client.delete(`/v1/spaces/${trashed}`).expect(204);
      await t.factories.later.space(await t.factories.organization(), { title: 'Space' });
      const target = await t.factories.member(org, 'read');
      await grantRole(org, 'space', granted, { userId: target.id }, 'edit');
      await grantRole(org, 'collection', col, { userId: target.id }, 'admin');

      const viewer = await t.factories.asMember(org, 'comment');
      const res = await viewer.get(`${member(org, target.id)}/spaces`).expect(200);
      expectConforms(res, 'listSpacesForOrganizationMember');
      expect(res.body.count).toBe(3);
      expect(res.body.next).toBeUndefined();
      expect(listed(res.body)).toEqual([
        [inCollection, 'admin'],
        [granted, 'edit'],
        [plain, 'read'],
      ]);
      // `space.permissions` are the caller's (a comment member), not the listed member's.
      for (const item of res.body.items as MemberSpaceBody[]) {
        expect(item.space.permissions).toMatchObject({ admin: false, edit: false });
      }
      const asOwner = await org.owner.client.get(`${member(org, target.id)}/spaces`).expect(200);
      expect(listed(asOwner.body)).toEqual(listed(res.body));
      for (const item of asOwner.body.items as MemberSpaceBody[]) {
        expect(item.space.permissions.admin).toBe(true);
      }
    });

    it('lists oldest first with order=asc, and pages with limit and page', async () => {
      const org = await t.factories.organization();
      const made = [
        (await t.factories.later.space(org, { title: 'Space' })).id,
        (await t.factories.later.space(org, { title: 'Space' })).id,
        (await t.factories.later.space(org, { title: 'Space' })).id,
      ];
      const target = await t.factories.member(org, 'edit');
      const path = `${member(org, target.id)}/spaces`;

      const asc = await org.owner.client.get(`${path}?order=asc`).expect(200);
      expect(listed(asc.body)).toEqual(made.map((id) => [id, 'edit']));

      const page1 = await org.owner.client.get(`${path}?order=desc&limit=2`).expect(200);
      expectConforms(page1, 'listSpacesForOrganizationMember');
      expect(page1.body.count).toBe(3);
      expect(listed(page1.body).map(([id]) => id)).toEqual([made[2], made[1]]);
      const page2 = await org.owner.client
        .get(`${path}?order=desc&limit=2&page=${page1.body.next.page}`)
        .expect(200);
      expect(listed(page2.body).map(([id]) => id)).toEqual([made[0]]);
      expect(page2.body.next).toBeUndefined();
      // A page identifier belongs to its order.
      const mixed = await org.owner.client.get(`${path}?order=asc&page=${page1.body.next.page}`);
      expect(mixed.status).toBe(400);
      expect(mixed.body).toEqual({
        error: { code: 400, message: expect.stringContaining('page') },
      });
    });

    it('lists for a guest only the spaces granted to it or its team, with those roles', async () => {
      const org = await t.factories.organization();
      const { id: col } = await t.factories.collection(org, { title: 'Collection' });
      await t.factories.later.space(org, { title: 'Space' });
      const { id: direct } = await t.factories.later.space(org, { title: 'Space' });
      const { id: viaTeam } = await t.factories.later.space(org, { title: 'Space' });
      const { id: viaCollection } = await t.factories.later.space(org, {
        title: 'Space',
        parent: col,
      });
      const guest = await t.factories.member(org, null);
      const path = `${member(org, guest.id)}/spaces?order=asc`;
      expect((await org.owner.client.get(path).expect(200)).body).toEqual({ items: [], count: 0 });

      await grantRole(org, 'space', direct, { userId: guest.id }, 'comment');
      await grantRole(org, 'space', viaTeam, { teamId: await team(org, guest.id) }, 'review');
      await grantRole(org, 'collection', col, { userId: guest.id }, 'read');
      const res = await org.owner.client.get(path).expect(200);
      expectConforms(res, 'listSpacesForOrganizationMember');
      expect(res.body.count).toBe(3);
      expect(listed(res.body)).toEqual([
        [direct, 'comment'],
        [viaTeam, 'review'],
        [viaCollection, 'read'],
      ]);
    });

    it('answers 404 for a disabled member', async () => {
      const org = await t.factories.organization();
      await t.factories.later.space(org, { title: 'Space' });
      const gone = await t.factories.member(org, 'read');
      await setMember(org, gone.id, 'disabled', true);
      const res = await org.owner.client.get(`${member(org, gone.id)}/spaces`).expect(404);
      expect(res.body).toEqual({ error: { code: 404, message: 'Member not found.' } });
    });

    it('answers 404 for a user who is not a member', async () => {
      const org = await t.factories.organization();
      const outsider = await t.factories.user();
      const res = await org.owner.client.get(`${member(org, outsider.id)}/spaces`).expect(404);
      expect(res.body).toEqual({ error: { code: 404, message: 'Member not found.' } });
    });

    it.each([
      ['order=up', 'order'],
      ['limit=0', 'limit'],
      ['sort=title', 'sort'],
    ])('refuses ?%s with 400 naming %s', async (query, field) => {
      const org = await t.factories.organization();
      const res = await org.owner.client
        .get(`${member(org, org.owner.id)}/spaces?${query}`)
        .expect(400);
      expect(res.body).toEqual({ error: { code: 400, message: expect.stringContaining(field) } });
    });

    it('answers 403 to a guest and 404 to a caller of another organization', async () => {
      const org = await t.factories.organization();
      const guest = await t.factories.asMember(org, null);
      await guest.get(`${member(org, org.owner.id)}/spaces`).expect(403);
      const stranger = await t.factories.organization();
      await stranger.owner.client.get(`${member(org, org.owner.id)}/spaces`).expect(404);
    });
  });
});
