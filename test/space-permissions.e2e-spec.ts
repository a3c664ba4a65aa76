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
interface Response {
  status: number;
  body: unknown;
}

const spacesPath = (org: TestOrganization) => `/v1/orgs/${org.id}/spaces`;
const spacePath = (id: string) => `/v1/spaces/${id}`;
const collectionPath = (id: string) => `/v1/collections/${id}`;
const permissionsPath = (id: string) => `/v1/spaces/${id}/permissions`;
const usersPath = (id: string) => `${permissionsPath(id)}/users`;
const teamsPath = (id: string) => `${permissionsPath(id)}/teams`;
const aggregatePath = (id: string) => `${permissionsPath(id)}/aggregate`;

describe('space permissions', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** A space made by the organization's owner, one second after the last. */
  async function space(org: TestOrganization, parent?: string): Promise<string> {
    t.clock.advance(1000);
    const res = await org.owner.client.post(spacesPath(org), parent ? { parent } : {}).expect(201);
    return (res.body as { id: string }).id;
  }

  async function collection(org: TestOrganization, parent?: string): Promise<string> {
    t.clock.advance(1000);
    const body = parent ? { parent } : {};
    const res = await org.owner.client.post(`/v1/orgs/${org.id}/collections`, body).expect(201);
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
    const res = await org.owner.client.post(permissionsPath(id), body).expect(204);
    expectConforms(res, 'inviteToSpace');
  }

  async function inviteToCollection(org: TestOrganization, id: string, body: object) {
    t.clock.advance(1000);
    await org.owner.client.post(`${collectionPath(id)}/permissions`, body).expect(204);
  }

  async function userGrants(org: TestOrganization, id: string): Promise<Record<string, string>> {
    const res = await org.owner.client.get(`${usersPath(id)}?limit=1000`).expect(200);
    expectConforms(res, 'listUserPermissionsInSpace');
    return Object.fromEntries(
      (res.body.items as UserPermissionBody[]).map((item) => [item.user.id, item.permission]),
    );
  }

  async function teamGrants(org: TestOrganization, id: string): Promise<Record<string, string>> {
    const res = await org.owner.client.get(`${teamsPath(id)}?limit=1000`).expect(200);
    expectConforms(res, 'listTeamPermissionsInSpace');
    return Object.fromEntries(
      (res.body.items as TeamPermissionBody[]).map((item) => [item.team.id, item.permission]),
    );
  }

  async function visibleIds(org: TestOrganization, client: Client): Promise<string[]> {
    const res = await client.get(`${spacesPath(org)}?limit=1000`).expect(200);
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
    expectConforms(res, 'listPermissionsAggregateInSpace');
    expect(res.body.count).toBe(res.body.items.length);
    return (res.body.items as UserPermissionBody[]).map((item) => [item.user.id, item.permission]);
  }

  function expectError(res: Response, code: number, text: string) {
    expect(res.status).toBe(code);
    expect(res.body).toEqual({ error: { code, message: expect.stringContaining(text) } });
  }

  /**
   * The 404 (unknown space, space in the trash, other organization) and 403 (member who may
   * see the space without being an admin of it) checks; `operationId` when GitBook's spec
   * declares a 404 body for the operation.
   */
  async function expectGuarded(
    send: (client: Client, spaceId: string) => Promise<Response>,
    operationId?: string,
  ): Promise<void> {
    const org = await t.factories.organization();
    const id = await space(org);
    const unknown = await send(org.owner.client, 'nope');
    expectError(unknown, 404, 'Space not found');
    if (operationId) expectConforms(unknown, operationId);
    const stranger = (await t.factories.organization()).owner.client;
    expectError(await send(stranger, id), 404, 'Space not found');
    const editor = await t.factories.asMember(org, 'edit');
    expectError(await send(editor, id), 403, '');
    const trashed = await space(org);
    await org.owner.client.delete(spacePath(trashed)).expect(204);
    expectError(await send(org.owner.client, trashed), 404, 'Space not found');
  }

  describe('POST /v1/spaces/{spaceId}/permissions (inviteToSpace)', () => {
    it('lets a guest granted read see the space, until the grant is removed', async () => {
      const org = await t.factories.organization();
      const id = await space(org);
      const other = await space(org);
      const guest = await t.factories.member(org, null);
      await guest.client.get(spacePath(id)).expect(404);
      expect(await visibleIds(org, guest.client)).toEqual([]);

      await invite(org, id, { role: 'read', users: [guest.id] });
      const read = await guest.client.get(spacePath(id)).expect(200);
      expect(read.body.permissions).toMatchObject({ view: true, edit: false, admin: false });
      expect(await visibleIds(org, guest.client)).toEqual([id]);
      await guest.client.get(spacePath(other)).expect(404);
      expect(await userGrants(org, id)).toEqual({ [guest.id]: 'read' });

      const removed = await org.owner.client.delete(`${usersPath(id)}/${guest.id}`).expect(204);
      expectConforms(removed, 'removeUserFromSpace');
      await guest.client.get(spacePath(id)).expect(404);
      expect(await visibleIds(org, guest.client)).toEqual([]);
    });

    it('upserts the role of users and teams, and null removes their grants', async () => {
      const org = await t.factories.organization();
      const id = await space(org);
      const member = await t.factories.member(org, 'read');
      const teamId = await team(org);
      await invite(org, id, { role: 'read', users: [member.id, member.id], teams: [teamId] });
      await invite(org, id, { role: 'admin', users: [member.id], teams: [teamId] });
      expect(await userGrants(org, id)).toEqual({ [member.id]: 'admin' });
      expect(await teamGrants(org, id)).toEqual({ [teamId]: 'admin' });
      const res = await member.client.get(spacePath(id)).expect(200);
      expect(res.body.permissions).toMatchObject({ admin: true, edit: true });

      await invite(org, id, { role: null, users: [member.id], teams: [teamId] });
      expect(await userGrants(org, id)).toEqual({});
      expect(await teamGrants(org, id)).toEqual({});
      const after = await member.client.get(spacePath(id)).expect(200);
      expect(after.body.permissions).toMatchObject({ admin: false, edit: false });
    });

    it("gives a team's members access to the space, and only to it", async () => {
      const org = await t.factories.organization();
      const id = await space(org);
      const other = await space(org);
      const guest = await t.factories.member(org, null);
      const outsider = await t.factories.member(org, null);
      const teamId = await team(org, [guest.id]);
      await invite(org, id, { role: 'edit', teams: [teamId] });
      const res = await guest.client.get(spacePath(id)).expect(200);
      expect(res.body.permissions).toMatchObject({ view: true, edit: true, admin: false });
      expect(await visibleIds(org, guest.client)).toEqual([id]);
      await guest.client.get(spacePath(other)).expect(404);
      await outsider.client.get(spacePath(id)).expect(404);
      // The team's grant is not one of its members'.
      expect(await userGrants(org, id)).toEqual({});
    });

    it('gives no access to the collection the space is in', async () => {
      const org = await t.factories.organization();
      const parent = await collection(org);
      const id = await space(org, parent);
      const guest = await t.factories.member(org, null);
      await invite(org, id, { role: 'admin', users: [guest.id] });
      await guest.client.get(spacePath(id)).expect(200);
      await guest.client.get(collectionPath(parent)).expect(404);
    });

    it('answers 400 for unknown users and teams, a bad role, and a bad body', async () => {
      const org = await t.factories.organization();
      const id = await space(org);
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
      expectError(await post({ role: 'read', teams: 'x' }), 400, 'teams must be an array');
      expectError(await post({ role: 'read', users: [member.id], x: 1 }), 400, 'x');
      // Nothing was granted by the rejected requests.
      expect(await userGrants(org, id)).toEqual({});
      expect(await teamGrants(org, id)).toEqual({});
    });

    it('answers 404 for an unknown space or another organization, 403 for non-admins', () =>
      expectGuarded(
        (client, id) => client.post(permissionsPath(id), { role: 'read', users: ['u'] }),
        'inviteToSpace',
      ));
  });

  describe('GET /v1/spaces/{spaceId}/permissions/users (listUserPermissionsInSpace)', () => {
    it('lists the users granted a role on the space, oldest grant first, in pages', async () => {
      const org = await t.factories.organization();
      const id = await space(org);
      const a = await t.factories.member(org, null);
      const b = await t.factories.member(org, 'edit');
      const c = await t.factories.member(org, 'read');
      await invite(org, id, { role: 'comment', users: [a.id] });
      await invite(org, id, { role: 'admin', users: [b.id] });
      await invite(org, id, { role: 'read', users: [c.id] });

      const first = await org.owner.client.get(`${usersPath(id)}?limit=2`).expect(200);
      expectConforms(first, 'listUserPermissionsInSpace');
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
      expectConforms(second, 'listUserPermissionsInSpace');
      expect(second.body.items.map((item: UserPermissionBody) => item.user.id)).toEqual([c.id]);
      expect(second.body.next).toBeUndefined();
    });

    it('lists neither team grants, nor grants on the collection above, nor on other spaces', async () => {
      const org = await t.factories.organization();
      const parent = await collection(org);
      const id = await space(org, parent);
      const sibling = await space(org, parent);
      const member = await t.factories.member(org, 'read');
      await invite(org, id, { role: 'read', teams: [await team(org, [member.id])] });
      await inviteToCollection(org, parent, { role: 'admin', users: [member.id] });
      await invite(org, sibling, { role: 'edit', users: [member.id] });
      const res = await org.owner.client.get(usersPath(id)).expect(200);
      expectConforms(res, 'listUserPermissionsInSpace');
      expect(res.body).toEqual({ items: [], count: 0 });
      // Nor does the collection list the space's grants.
      await invite(org, id, { role: 'comment', users: [member.id] });
      const inCollection = await org.owner.client
        .get(`${collectionPath(parent)}/permissions/users`)
        .expect(200);
      expect(inCollection.body.items).toEqual([
        { permission: 'admin', user: expect.objectContaining({ id: member.id }) },
      ]);
    });

    it('answers 400 for a bad limit or page', async () => {
      const org = await t.factories.organization();
      const id = await space(org);
      expectError(await org.owner.client.get(`${usersPath(id)}?limit=0`), 400, 'limit');
      expectError(await org.owner.client.get(`${usersPath(id)}?page=garbage`), 400, 'page');
    });

    it('answers 404 for an unknown space or another organization, 403 for non-admins', () =>
      expectGuarded((client, id) => client.get(usersPath(id)), 'listUserPermissionsInSpace'));
  });

  describe('PATCH /v1/spaces/{spaceId}/permissions/users/{userId} (updateUserPermissionInSpace)', () => {
    it('sets the role, creating the grant if absent; null removes it', async () => {
      const org = await t.factories.organization();
      const id = await space(org);
      const guest = await t.factories.member(org, null);
      const patch = (role: string | null) =>
        org.owner.client.patch(`${usersPath(id)}/${guest.id}`, { role }).expect(204);
      expectConforms(await patch('edit'), 'updateUserPermissionInSpace');
      expect(await userGrants(org, id)).toEqual({ [guest.id]: 'edit' });
      const edit = await guest.client.get(spacePath(id)).expect(200);
      expect(edit.body.permissions).toMatchObject({ edit: true, admin: false });
      await patch('admin');
      expect(await userGrants(org, id)).toEqual({ [guest.id]: 'admin' });
      const admin = await guest.client.get(spacePath(id)).expect(200);
      expect(admin.body.permissions.admin).toBe(true);
      await patch(null);
      expect(await userGrants(org, id)).toEqual({});
      await guest.client.get(spacePath(id)).expect(404);
    });

    it('answers 400 for a bad or missing role and unknown fields', async () => {
      const org = await t.factories.organization();
      const id = await space(org);
      const member = await t.factories.member(org, 'read');
      const patch = (body: object) => org.owner.client.patch(`${usersPath(id)}/${member.id}`, body);
      expectError(await patch({ role: 'owner' }), 400, 'role must be one of');
      expectError(await patch({}), 400, 'role must be one of');
      expectError(await patch({ role: 'read', extra: true }), 400, 'extra');
      expect(await userGrants(org, id)).toEqual({});
    });

    it('answers 404 for a user who is not a member of the organization', async () => {
      const org = await t.factories.organization();
      const id = await space(org);
      const outsider = await t.factories.user();
      const elsewhere = (await t.factories.organization()).owner;
      for (const user of [outsider, elsewhere]) {
        const res = await org.owner.client.patch(`${usersPath(id)}/${user.id}`, { role: 'read' });
        expectError(res, 404, 'User not found');
        expectConforms(res, 'updateUserPermissionInSpace');
      }
      expect(await userGrants(org, id)).toEqual({});
    });

    it('answers 404 for an unknown space or another organization, 403 for non-admins', () =>
      expectGuarded(
        (client, id) => client.patch(`${usersPath(id)}/someone`, { role: 'read' }),
        'updateUserPermissionInSpace',
      ));
  });

  describe('DELETE /v1/spaces/{spaceId}/permissions/users/{userId} (removeUserFromSpace)', () => {
    it('removes only that grant, and answers 204 when there is none', async () => {
      const org = await t.factories.organization();
      const id = await space(org);
      const other = await space(org);
      const a = await t.factories.member(org, null);
      const b = await t.factories.member(org, null);
      await invite(org, id, { role: 'read', users: [a.id, b.id] });
      await invite(org, other, { role: 'read', users: [a.id] });
      await org.owner.client.delete(`${usersPath(id)}/${a.id}`).expect(204);
      expect(await userGrants(org, id)).toEqual({ [b.id]: 'read' });
      expect(await userGrants(org, other)).toEqual({ [a.id]: 'read' });
      await a.client.get(spacePath(id)).expect(404);
      await a.client.get(spacePath(other)).expect(200);
      await b.client.get(spacePath(id)).expect(200);
      const again = await org.owner.client.delete(`${usersPath(id)}/${a.id}`).expect(204);
      expectConforms(again, 'removeUserFromSpace');
      await org.owner.client.delete(`${usersPath(id)}/no-such-user`).expect(204);
    });

    it('leaves the grant of a team the user is in', async () => {
      const org = await t.factories.organization();
      const id = await space(org);
      const guest = await t.factories.member(org, null);
      await invite(org, id, { role: 'read', teams: [await team(org, [guest.id])] });
      await org.owner.client.delete(`${usersPath(id)}/${guest.id}`).expect(204);
      await guest.client.get(spacePath(id)).expect(200);
    });

    it('answers 404 for an unknown space or another organization, 403 for non-admins', () =>
      expectGuarded((client, id) => client.delete(`${usersPath(id)}/someone`)));
  });

  describe('GET /v1/spaces/{spaceId}/permissions/teams (listTeamPermissionsInSpace)', () => {
    it('lists the granted teams with their size, oldest grant first, in pages', async () => {
      const org = await t.factories.organization();
      const id = await space(org);
      const member = await t.factories.member(org, 'read');
      const first = await team(org, [member.id]);
      const second = await team(org);
      await invite(org, id, { role: 'edit', teams: [first] });
      await invite(org, id, { role: 'read', teams: [second], users: [member.id] });

      const page1 = await org.owner.client.get(`${teamsPath(id)}?limit=1`).expect(200);
      expectConforms(page1, 'listTeamPermissionsInSpace');
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
      expectConforms(page2, 'listTeamPermissionsInSpace');
      expect(page2.body.items).toEqual([
        { permission: 'read', team: expect.objectContaining({ id: second, members: 0 }) },
      ]);
      expect(page2.body.next).toBeUndefined();
    });

    it("shows the teams' permissions for the caller", async () => {
      const org = await t.factories.organization();
      const id = await space(org);
      const teamId = await team(org);
      await invite(org, id, { role: 'read', teams: [teamId] });
      const res = await org.owner.client.get(teamsPath(id)).expect(200);
      expect(res.body.items[0].team.permissions).toEqual({ admin: true, view: true });
    });

    it('answers 400 for a bad limit', async () => {
      const org = await t.factories.organization();
      const id = await space(org);
      expectError(await org.owner.client.get(`${teamsPath(id)}?limit=5000`), 400, 'limit');
    });

    it('answers 404 for an unknown space or another organization, 403 for non-admins', () =>
      expectGuarded((client, id) => client.get(teamsPath(id)), 'listTeamPermissionsInSpace'));
  });

  describe('PATCH /v1/spaces/{spaceId}/permissions/teams/{teamId} (updateTeamPermissionInSpace)', () => {
    it("sets the team's role, creating the grant if absent; null removes it", async () => {
      const org = await t.factories.organization();
      const id = await space(org);
      const guest = await t.factories.member(org, null);
      const teamId = await team(org, [guest.id]);
      const patch = (role: string | null) =>
        org.owner.client.patch(`${teamsPath(id)}/${teamId}`, { role }).expect(204);
      expectConforms(await patch('comment'), 'updateTeamPermissionInSpace');
      expect(await teamGrants(org, id)).toEqual({ [teamId]: 'comment' });
      const comment = await guest.client.get(spacePath(id)).expect(200);
      expect(comment.body.permissions).toMatchObject({ comment: true, edit: false });
      await patch('admin');
      expect(await teamGrants(org, id)).toEqual({ [teamId]: 'admin' });
      const admin = await guest.client.get(spacePath(id)).expect(200);
      expect(admin.body.permissions.admin).toBe(true);
      await patch(null);
      expect(await teamGrants(org, id)).toEqual({});
      await guest.client.get(spacePath(id)).expect(404);
    });

    it('answers 400 for a bad role', async () => {
      const org = await t.factories.organization();
      const id = await space(org);
      const teamId = await team(org);
      const res = await org.owner.client.patch(`${teamsPath(id)}/${teamId}`, { role: 'boss' });
      expectError(res, 400, 'role must be one of');
      expect(await teamGrants(org, id)).toEqual({});
    });

    it("answers 404 for an unknown team or another organization's team", async () => {
      const org = await t.factories.organization();
      const id = await space(org);
      const foreign = await team(await t.factories.organization());
      for (const teamId of ['nope', foreign]) {
        const res = await org.owner.client.patch(`${teamsPath(id)}/${teamId}`, { role: 'read' });
        expectError(res, 404, 'Team not found');
        expectConforms(res, 'updateTeamPermissionInSpace');
      }
      expect(await teamGrants(org, id)).toEqual({});
    });

    it('answers 404 for an unknown space or another organization, 403 for non-admins', () =>
      expectGuarded(
        (client, id) => client.patch(`${teamsPath(id)}/someteam`, { role: 'read' }),
        'updateTeamPermissionInSpace',
      ));
  });

  describe('DELETE /v1/spaces/{spaceId}/permissions/teams/{teamId} (removeTeamFromSpace)', () => {
    it("removes the team's grant and its members' access; 204 when there is none", async () => {
      const org = await t.factories.organization();
      const id = await space(org);
      const guest = await t.factories.member(org, null);
      const teamId = await team(org, [guest.id]);
      const otherTeam = await team(org);
      await invite(org, id, { role: 'read', teams: [teamId, otherTeam] });
      await guest.client.get(spacePath(id)).expect(200);
      const res = await org.owner.client.delete(`${teamsPath(id)}/${teamId}`).expect(204);
      expectConforms(res, 'removeTeamFromSpace');
      expect(await teamGrants(org, id)).toEqual({ [otherTeam]: 'read' });
      await guest.client.get(spacePath(id)).expect(404);
      await org.owner.client.delete(`${teamsPath(id)}/${teamId}`).expect(204);
      await org.owner.client.delete(`${teamsPath(id)}/no-such-team`).expect(204);
    });

    it('answers 404 for an unknown space or another organization, 403 for non-admins', () =>
      expectGuarded((client, id) => client.delete(`${teamsPath(id)}/someteam`)));
  });

  describe('GET /v1/spaces/{spaceId}/permissions/aggregate (listPermissionsAggregateInSpace)', () => {
    it('lists everyone who can reach the space with its effective role, in pages', async () => {
      const org = await t.factories.organization();
      const top = await collection(org);
      const middle = await collection(org, top);
      const id = await space(org, middle);
      const reader = await t.factories.member(org, 'read');
      const editor = await t.factories.member(org, 'edit');
      const collectionGuest = await t.factories.member(org, null);
      const teamGuest = await t.factories.member(org, null);
      const spaceGuest = await t.factories.member(org, null);
      const ungranted = await t.factories.member(org, null);
      const users = [org.owner, reader, editor, collectionGuest, teamGuest, spaceGuest, ungranted];
      await joinInOrder(org, users);
      // Grants on the collections above reach the space, to users and to teams' members.
      await inviteToCollection(org, top, { role: 'create', users: [reader.id] });
      await inviteToCollection(org, top, { role: 'read', users: [collectionGuest.id] });
      await inviteToCollection(org, middle, { role: 'comment', users: [collectionGuest.id] });
      const teamId = await team(org, [teamGuest.id, editor.id]);
      await inviteToCollection(org, middle, { role: 'review', teams: [teamId] });
      await invite(org, id, { role: 'read', users: [spaceGuest.id] });
      // Grants on other spaces and collections do not count.
      const sibling = await space(org, middle);
      await invite(org, sibling, { role: 'admin', users: [editor.id, ungranted.id] });
      await inviteToCollection(org, await collection(org), {
        role: 'admin',
        users: [ungranted.id],
      });

      const first = await org.owner.client.get(`${aggregatePath(id)}?limit=4`).expect(200);
      expectConforms(first, 'listPermissionsAggregateInSpace');
      expect(first.body.count).toBe(6);
      expect(first.body.items).toEqual([
        {
          permission: 'admin',
          user: expect.objectContaining({ object: 'user', id: org.owner.id }),
        },
        {
          permission: 'create',
          user: expect.objectContaining({ id: reader.id, email: reader.email }),
        },
        { permission: 'review', user: expect.objectContaining({ id: editor.id }) },
        { permission: 'comment', user: expect.objectContaining({ id: collectionGuest.id }) },
      ]);
      const second = await org.owner.client
        .get(`${aggregatePath(id)}?limit=4&page=${encodeURIComponent(first.body.next.page)}`)
        .expect(200);
      expectConforms(second, 'listPermissionsAggregateInSpace');
      expect(second.body.items).toEqual([
        { permission: 'review', user: expect.objectContaining({ id: teamGuest.id }) },
        { permission: 'read', user: expect.objectContaining({ id: spaceGuest.id }) },
      ]);
      expect(second.body.next).toBeUndefined();
    });

    it("agrees with each member's own role on the space", async () => {
      const org = await t.factories.organization();
      const parent = await collection(org);
      const id = await space(org, parent);
      const reader = await t.factories.member(org, 'read');
      const commenter = await t.factories.member(org, 'comment');
      const guest = await t.factories.member(org, null);
      const teamGuest = await t.factories.member(org, null);
      await org.owner.client.patch(collectionPath(parent), { defaultLevel: 'edit' }).expect(200);
      await inviteToCollection(org, parent, { role: 'comment', users: [guest.id] });
      await invite(org, id, { role: 'admin', teams: [await team(org, [teamGuest.id])] });
      await invite(org, id, { role: 'read', users: [reader.id] });

      const listed = Object.fromEntries(await aggregate(org, id));
      expect(Object.keys(listed).sort()).toEqual(
        [org.owner.id, reader.id, commenter.id, guest.id, teamGuest.id].sort(),
      );
      for (const user of [org.owner, reader, commenter, guest, teamGuest]) {
        const res = await org.owner.client
          .get(`/v1/orgs/${org.id}/members/${user.id}/spaces?limit=1000`)
          .expect(200);
        const own = (res.body.items as { permission: string; space: { id: string } }[]).find(
          (item) => item.space.id === id,
        );
        expect([user.id, listed[user.id]]).toEqual([user.id, own?.permission]);
      }
      expect(listed[reader.id]).toBe('edit');
      expect(listed[guest.id]).toBe('comment');
    });

    it('applies the default level inherited from above to members, not to guests', async () => {
      const org = await t.factories.organization();
      const parent = await collection(org);
      const id = await space(org, parent);
      const reader = await t.factories.member(org, 'read');
      const guest = await t.factories.member(org, null);
      await joinInOrder(org, [org.owner, reader, guest]);
      await invite(org, id, { role: 'read', users: [guest.id] });
      const expectRoles = async (readerRole: string) =>
        expect(await aggregate(org, id)).toEqual([
          [org.owner.id, 'admin'],
          [reader.id, readerRole],
          [guest.id, 'read'],
        ]);
      await expectRoles('read');
      await org.owner.client.patch(collectionPath(parent), { defaultLevel: 'edit' }).expect(200);
      await expectRoles('edit');
      // The space's own level decides over the collection's.
      await org.owner.client.patch(spacePath(id), { defaultLevel: 'comment' }).expect(200);
      await expectRoles('comment');
      await org.owner.client.patch(spacePath(id), { defaultLevel: 'inherit' }).expect(200);
      await org.owner.client.patch(collectionPath(parent), { defaultLevel: 'inherit' }).expect(200);
      // Inherited up to the root: the organization's default role.
      await org.owner.client.patch(`/v1/orgs/${org.id}`, { defaultRole: 'review' }).expect(200);
      await expectRoles('review');
    });

    it('leaves out disabled members, members of other organizations and ungranted guests', async () => {
      const org = await t.factories.organization();
      const id = await space(org);
      const disabled = await t.factories.member(org, 'admin');
      const disabledGuest = await t.factories.member(org, null);
      await invite(org, id, { role: 'admin', users: [disabled.id, disabledGuest.id] });
      await t.factories.member(org, null);
      await t.factories.member(await t.factories.organization(), 'admin');
      for (const user of [disabled, disabledGuest]) {
        await t.dataSource
          .getRepository(Member)
          .update({ organizationId: org.id, userId: user.id }, { disabled: true });
      }
      expect(await aggregate(org, id)).toEqual([[org.owner.id, 'admin']]);
    });

    it('filters by effective role', async () => {
      const org = await t.factories.organization();
      const parent = await collection(org);
      const id = await space(org, parent);
      const admin = await t.factories.member(org, 'admin');
      const reader = await t.factories.member(org, 'read');
      const promoted = await t.factories.member(org, 'read');
      const guest = await t.factories.member(org, null);
      await joinInOrder(org, [org.owner, admin, reader, promoted, guest]);
      await inviteToCollection(org, parent, { role: 'admin', users: [promoted.id] });
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
      expect(await aggregate(org, id, '&role=create')).toEqual([]);
      const page = await org.owner.client.get(`${aggregatePath(id)}?role=admin&limit=2`);
      expect(page.body.count).toBe(3);
      expect(page.body.next).toBeDefined();
    });

    it('answers 400 for a bad role, limit or page', async () => {
      const org = await t.factories.organization();
      const id = await space(org);
      const get = (query: string) => org.owner.client.get(`${aggregatePath(id)}?${query}`);
      expectError(await get('role=guest'), 400, 'role must be one of');
      expectError(await get('role=owner'), 400, 'role must be one of');
      expectError(await get('limit=1001'), 400, 'limit');
      expectError(await get('page=garbage'), 400, 'page');
    });

    it('answers 404 for an unknown space or another organization, 403 for non-admins', () =>
      expectGuarded((client, id) => client.get(aggregatePath(id))));
  });
});
