import type { Role } from '../src/platform/policy/roles';
import { createTestApp, type TestApp } from './helpers/app';
import type { Client } from './helpers/client';
import { expectConforms, GITBOOK_0202 } from './helpers/conformance';
import { type Answer, expectError, grantsKit } from './helpers/content-grants';
import type { TestOrganization, TestUser } from './helpers/factories';

/**
 * Site access for teams and people: GitBook's eight site permission operations
 * (`/v1/orgs/{organizationId}/sites/{siteId}/permissions...`), and what a grant on a site does:
 * it raises the member's role on that site (its `permissions`, its management routes, its
 * published face when the site's visibility keeps it to members) and on no other; removing the
 * grant takes it away.
 */
/** Checks the answer against GitBook's 0.202 spec, where the site permission routes are. */
const conforms = (res: Parameters<typeof expectConforms>[0], operationId: string) =>
  expectConforms(res, operationId, GITBOOK_0202);

/** The operations for which GitBook's spec declares a 404 answer (checked against it). */
const SPEC_DECLARES_404 = new Set([
  'inviteToSite',
  'listUserPermissionsInSite',
  'updateUserPermissionInSite',
  'listTeamPermissionsInSite',
  'updateTeamPermissionInSite',
]);

describe('site permissions', () => {
  let t: TestApp;
  const kit = grantsKit(() => t);
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const site = (org: TestOrganization, id: string) => `/v1/orgs/${org.id}/sites/${id}`;
  const permissions = (org: TestOrganization, id: string) => `${site(org, id)}/permissions`;
  const users = (org: TestOrganization, id: string) => `${permissions(org, id)}/users`;
  const teams = (org: TestOrganization, id: string) => `${permissions(org, id)}/teams`;
  const aggregate = (org: TestOrganization, id: string) => `${permissions(org, id)}/aggregate`;

  const newSite = async (org: TestOrganization, fields: { visibility?: string } = {}) =>
    (await t.factories.later.site(org, fields)).id;

  interface InviteBody {
    role: Role | null;
    users?: string[];
    teams?: string[];
  }
  async function invite(org: TestOrganization, id: string, body: InviteBody): Promise<void> {
    t.clock.advance(1000);
    const res = await org.owner.client.post(permissions(org, id), body).expect(204);
    conforms(res, 'inviteToSite');
  }

  /** The grants listed on the site (users or teams), by grantee id. */
  async function grants(
    org: TestOrganization,
    id: string,
    kind: 'users' | 'teams',
  ): Promise<Record<string, string>> {
    const res = await org.owner.client
      .get(`${kind === 'users' ? users(org, id) : teams(org, id)}?limit=1000`)
      .expect(200);
    conforms(res, kind === 'users' ? 'listUserPermissionsInSite' : 'listTeamPermissionsInSite');
    return Object.fromEntries(
      (
        res.body.items as { permission: string; user?: { id: string }; team?: { id: string } }[]
      ).map((item) => [(item.user ?? item.team)!.id, item.permission]),
    );
  }

  /** The site's `permissions` as `client` sees them in getSiteById. */
  async function seen(client: Client, org: TestOrganization, id: string) {
    const res = await client.get(site(org, id)).expect(200);
    conforms(res, 'getSiteById');
    return res.body.permissions as Record<string, boolean>;
  }

  /** Whether `client` may change the site's title (updateSiteById, which takes `create`). */
  const rename = (client: Client, org: TestOrganization, id: string) =>
    client.patch(site(org, id), { title: `Renamed ${Date.now()}` });

  /** 404 for an unknown site or another organization's, 403 below the site's admin role. */
  async function expectGuarded(
    operationId: string,
    send: (client: Client, org: TestOrganization, id: string) => PromiseLike<Answer>,
  ): Promise<void> {
    const org = await t.factories.organization();
    const id = await newSite(org);
    const unknown = await send(org.owner.client, org, 'nope');
    expectError(unknown, 404, 'Site not found');
    if (SPEC_DECLARES_404.has(operationId)) conforms(unknown, operationId);
    const stranger = await t.factories.organization();
    // Another organization's caller: neither its own organization nor ours shows the site.
    expectError(await send(stranger.owner.client, org, id), 404, 'not found');
    expectError(await send(stranger.owner.client, stranger, id), 404, 'Site not found');
    // The create role changes a site, but granting roles on it takes admin there.
    const creator = await t.factories.member(org, 'create');
    expectError(await send(creator.client, org, id), 403, '');
    // A role granted on the site below admin is not enough either.
    await invite(org, id, { role: 'create', users: [creator.id] });
    expectError(await send(creator.client, org, id), 403, '');
    const guest = await t.factories.member(org, null);
    expectError(await send(guest.client, org, id), 403, '');
  }

  describe('POST .../permissions (inviteToSite)', () => {
    it('lets a read member granted admin on one site change that site, not another, until removed', async () => {
      const org = await t.factories.organization();
      const granted = await newSite(org);
      const other = await newSite(org);
      const reader = await t.factories.member(org, 'read');
      await rename(reader.client, org, granted).expect(403);
      expect(await seen(reader.client, org, granted)).toMatchObject({
        access: true,
        create: false,
        admin: false,
      });

      await invite(org, granted, { role: 'admin', users: [reader.id] });
      expect(await seen(reader.client, org, granted)).toEqual({
        view: true,
        access: true,
        edit: true,
        create: true,
        admin: true,
        installIntegration: true,
        viewAdaptiveSchema: true,
        editAdaptiveSchema: true,
      });
      const renamed = await rename(reader.client, org, granted).expect(200);
      conforms(renamed, 'updateSiteById');
      expect(renamed.body.permissions).toMatchObject({ admin: true });
      // Its own permission routes open to it too.
      await reader.client.get(users(org, granted)).expect(200);
      // Not another site.
      await rename(reader.client, org, other).expect(403);
      expect(await seen(reader.client, org, other)).toMatchObject({ create: false, admin: false });
      await reader.client.get(users(org, other)).expect(403);
      // The list shows each site with the caller's own permissions on it.
      const list = await reader.client.get(`/v1/orgs/${org.id}/sites?limit=100`).expect(200);
      conforms(list, 'listSites');
      const byId = Object.fromEntries(
        (list.body.items as { id: string; permissions: { admin: boolean } }[]).map((item) => [
          item.id,
          item.permissions.admin,
        ]),
      );
      expect(byId).toEqual({ [granted]: true, [other]: false });

      const removed = await org.owner.client
        .delete(`${users(org, granted)}/${reader.id}`)
        .expect(204);
      conforms(removed, 'removeUserFromSite');
      await rename(reader.client, org, granted).expect(403);
      expect(await seen(reader.client, org, granted)).toMatchObject({
        create: false,
        admin: false,
      });
    });

    it("gives a team's members the role on the site, guests included, until the team's grant goes", async () => {
      const org = await t.factories.organization();
      const id = await newSite(org);
      const guest = await t.factories.member(org, null);
      const outsider = await t.factories.member(org, null);
      // A guest holds no role on the organization's sites.
      await guest.client.get(site(org, id)).expect(403);
      const teamId = await kit.team(org, [guest.id]);
      await invite(org, id, { role: 'create', teams: [teamId] });

      expect(await seen(guest.client, org, id)).toMatchObject({
        access: true,
        edit: true,
        create: true,
        admin: false,
      });
      await rename(guest.client, org, id).expect(200);
      await guest.client
        .post(`${site(org, id)}/site-spaces`, { spaceId: (await t.factories.space(org)).id })
        .expect(201);
      await guest.client.post(`${site(org, id)}/publish`).expect(200);
      await outsider.client.get(site(org, id)).expect(403);
      await rename(outsider.client, org, id).expect(403);
      // The team's grant is not one of its members'.
      expect(await grants(org, id, 'users')).toEqual({});
      expect(await grants(org, id, 'teams')).toEqual({ [teamId]: 'create' });

      const removed = await org.owner.client.delete(`${teams(org, id)}/${teamId}`).expect(204);
      conforms(removed, 'removeTeamFromSite');
      await guest.client.get(site(org, id)).expect(403);
      await rename(guest.client, org, id).expect(403);
    });

    it('takes the higher of the organization role and the grants: a grant never lowers', async () => {
      const org = await t.factories.organization();
      const id = await newSite(org);
      const creator = await t.factories.member(org, 'create');
      await invite(org, id, { role: 'read', users: [creator.id] });
      await rename(creator.client, org, id).expect(200);
      expect(await seen(creator.client, org, id)).toMatchObject({ create: true, admin: false });
    });

    it('upserts the role of users and teams, and null removes their grants', async () => {
      const org = await t.factories.organization();
      const id = await newSite(org);
      const member = await t.factories.member(org, 'read');
      const teamId = await kit.team(org);
      await invite(org, id, { role: 'read', users: [member.id, member.id], teams: [teamId] });
      await invite(org, id, { role: 'admin', users: [member.id], teams: [teamId] });
      expect(await grants(org, id, 'users')).toEqual({ [member.id]: 'admin' });
      expect(await grants(org, id, 'teams')).toEqual({ [teamId]: 'admin' });
      expect(await seen(member.client, org, id)).toMatchObject({ admin: true });

      await invite(org, id, { role: null, users: [member.id], teams: [teamId] });
      expect(await grants(org, id, 'users')).toEqual({});
      expect(await grants(org, id, 'teams')).toEqual({});
      expect(await seen(member.client, org, id)).toMatchObject({ access: true, admin: false });
    });

    it('answers 400 for unknown users and teams, a bad role, and a bad body', async () => {
      const org = await t.factories.organization();
      const id = await newSite(org);
      const member = await t.factories.member(org, 'read');
      const outsider = await t.factories.user();
      const foreignTeam = await kit.team(await t.factories.organization());
      const post = (body: object) => org.owner.client.post(permissions(org, id), body);
      expectError(
        await post({ role: 'read', users: [member.id, outsider.id] }),
        400,
        `users: not members of this organization: ${outsider.id}`,
      );
      expectError(
        await post({ role: 'read', teams: [foreignTeam] }),
        400,
        `teams: no team ${foreignTeam}`,
      );
      expectError(await post({ role: 'owner', users: [member.id] }), 400, 'role must be one of');
      expectError(await post({ users: [member.id] }), 400, 'role is required');
      expectError(await post({ role: 'read' }), 400, 'users, teams');
      expectError(await post({ role: 'read', users: [] }), 400, 'users must contain at least 1');
      expectError(await post({ role: 'read', emails: ['a@example.com'] }), 400, 'emails');
      expect(await grants(org, id, 'users')).toEqual({});
      expect(await grants(org, id, 'teams')).toEqual({});
    });

    it('answers 404 for an unknown site or another organization’s, 403 for non-admins', () =>
      expectGuarded('inviteToSite', (client, org, id) =>
        client.post(permissions(org, id), { role: 'read', users: ['u'] }),
      ));

    it('drops the grants with the site', async () => {
      const org = await t.factories.organization();
      const id = await newSite(org);
      const member = await t.factories.member(org, 'read');
      await invite(org, id, { role: 'admin', users: [member.id], teams: [await kit.team(org)] });
      await org.owner.client.delete(site(org, id)).expect(204);
      const [{ count }] = await t.dataSource.query(
        `SELECT COUNT(*)::int AS count FROM content_grants WHERE resource_id = $1`,
        [id],
      );
      expect(count).toBe(0);
    });
  });

  describe("a published site's members-only face", () => {
    const published = (client: Client, org: TestOrganization, id: string) =>
      client.get(`${site(org, id)}/published`);

    it('opens to a guest granted a role on the site, directly or through a team, and to no one else', async () => {
      const org = await t.factories.organization();
      const id = await newSite(org, { visibility: 'visitor-auth' });
      const other = await newSite(org, { visibility: 'visitor-auth' });
      for (const siteId of [id, other]) {
        await org.owner.client.post(`${site(org, siteId)}/publish`).expect(200);
      }
      const granted = await t.factories.member(org, null);
      const teamGuest = await t.factories.member(org, null);
      const ungranted = await t.factories.member(org, null);
      const stranger = await t.factories.user();
      for (const user of [granted, teamGuest, ungranted, stranger]) {
        await published(user.client, org, id).expect(404);
      }

      await invite(org, id, { role: 'read', users: [granted.id] });
      await invite(org, id, { role: 'read', teams: [await kit.team(org, [teamGuest.id])] });
      for (const user of [granted, teamGuest]) {
        const res = await published(user.client, org, id).expect(200);
        conforms(res, 'getPublishedContentSite');
        expect(res.body.site).toMatchObject({ id });
        // Only that site.
        await published(user.client, org, other).expect(404);
      }
      await published(ungranted.client, org, id).expect(404);
      await published(stranger.client, org, id).expect(404);

      await org.owner.client.delete(`${users(org, id)}/${granted.id}`).expect(204);
      await published(granted.client, org, id).expect(404);
      await published(teamGuest.client, org, id).expect(200);
    });
  });

  describe("a visitor-auth site's lookup with a member's visitor claims", () => {
    it('opens to members with a role and to guests granted on the site, not to other guests', async () => {
      const org = await t.factories.organization();
      const id = await newSite(org, { visibility: 'visitor-auth' });
      await t.factories.siteSpace(org, id, { spaceTitle: 'Guides' });
      const res = await org.owner.client.post(`${site(org, id)}/publish`).expect(200);
      const url = res.body.urls.published as string;
      const reader = await t.factories.member(org, 'read');
      const granted = await t.factories.member(org, null);
      const ungranted = await t.factories.member(org, null);
      await invite(org, id, { role: 'read', teams: [await kit.team(org, [granted.id])] });
      const lookup = async (user: TestUser) => {
        const ping = await user.client.post(`/v1/orgs/${org.id}/ping`).expect(200);
        return t.anonymous.post('/v1/urls/published', {
          url,
          visitor: { jwtToken: ping.body.docsVisitorClaims, unsignedClaims: {} },
        });
      };
      for (const user of [reader, granted]) {
        const opened = await lookup(user);
        expect([opened.status, opened.body.site]).toEqual([200, id]);
      }
      const closed = await lookup(ungranted);
      expectError(closed, 401, 'visitor token');
    });
  });

  describe('GET .../permissions/aggregate (listPermissionsAggregateInSite)', () => {
    interface AggregateItem {
      permission: string;
      user: { id: string };
      origin: Record<string, string>;
      disabled: boolean;
    }
    async function list(org: TestOrganization, id: string, query = '') {
      const res = await org.owner.client
        .get(`${aggregate(org, id)}?limit=1000${query}`)
        .expect(200);
      conforms(res, 'listPermissionsAggregateInSite');
      expect(res.body.count).toBe(res.body.items.length);
      return res.body.items as AggregateItem[];
    }
    const ids = (items: AggregateItem[]) => items.map((item) => item.user.id);

    async function setting() {
      const org = await t.factories.organization();
      const id = await newSite(org);
      const reader = await t.factories.member(org, 'read');
      const userGuest = await t.factories.member(org, null);
      const teamGuest = await t.factories.member(org, null);
      const ungranted = await t.factories.member(org, null);
      const users: TestUser[] = [org.owner, reader, userGuest, teamGuest, ungranted];
      await kit.joinInOrder(org, users);
      const teamId = await kit.team(org, [teamGuest.id, reader.id]);
      await invite(org, id, { role: 'edit', users: [userGuest.id] });
      await invite(org, id, { role: 'create', teams: [teamId] });
      // A grant on another site does not count.
      await invite(org, await newSite(org), { role: 'admin', users: [ungranted.id] });
      return { org, id, reader, userGuest, teamGuest, teamId };
    }

    it('lists everyone who can reach the site with its effective role and where it comes from', async () => {
      const { org, id, reader, userGuest, teamGuest, teamId } = await setting();
      const organization = { type: 'organization', organization: org.id };
      // Newest member first by default, as GitBook's member lists.
      expect(await list(org, id)).toEqual([
        {
          permission: 'create',
          user: expect.objectContaining({ id: teamGuest.id }),
          origin: { type: 'site', site: id, reason: 'team', team: teamId },
          disabled: false,
        },
        {
          permission: 'edit',
          user: expect.objectContaining({ id: userGuest.id }),
          origin: { type: 'site', site: id, reason: 'member' },
          disabled: false,
        },
        {
          permission: 'create',
          user: expect.objectContaining({ id: reader.id }),
          origin: { type: 'site', site: id, reason: 'team', team: teamId },
          disabled: false,
        },
        {
          permission: 'admin',
          user: expect.objectContaining({ id: org.owner.id }),
          origin: organization,
          disabled: false,
        },
      ]);
      // Each listed role is the one the member holds on the site.
      for (const [user, admin] of [
        [reader, false],
        [userGuest, false],
      ] as const) {
        expect(await seen(user.client, org, id)).toMatchObject({ access: true, admin });
      }
    });

    it('filters by role, guests, team and text, and sorts and orders', async () => {
      const { org, id, reader, userGuest, teamGuest, teamId } = await setting();
      expect(ids(await list(org, id, '&role=create'))).toEqual([teamGuest.id, reader.id]);
      expect(ids(await list(org, id, '&role=guest&order=asc'))).toEqual([
        userGuest.id,
        teamGuest.id,
      ]);
      expect(ids(await list(org, id, `&team=${teamId}&order=asc`))).toEqual([
        reader.id,
        teamGuest.id,
      ]);
      expect(ids(await list(org, id, `&search=${encodeURIComponent(userGuest.email)}`))).toEqual([
        userGuest.id,
      ]);
      expect(ids(await list(org, id, '&order=asc'))).toEqual([
        org.owner.id,
        reader.id,
        userGuest.id,
        teamGuest.id,
      ]);
      const byName = ids(await list(org, id, '&sort=name&order=asc'));
      const names = new Map(
        [org.owner, reader, userGuest, teamGuest].map((user) => [user.id, user.displayName]),
      );
      expect(byName.map((userId) => names.get(userId))).toEqual(
        [...names.values()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
      );
      // Nobody of the list has been seen yet.
      expect(await list(org, id, '&sort=lastSeenAt')).toEqual([]);
    });

    it('pages', async () => {
      const { org, id } = await setting();
      const first = await org.owner.client.get(`${aggregate(org, id)}?limit=3`).expect(200);
      conforms(first, 'listPermissionsAggregateInSite');
      expect(first.body.count).toBe(4);
      expect(first.body.items).toHaveLength(3);
      const second = await org.owner.client
        .get(`${aggregate(org, id)}?limit=3&page=${encodeURIComponent(first.body.next.page)}`)
        .expect(200);
      expect(second.body.items).toHaveLength(1);
      expect(second.body.next).toBeUndefined();
    });

    it('answers 400 for a bad filter, sort or page', async () => {
      const org = await t.factories.organization();
      const id = await newSite(org);
      const get = (query: string) => org.owner.client.get(`${aggregate(org, id)}?${query}`);
      expectError(await get('role=owner'), 400, 'role');
      expectError(await get('sort=email'), 400, 'sort');
      expectError(await get('order=up'), 400, 'order');
      expectError(await get('limit=0'), 400, 'limit');
      expectError(await get('page=garbage'), 400, 'page');
    });

    it('answers 404 for an unknown site or another organization’s, 403 for non-admins', () =>
      expectGuarded('listPermissionsAggregateInSite', (client, org, id) =>
        client.get(aggregate(org, id)),
      ));
  });

  describe('GET .../permissions/users (listUserPermissionsInSite)', () => {
    it('lists the users granted a role on the site, oldest grant first, in pages', async () => {
      const org = await t.factories.organization();
      const id = await newSite(org);
      const a = await t.factories.member(org, null);
      const b = await t.factories.member(org, 'edit');
      const c = await t.factories.member(org, 'read');
      await invite(org, id, { role: 'comment', users: [a.id] });
      await invite(org, id, { role: 'admin', users: [b.id] });
      await invite(org, id, { role: 'read', users: [c.id], teams: [await kit.team(org, [a.id])] });
      const first = await org.owner.client.get(`${users(org, id)}?limit=2`).expect(200);
      conforms(first, 'listUserPermissionsInSite');
      expect(first.body.count).toBe(3);
      expect(first.body.items).toEqual([
        { permission: 'comment', user: expect.objectContaining({ object: 'user', id: a.id }) },
        { permission: 'admin', user: expect.objectContaining({ id: b.id }) },
      ]);
      const second = await org.owner.client
        .get(`${users(org, id)}?limit=2&page=${encodeURIComponent(first.body.next.page)}`)
        .expect(200);
      conforms(second, 'listUserPermissionsInSite');
      expect(second.body.items).toEqual([
        { permission: 'read', user: expect.objectContaining({ id: c.id }) },
      ]);
      expectError(await org.owner.client.get(`${users(org, id)}?limit=0`), 400, 'limit');
    });

    it('answers 404 for an unknown site or another organization’s, 403 for non-admins', () =>
      expectGuarded('listUserPermissionsInSite', (client, org, id) => client.get(users(org, id))));
  });

  describe('PATCH .../permissions/users/{userId} (updateUserPermissionInSite)', () => {
    it('sets the role, creating the grant if absent; null removes it', async () => {
      const org = await t.factories.organization();
      const id = await newSite(org);
      const guest = await t.factories.member(org, null);
      const patch = (role: Role | null) =>
        org.owner.client.patch(`${users(org, id)}/${guest.id}`, { role }).expect(204);
      conforms(await patch('read'), 'updateUserPermissionInSite');
      expect(await grants(org, id, 'users')).toEqual({ [guest.id]: 'read' });
      expect(await seen(guest.client, org, id)).toMatchObject({ access: true, create: false });
      await rename(guest.client, org, id).expect(403);
      await patch('admin');
      expect(await seen(guest.client, org, id)).toMatchObject({ admin: true });
      await rename(guest.client, org, id).expect(200);
      await patch(null);
      expect(await grants(org, id, 'users')).toEqual({});
      await guest.client.get(site(org, id)).expect(403);
    });

    it('answers 400 for a bad or missing role, 404 for a user not of the organization', async () => {
      const org = await t.factories.organization();
      const id = await newSite(org);
      const member = await t.factories.member(org, 'read');
      const patch = (userId: string, body: object) =>
        org.owner.client.patch(`${users(org, id)}/${userId}`, body);
      expectError(await patch(member.id, { role: 'owner' }), 400, 'role must be one of');
      expectError(await patch(member.id, {}), 400, 'role is required');
      expectError(await patch(member.id, { role: 'read', extra: 1 }), 400, 'extra');
      const outsider = await t.factories.user();
      const res = await patch(outsider.id, { role: 'read' });
      expectError(res, 404, 'User not found');
      conforms(res, 'updateUserPermissionInSite');
      expect(await grants(org, id, 'users')).toEqual({});
    });

    it('answers 404 for an unknown site or another organization’s, 403 for non-admins', () =>
      expectGuarded('updateUserPermissionInSite', (client, org, id) =>
        client.patch(`${users(org, id)}/someone`, { role: 'read' }),
      ));
  });

  describe('DELETE .../permissions/users/{userId} (removeUserFromSite)', () => {
    it("removes only that user's grant, and answers 204 when there is none", async () => {
      const org = await t.factories.organization();
      const id = await newSite(org);
      const a = await t.factories.member(org, 'read');
      const b = await t.factories.member(org, 'read');
      await invite(org, id, { role: 'admin', users: [a.id, b.id] });
      await org.owner.client.delete(`${users(org, id)}/${a.id}`).expect(204);
      expect(await grants(org, id, 'users')).toEqual({ [b.id]: 'admin' });
      const again = await org.owner.client.delete(`${users(org, id)}/${a.id}`).expect(204);
      conforms(again, 'removeUserFromSite');
      await org.owner.client.delete(`${users(org, id)}/nobody`).expect(204);
    });

    it('answers 404 for an unknown site or another organization’s, 403 for non-admins', () =>
      expectGuarded('removeUserFromSite', (client, org, id) =>
        client.delete(`${users(org, id)}/someone`),
      ));
  });

  describe('GET .../permissions/teams (listTeamPermissionsInSite)', () => {
    it('lists the teams granted a role on the site, oldest grant first, in pages', async () => {
      const org = await t.factories.organization();
      const id = await newSite(org);
      const member = await t.factories.member(org, 'read');
      const first = await kit.team(org, [member.id]);
      const second = await kit.team(org);
      await invite(org, id, { role: 'edit', teams: [first] });
      await invite(org, id, { role: 'admin', teams: [second], users: [member.id] });
      const page = await org.owner.client.get(`${teams(org, id)}?limit=1`).expect(200);
      conforms(page, 'listTeamPermissionsInSite');
      expect(page.body.count).toBe(2);
      expect(page.body.items).toEqual([
        {
          permission: 'edit',
          team: expect.objectContaining({ object: 'team', id: first, members: 1 }),
        },
      ]);
      const next = await org.owner.client
        .get(`${teams(org, id)}?limit=1&page=${encodeURIComponent(page.body.next.page)}`)
        .expect(200);
      expect(next.body.items).toEqual([
        { permission: 'admin', team: expect.objectContaining({ id: second }) },
      ]);
      expectError(await org.owner.client.get(`${teams(org, id)}?page=garbage`), 400, 'page');
    });

    it('answers 404 for an unknown site or another organization’s, 403 for non-admins', () =>
      expectGuarded('listTeamPermissionsInSite', (client, org, id) => client.get(teams(org, id))));
  });

  describe('PATCH .../permissions/teams/{teamId} (updateTeamPermissionInSite)', () => {
    it("sets the team's role, creating the grant if absent; null removes it", async () => {
      const org = await t.factories.organization();
      const id = await newSite(org);
      const guest = await t.factories.member(org, null);
      const teamId = await kit.team(org, [guest.id]);
      const patch = (role: Role | null) =>
        org.owner.client.patch(`${teams(org, id)}/${teamId}`, { role }).expect(204);
      conforms(await patch('admin'), 'updateTeamPermissionInSite');
      expect(await grants(org, id, 'teams')).toEqual({ [teamId]: 'admin' });
      expect(await seen(guest.client, org, id)).toMatchObject({ admin: true });
      await guest.client.get(users(org, id)).expect(200);
      await patch('read');
      expect(await seen(guest.client, org, id)).toMatchObject({ access: true, admin: false });
      await patch(null);
      expect(await grants(org, id, 'teams')).toEqual({});
      await guest.client.get(site(org, id)).expect(403);
    });

    it('answers 400 for a bad role, 404 for a team not of the organization', async () => {
      const org = await t.factories.organization();
      const id = await newSite(org);
      const teamId = await kit.team(org);
      expectError(
        await org.owner.client.patch(`${teams(org, id)}/${teamId}`, { role: 'owner' }),
        400,
        'role must be one of',
      );
      const foreign = await kit.team(await t.factories.organization());
      for (const unknown of [foreign, 'nope']) {
        const res = await org.owner.client.patch(`${teams(org, id)}/${unknown}`, { role: 'read' });
        expectError(res, 404, 'Team not found');
        conforms(res, 'updateTeamPermissionInSite');
      }
      expect(await grants(org, id, 'teams')).toEqual({});
    });

    it('answers 404 for an unknown site or another organization’s, 403 for non-admins', () =>
      expectGuarded('updateTeamPermissionInSite', (client, org, id) =>
        client.patch(`${teams(org, id)}/someteam`, { role: 'read' }),
      ));
  });

  describe('DELETE .../permissions/teams/{teamId} (removeTeamFromSite)', () => {
    it("removes only that team's grant, and answers 204 when there is none", async () => {
      const org = await t.factories.organization();
      const id = await newSite(org);
      const a = await kit.team(org);
      const b = await kit.team(org);
      await invite(org, id, { role: 'edit', teams: [a, b] });
      await org.owner.client.delete(`${teams(org, id)}/${a}`).expect(204);
      expect(await grants(org, id, 'teams')).toEqual({ [b]: 'edit' });
      const again = await org.owner.client.delete(`${teams(org, id)}/${a}`).expect(204);
      conforms(again, 'removeTeamFromSite');
    });

    it('answers 404 for an unknown site or another organization’s, 403 for non-admins', () =>
      expectGuarded('removeTeamFromSite', (client, org, id) =>
        client.delete(`${teams(org, id)}/someteam`),
      ));
  });
});
