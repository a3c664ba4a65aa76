import { Member } from '../src/orgs/entities/member.entity';
import { createTestApp, TestApp } from './helpers/app';
import type { Client } from './helpers/client';
import { expectConforms } from './helpers/conformance';
import { TestOrganization, TestUser } from './helpers/factories';

interface UserPermissionBody {
  permission: string;
  user: { object: 'user'; id: string; displayName: string };
}
interface TeamPermissionBody {
  permission: string;
  team: { object: 'team'; id: string; title: string; members: number };
}

const collectionsPath = (org: TestOrganization) => `/v1/orgs/${org.id}/collections`;
const collectionPath = (id: string) => `/v1/collections/${id}`;
const permissionsPath = (id: string) => `/v1/collections/${id}/permissions`;
const usersPath = (id: string) => `${permissionsPath(id)}/users`;
const teamsPath = (id: string) => `${permissionsPath(id)}/teams`;
const aggregatePath = (id: string) => `${permissionsPath(id)}/aggregate`;

describe('collection permissions', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** A collection made by the organization's owner, one second after the last. */
  async function collection(org: TestOrganization, parent?: string): Promise<string> {
    t.clock.advance(1000);
    const body = parent ? { parent } : {};
    const res = await org.owner.client.post(collectionsPath(org), body).expect(201);
    return (res.body as { id: string }).id;
  }

  async function team(org: TestOrganization, members: string[] = []): Promise<string> {
    const res = await org.owner.client
      .put(`/v1/orgs/${org.id}/teams`, { title: 'Writers', members })
      .expect(201);
    return (res.body as { id: string }).id;
  }

  /** Invites one second after the last, so grants are ordered by creation. */
  async function invite(org: TestOrganization, id: string, body: object): Promise<void> {
    t.clock.advance(1000);
    await org.owner.client.post(permissionsPath(id), body).expect(204);
  }

  async function userGrants(org: TestOrganization, id: string): Promise<Record<string, string>> {
    const res = await org.owner.client.get(`${usersPath(id)}?limit=1000`).expect(200);
    return Object.fromEntries(
      (res.body.items as UserPermissionBody[]).map((item) => [item.user.id, item.permission]),
    );
  }

  async function teamGrants(org: TestOrganization, id: string): Promise<Record<string, string>> {
    const res = await org.owner.client.get(`${teamsPath(id)}?limit=1000`).expect(200);
    return Object.fromEntries(
      (res.body.items as TeamPermissionBody[]).map((item) => [item.team.id, item.permission]),
    );
  }

  async function visibleIds(org: TestOrganization, client: Client): Promise<string[]> {
    const res = await client.get(`${collectionsPath(org)}?limit=1000`).expect(200);
    return (res.body.items as { id: string }[]).map((item) => item.id);
  }

  /** Gives the members join dates one minute apart, in the order given. */
  async function joinInOrder(org: TestOrganization, users: TestUser[]): Promise<void> {
    for (const [i, user] of users.entries()) {
      await t.dataSource
        .getRepository(Member)
        .update(
          { organizationId: org.id, userId: user.id },
          { joinedAt: new Date(Date.UTC(2024, 0, 1, 0, i)) },
        );
    }
  }

  /** The aggregate as `[userId, role]` pairs, in the list's order (all on one page). */
  async function aggregate(org: TestOrganization, id: string, query = ''): Promise<string[][]> {
    const res = await org.owner.client.get(`${aggregatePath(id)}?limit=1000${query}`).expect(200);
    expectConforms(res, 'listPermissionsAggregateInCollection');
    expect(res.body.count).toBe(res.body.items.length);
    return (res.body.items as UserPermissionBody[]).map((item) => [item.user.id, item.permission]);
  }

  function expectError(res: { status: number; body: unknown }, code: number, text: string) {
    expect(res.status).toBe(code);
    expect(res.body).toEqual({ error: { code, message: expect.stringContaining(text) } });
  }

  /** The 404 (unknown collection, other organization) and 403 (non-admin member) checks. */
  async function expectGuarded(
    send: (client: Client, collectionId: string) => Promise<{ status: number; body: unknown }>,
  ): Promise<void> {
    const org = await t.factories.organization();
    const id = await collection(org);
    expectError(await send(org.owner.client, 'nope'), 404, 'Collection not found');
    const stranger = (await t.factories.organization()).owner.client;
    expectError(await send(stranger, id), 404, 'Collection not found');
    const editor = await t.factories.asMember(org, 'edit');
    expectError(await send(editor, id), 403, '');
  }

  describe('POST /v1/collections/{collectionId}/permissions (inviteToCollection)', () => {
    it('lets a guest granted read see the collection, until the grant is removed', async () => {
      const org = await t.factories.organization();
      const id = await collection(org);
      const other = await collection(org);
      const guest = await t.factories.member(org, null);
      await guest.client.get(collectionPath(id)).expect(404);
      expect(await visibleIds(org, guest.client)).toEqual([]);

      await invite(org, id, { role: 'read', users: [guest.id] });
      const read = await guest.client.get(collectionPath(id)).expect(200);
      expect(read.body.permissions).toMatchObject({ view: true, admin: false });
      expect(await visibleIds(org, guest.client)).toEqual([id]);
      await guest.client.get(collectionPath(other)).expect(404);
      expect(await userGrants(org, id)).toEqual({ [guest.id]: 'read' });

      await org.owner.client.delete(`${usersPath(id)}/${guest.id}`).expect(204);
      await guest.client.get(collectionPath(id)).expect(404);
      expect(await visibleIds(org, guest.client)).toEqual([]);
    });

    it('upserts the role of users and teams, and null removes their grants', async () => {
      const org = await t.factories.organization();
      const id = await collection(org);
      const member = await t.factories.member(org, 'read');
      const teamId = await team(org);
      await invite(org, id, { role: 'read', users: [member.id, member.id], teams: [teamId] });
      await invite(org, id, { role: 'admin', users: [member.id], teams: [teamId] });
      expect(await userGrants(org, id)).toEqual({ [member.id]: 'admin' });
      expect(await teamGrants(org, id)).toEqual({ [teamId]: 'admin' });
      const res = await member.client.get(collectionPath(id)).expect(200);
      expect(res.body.permissions.admin).toBe(true);

      await invite(org, id, { role: null, users: [member.id], teams: [teamId] });
      expect(await userGrants(org, id)).toEqual({});
      expect(await teamGrants(org, id)).toEqual({});
    });

    it("gives a team's members access, also to the sub-collections", async () => {
      const org = await t.factories.organization();
      const parent = await collection(org);
      const child = await collection(org, parent);
      const guest = await t.factories.member(org, null);
      const teamId = await team(org, [guest.id]);
      await guest.client.get(collectionPath(child)).expect(404);
      await invite(org, parent, { role: 'edit', teams: [teamId] });
      await guest.client.get(collectionPath(parent)).expect(200);
      const res = await guest.client.get(collectionPath(child)).expect(200);
      expect(res.body.permissions).toMatchObject({ view: true, admin: false });
      expect(await visibleIds(org, guest.client)).toEqual([parent, child]);
    });

    it('passes a grant on a parent collection down to its child', async () => {
      const org = await t.factories.organization();
      const parent = await collection(org);
      const child = await collection(org, parent);
      const reader = await t.factories.member(org, 'read');
      const before = await reader.client.get(collectionPath(child)).expect(200);
      expect(before.body.permissions.admin).toBe(false);
      await invite(org, parent, { role: 'admin', users: [reader.id] });
      const after = await reader.client.get(collectionPath(child)).expect(200);
      expect(after.body.permissions.admin).toBe(true);
      // The child's own grant list holds only its own grants.
      expect(await userGrants(org, child)).toEqual({});
    });

    it('answers 400 for unknown users and teams, a bad role, and a bad body', async () => {
      const org = await t.factories.organization();
      const id = await collection(org);
      const member = await t.factories.member(org, 'read');
      const outsider = await t.factories.user();
      const foreignTeam = await team(await t.factories.organization());
      const post = (body: object) => org.owner.client.post(permissionsPath(id), body);

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
      expectError(await post({ users: [member.id] }), 400, 'role must be one of');
      expectError(await post({ role: 'read' }), 400, 'users, teams');
      expectError(await post({ role: 'read', users: [] }), 400, 'users must contain at least 1');
      expectError(await post({ role: 'read', users: 'x' }), 400, 'users must be an array');
      expectError(await post({ role: 'read', users: [member.id], x: 1 }), 400, 'x');
      // Nothing was granted by the rejected requests.
      expect(await userGrants(org, id)).toEqual({});
    });

    it('answers 404 for an unknown collection or another organization, 403 for non-admins', () =>
      expectGuarded((client, id) =>
        client.post(permissionsPath(id), { role: 'read', users: ['u'] }),
      ));
  });

  describe('GET /v1/collections/{collectionId}/permissions/users (listUserPermissionsInCollection)', () => {
    it('lists the granted users, oldest grant first, in pages', async () => {
      const org = await t.factories.organization();
      const id = await collection(org);
      const a = await t.factories.member(org, null);
      const b = await t.factories.member(org, 'edit');
      const c = await t.factories.member(org, 'read');
      await invite(org, id, { role: 'comment', users: [a.id] });
      await invite(org, id, { role: 'admin', users: [b.id] });
      await invite(org, id, { role: 'read', users: [c.id] });

      const first = await org.owner.client.get(`${usersPath(id)}?limit=2`).expect(200);
      expectConforms(first, 'listUserPermissionsInCollection');
      expect(first.body.count).toBe(3);
      expect(first.body.items).toEqual([
        {
          permission: 'comment',
          user: expect.objectContaining({ object: 'user', id: a.id, email: a.email }),
        },
        { permission: 'admin', user: expect.objectContaining({ id: b.id }) },
      ]);
      const second = await org.owner.client
        .get(`${usersPath(id)}?limit=2&page=${encodeURIComponent(first.body.next.page)}`)
        .expect(200);
      expectConforms(second, 'listUserPermissionsInCollection');
      expect(second.body.items.map((item: UserPermissionBody) => item.user.id)).toEqual([c.id]);
      expect(second.body.next).toBeUndefined();
    });

    it('does not list team grants', async () => {
      const org = await t.factories.organization();
      const id = await collection(org);
      await invite(org, id, { role: 'read', teams: [await team(org)] });
      const res = await org.owner.client.get(usersPath(id)).expect(200);
      expectConforms(res, 'listUserPermissionsInCollection');
      expect(res.body).toEqual({ items: [], count: 0 });
    });

    it('answers 400 for a bad limit or page', async () => {
      const org = await t.factories.organization();
      const id = await collection(org);
      expectError(await org.owner.client.get(`${usersPath(id)}?limit=0`), 400, 'limit');
      expectError(await org.owner.client.get(`${usersPath(id)}?page=garbage`), 400, 'page');
    });

    it('answers 404 for an unknown collection or another organization, 403 for non-admins', async () => {
      await expectGuarded((client, id) => client.get(usersPath(id)));
      const org = await t.factories.organization();
      const res = await org.owner.client.get(usersPath('nope')).expect(404);
      expectConforms(res, 'listUserPermissionsInCollection');
    });
  });

  describe('PATCH /v1/collections/{collectionId}/permissions/users/{userId} (updateUserPermissionInCollection)', () => {
    it('sets the role, creating the grant if absent; null removes it', async () => {
      const org = await t.factories.organization();
      const id = await collection(org);
      const guest = await t.factories.member(org, null);
      await org.owner.client.patch(`${usersPath(id)}/${guest.id}`, { role: 'edit' }).expect(204);
      expect(await userGrants(org, id)).toEqual({ [guest.id]: 'edit' });
      await guest.client.get(collectionPath(id)).expect(200);
      await org.owner.client.patch(`${usersPath(id)}/${guest.id}`, { role: 'admin' }).expect(204);
      expect(await userGrants(org, id)).toEqual({ [guest.id]: 'admin' });
      const res = await guest.client.get(collectionPath(id)).expect(200);
      expect(res.body.permissions.admin).toBe(true);
      await org.owner.client.patch(`${usersPath(id)}/${guest.id}`, { role: null }).expect(204);
      expect(await userGrants(org, id)).toEqual({});
      await guest.client.get(collectionPath(id)).expect(404);
    });

    it('answers 400 for a bad or missing role and unknown fields', async () => {
      const org = await t.factories.organization();
      const id = await collection(org);
      const member = await t.factories.member(org, 'read');
      const patch = (body: object) => org.owner.client.patch(`${usersPath(id)}/${member.id}`, body);
      expectError(await patch({ role: 'owner' }), 400, 'role must be one of');
      expectError(await patch({}), 400, 'role must be one of');
      expectError(await patch({ role: 'read', extra: true }), 400, 'extra');
      expect(await userGrants(org, id)).toEqual({});
    });

    it('answers 404 for a user who is not a member of the organization', async () => {
      const org = await t.factories.organization();
      const id = await collection(org);
      const outsider = await t.factories.user();
      const res = await org.owner.client.patch(`${usersPath(id)}/${outsider.id}`, { role: 'read' });
      expectError(res, 404, 'User not found');
      expectConforms(res, 'updateUserPermissionInCollection');
      expect(await userGrants(org, id)).toEqual({});
    });

    it('answers 404 for an unknown collection or another organization, 403 for non-admins', () =>
      expectGuarded((client, id) => client.patch(`${usersPath(id)}/someone`, { role: 'read' })));
  });

  describe('DELETE /v1/collections/{collectionId}/permissions/users/{userId} (removeUserFromCollection)', () => {
    it('removes only that grant, and answers 204 when there is none', async () => {
      const org = await t.factories.organization();
      const id = await collection(org);
      const a = await t.factories.member(org, null);
      const b = await t.factories.member(org, null);
      await invite(org, id, { role: 'read', users: [a.id, b.id] });
      await org.owner.client.delete(`${usersPath(id)}/${a.id}`).expect(204);
      expect(await userGrants(org, id)).toEqual({ [b.id]: 'read' });
      await a.client.get(collectionPath(id)).expect(404);
      await b.client.get(collectionPath(id)).expect(200);
      await org.owner.client.delete(`${usersPath(id)}/${a.id}`).expect(204);
      await org.owner.client.delete(`${usersPath(id)}/no-such-user`).expect(204);
    });

    it('answers 404 for an unknown collection or another organization, 403 for non-admins', () =>
      expectGuarded((client, id) => client.delete(`${usersPath(id)}/someone`)));
  });

  describe('GET /v1/collections/{collectionId}/permissions/teams (listTeamPermissionsInCollection)', () => {
    it('lists the granted teams with their size, oldest grant first, in pages', async () => {
      const org = await t.factories.organization();
      const id = await collection(org);
      const member = await t.factories.member(org, 'read');
      const first = await team(org, [member.id]);
      const second = await team(org);
      await invite(org, id, { role: 'edit', teams: [first] });
      await invite(org, id, { role: 'read', teams: [second], users: [member.id] });

      const page1 = await org.owner.client.get(`${teamsPath(id)}?limit=1`).expect(200);
      expectConforms(page1, 'listTeamPermissionsInCollection');
      expect(page1.body.count).toBe(2);
      expect(page1.body.items).toEqual([
        {
          permission: 'edit',
          team: expect.objectContaining({ object: 'team', id: first, members: 1 }),
        },
      ]);
      const page2 = await org.owner.client
        .get(`${teamsPath(id)}?limit=1&page=${encodeURIComponent(page1.body.next.page)}`)
        .expect(200);
      expectConforms(page2, 'listTeamPermissionsInCollection');
      expect(page2.body.items).toEqual([
        { permission: 'read', team: expect.objectContaining({ id: second, members: 0 }) },
      ]);
      expect(page2.body.next).toBeUndefined();
    });

    it('answers 400 for a bad limit', async () => {
      const org = await t.factories.organization();
      const id = await collection(org);
      expectError(await org.owner.client.get(`${teamsPath(id)}?limit=5000`), 400, 'limit');
    });

    it('answers 404 for an unknown collection or another organization, 403 for non-admins', () =>
      expectGuarded((client, id) => client.get(teamsPath(id))));
  });

  describe('PATCH /v1/collections/{collectionId}/permissions/teams/{teamId} (updateTeamPermissionInCollection)', () => {
    it("sets the team's role, creating the grant if absent; null removes it", async () => {
      const org = await t.factories.organization();
      const id = await collection(org);
      const guest: TestUser = await t.factories.member(org, null);
      const teamId = await team(org, [guest.id]);
      await org.owner.client.patch(`${teamsPath(id)}/${teamId}`, { role: 'comment' }).expect(204);
      expect(await teamGrants(org, id)).toEqual({ [teamId]: 'comment' });
      await guest.client.get(collectionPath(id)).expect(200);
      await org.owner.client.patch(`${teamsPath(id)}/${teamId}`, { role: 'admin' }).expect(204);
      expect(await teamGrants(org, id)).toEqual({ [teamId]: 'admin' });
      await org.owner.client.patch(`${teamsPath(id)}/${teamId}`, { role: null }).expect(204);
      expect(await teamGrants(org, id)).toEqual({});
      await guest.client.get(collectionPath(id)).expect(404);
    });

    it('answers 400 for a bad role', async () => {
      const org = await t.factories.organization();
      const id = await collection(org);
      const teamId = await team(org);
      const res = await org.owner.client.patch(`${teamsPath(id)}/${teamId}`, { role: 'boss' });
      expectError(res, 400, 'role must be one of');
      expect(await teamGrants(org, id)).toEqual({});
    });

    it("answers 404 for an unknown team or another organization's team", async () => {
      const org = await t.factories.organization();
      const id = await collection(org);
      const foreign = await team(await t.factories.organization());
      for (const teamId of ['nope', foreign]) {
        const res = await org.owner.client.patch(`${teamsPath(id)}/${teamId}`, { role: 'read' });
        expectError(res, 404, 'Team not found');
        expectConforms(res, 'updateTeamPermissionInCollection');
      }
      expect(await teamGrants(org, id)).toEqual({});
    });

    it('answers 404 for an unknown collection or another organization, 403 for non-admins', () =>
      expectGuarded((client, id) => client.patch(`${teamsPath(id)}/someteam`, { role: 'read' })));
  });

  describe('DELETE /v1/collections/{collectionId}/permissions/teams/{teamId} (removeTeamFromCollection)', () => {
    it("removes the team's grant and its members' access; 204 when there is none", async () => {
      const org = await t.factories.organization();
      const id = await collection(org);
      const guest = await t.factories.member(org, null);
      const teamId = await team(org, [guest.id]);
      await invite(org, id, { role: 'read', teams: [teamId] });
      await guest.client.get(collectionPath(id)).expect(200);
      await org.owner.client.delete(`${teamsPath(id)}/${teamId}`).expect(204);
      expect(await teamGrants(org, id)).toEqual({});
      await guest.client.get(collectionPath(id)).expect(404);
      await org.owner.client.delete(`${teamsPath(id)}/${teamId}`).expect(204);
    });

    it('answers 404 for an unknown collection or another organization, 403 for non-admins', () =>
      expectGuarded((client, id) => client.delete(`${teamsPath(id)}/someteam`)));
  });

  describe('GET /v1/collections/{collectionId}/permissions/aggregate (listPermissionsAggregateInCollection)', () => {
    it('lists everyone who can reach the collection with its effective role, in pages', async () => {
      const org = await t.factories.organization();
      const parent = await collection(org);
      const id = await collection(org, parent);
      const reader = await t.factories.member(org, 'read');
      const editor = await t.factories.member(org, 'edit');
      const guest = await t.factories.member(org, null);
      const teamGuest = await t.factories.member(org, null);
      const ungranted = await t.factories.member(org, null);
      await joinInOrder(org, [org.owner, reader, editor, guest, teamGuest, ungranted]);
      // A grant on the parent reaches the child; a team grant reaches the team's members.
      await invite(org, parent, { role: 'create', users: [reader.id] });
      await invite(org, id, { role: 'comment', users: [guest.id] });
      await invite(org, id, { role: 'review', teams: [await team(org, [teamGuest.id])] });
      // Grants below it and on other collections do not count.
      const other = await collection(org);
      const below = await collection(org, id);
      await invite(org, other, { role: 'admin', users: [editor.id, ungranted.id] });
      await invite(org, below, { role: 'admin', users: [editor.id, ungranted.id] });

      const first = await org.owner.client.get(`${aggregatePath(id)}?limit=3`).expect(200);
      expectConforms(first, 'listPermissionsAggregateInCollection');
      expect(first.body.count).toBe(5);
      expect(first.body.items).toEqual([
        {
          permission: 'admin',
          user: expect.objectContaining({ object: 'user', id: org.owner.id }),
        },
        {
          permission: 'create',
          user: expect.objectContaining({ id: reader.id, email: reader.email }),
        },
        { permission: 'edit', user: expect.objectContaining({ id: editor.id }) },
      ]);
      const second = await org.owner.client
        .get(`${aggregatePath(id)}?limit=3&page=${encodeURIComponent(first.body.next.page)}`)
        .expect(200);
      expectConforms(second, 'listPermissionsAggregateInCollection');
      expect(second.body.count).toBe(5);
      expect(second.body.items).toEqual([
        { permission: 'comment', user: expect.objectContaining({ id: guest.id }) },
        { permission: 'review', user: expect.objectContaining({ id: teamGuest.id }) },
      ]);
      expect(second.body.next).toBeUndefined();
    });

    it('applies the default level inherited from above to members, not to guests', async () => {
      const org = await t.factories.organization();
      const parent = await collection(org);
      const id = await collection(org, parent);
      const reader = await t.factories.member(org, 'read');
      const guest = await t.factories.member(org, null);
      await joinInOrder(org, [org.owner, reader, guest]);
      await invite(org, id, { role: 'read', users: [guest.id] });
      const before = [
        [org.owner.id, 'admin'],
        [reader.id, 'read'],
        [guest.id, 'read'],
      ];
      expect(await aggregate(org, id)).toEqual(before);

      await org.owner.client.patch(collectionPath(parent), { defaultLevel: 'edit' }).expect(200);
      expect(await aggregate(org, id)).toEqual([
        [org.owner.id, 'admin'],
        [reader.id, 'edit'],
        [guest.id, 'read'],
      ]);
      // The nearest level that is not `inherit` decides: the collection's own.
      await org.owner.client.patch(collectionPath(id), { defaultLevel: 'comment' }).expect(200);
      expect(await aggregate(org, id)).toEqual([
        [org.owner.id, 'admin'],
        [reader.id, 'comment'],
        [guest.id, 'read'],
      ]);
      await org.owner.client.patch(collectionPath(id), { defaultLevel: 'inherit' }).expect(200);
      await org.owner.client.patch(collectionPath(parent), { defaultLevel: 'inherit' }).expect(200);
      // Inherited up to the root: the organization's default role.
      await org.owner.client.patch(`/v1/orgs/${org.id}`, { defaultRole: 'review' }).expect(200);
      expect(await aggregate(org, id)).toEqual([
        [org.owner.id, 'admin'],
        [reader.id, 'review'],
        [guest.id, 'read'],
      ]);
    });

    it('leaves out disabled members, members of other organizations and ungranted guests', async () => {
      const org = await t.factories.organization();
      const id = await collection(org);
      const disabled = await t.factories.member(org, 'admin');
      const disabledGuest = await t.factories.member(org, null);
      await invite(org, id, { role: 'admin', users: [disabled.id, disabledGuest.id] });
      await t.factories.member(org, null);
      const elsewhere = await t.factories.organization();
      await t.factories.member(elsewhere, 'admin');
      await t.dataSource
        .getRepository(Member)
        .update({ organizationId: org.id, userId: disabled.id }, { disabled: true });
      await t.dataSource
        .getRepository(Member)
        .update({ organizationId: org.id, userId: disabledGuest.id }, { disabled: true });
      expect(await aggregate(org, id)).toEqual([[org.owner.id, 'admin']]);
    });

    it('filters by effective role', async () => {
      const org = await t.factories.organization();
      const id = await collection(org);
      const admin = await t.factories.member(org, 'admin');
      const reader = await t.factories.member(org, 'read');
      const promoted = await t.factories.member(org, 'read');
      const guest = await t.factories.member(org, null);
      await joinInOrder(org, [org.owner, admin, reader, promoted, guest]);
      await invite(org, id, { role: 'admin', users: [promoted.id] });
      await invite(org, id, { role: 'read', users: [guest.id] });
      expect(await aggregate(org, id, '&role=admin')).toEqual([
        [org.owner.id, 'admin'],
        [admin.id, 'admin'],
        [promoted.id, 'admin'],
      ]);
      expect(await aggregate(org, id, '&role=read')).toEqual([
        [reader.id, 'read'],
        [guest.id, 'read'],
      ]);
      expect(await aggregate(org, id, '&role=edit')).toEqual([]);
    });

    it('answers 400 for a bad role, limit or page', async () => {
      const org = await t.factories.organization();
      const id = await collection(org);
      const get = (query: string) => org.owner.client.get(`${aggregatePath(id)}?${query}`);
      expectError(await get('role=guest'), 400, 'role must be one of');
      expectError(await get('role=owner'), 400, 'role must be one of');
      expectError(await get('limit=0'), 400, 'limit');
      expectError(await get('page=garbage'), 400, 'page');
      // A cursor of the grant list is not one of this list.
      const guests = [await t.factories.member(org, null), await t.factories.member(org, null)];
      await invite(org, id, { role: 'read', users: guests.map((guest) => guest.id) });
      const grants = await org.owner.client.get(`${usersPath(id)}?limit=1`).expect(200);
      expectError(await get(`page=${encodeURIComponent(grants.body.next.page)}`), 400, 'page');
    });

    it('answers 404 for an unknown collection or another organization, 403 for non-admins', () =>
      expectGuarded((client, id) => client.get(aggregatePath(id))));
  });
});
