import type { ContentGrantOperation } from '../../src/collections/grants/content-grants.controller';
import { Member } from '../../src/orgs/entities/member.entity';
import type { Role } from '../../src/platform/policy/roles';
import { createTestApp, type TestApp } from './app';
import type { Client } from './client';
import { expectConforms } from './conformance';
import type { TestOrganization, TestUser } from './factories';

/**
 * The permission routes of spaces and collections (`/v1/spaces/:spaceId/permissions...` and
 * `/v1/collections/:collectionId/permissions...`), which behave alike: helpers that call them,
 * and the behaviours both resources share (describeContentPermissions). What only one of them
 * does stays in its own test file.
 */

export type ContentType = 'space' | 'collection';

/** GitBook's operationId of each permission route (a site's: test/site-permissions.e2e-spec.ts). */
export const PERMISSION_OPERATION_IDS: Record<
  ContentType | 'site',
  Record<ContentGrantOperation, string>
> = {
  site: {
    invite: 'inviteToSite',
    listAggregate: 'listPermissionsAggregateInSite',
    listUsers: 'listUserPermissionsInSite',
    updateUser: 'updateUserPermissionInSite',
    removeUser: 'removeUserFromSite',
    listTeams: 'listTeamPermissionsInSite',
    updateTeam: 'updateTeamPermissionInSite',
    removeTeam: 'removeTeamFromSite',
  },
  space: {
    invite: 'inviteToSpace',
    listAggregate: 'listPermissionsAggregateInSpace',
    listUsers: 'listUserPermissionsInSpace',
    updateUser: 'updateUserPermissionInSpace',
    removeUser: 'removeUserFromSpace',
    listTeams: 'listTeamPermissionsInSpace',
    updateTeam: 'updateTeamPermissionInSpace',
    removeTeam: 'removeTeamFromSpace',
  },
  collection: {
    invite: 'inviteToCollection',
    listAggregate: 'listPermissionsAggregateInCollection',
    listUsers: 'listUserPermissionsInCollection',
    updateUser: 'updateUserPermissionInCollection',
    removeUser: 'removeUserFromCollection',
    listTeams: 'listTeamPermissionsInCollection',
    updateTeam: 'updateTeamPermissionInCollection',
    removeTeam: 'removeTeamFromCollection',
  },
};

/** The operations for which GitBook's spec declares a 404 answer (checked against it). */
const SPEC_DECLARES_404 = new Set([
  'inviteToSpace',
  'listUserPermissionsInSpace',
  'updateUserPermissionInSpace',
  'listTeamPermissionsInSpace',
  'updateTeamPermissionInSpace',
  'inviteToCollection',
  'listUserPermissionsInCollection',
  'updateUserPermissionInCollection',
  'updateTeamPermissionInCollection',
]);

export interface ContentPaths {
  /** Where the organization lists its spaces or collections. */
  list(org: TestOrganization): string;
  content(id: string): string;
  permissions(id: string): string;
  users(id: string): string;
  teams(id: string): string;
  aggregate(id: string): string;
}

export function contentPaths(type: ContentType): ContentPaths {
  const content = (id: string) => `/v1/${type}s/${id}`;
  const permissions = (id: string) => `${content(id)}/permissions`;
  return {
    list: (org) => `/v1/orgs/${org.id}/${type}s`,
    content,
    permissions,
    users: (id) => `${permissions(id)}/users`,
    teams: (id) => `${permissions(id)}/teams`,
    aggregate: (id) => `${permissions(id)}/aggregate`,
  };
}

export interface UserPermissionBody {
  permission: string;
  user: { object: 'user'; id: string; displayName: string };
}
export interface TeamPermissionBody {
  permission: string;
  team: { object: 'team'; id: string; title: string; members: number };
}
/** GitBook's `InviteUsersAndTeams`. */
export interface InviteBody {
  role: Role | null;
  users?: string[];
  teams?: string[];
}
export interface Answer {
  status: number;
  body: unknown;
}

/** Sets `role` on the content for the users and teams named, as `client` (an admin of it). */
export async function invite(
  client: Client,
  type: ContentType,
  id: string,
  body: InviteBody,
): Promise<void> {
  const res = await client.post(contentPaths(type).permissions(id), body).expect(204);
  expectConforms(res, PERMISSION_OPERATION_IDS[type].invite);
}

export function expectError(res: Answer, code: number, text: string): void {
  expect(res.status).toBe(code);
  expect(res.body).toEqual({ error: { code, message: expect.stringContaining(text) } });
}

/** The permission routes of one resource type, called as the organization's owner. */
export interface ContentGrants {
  type: ContentType;
  paths: ContentPaths;
  operationIds: Record<ContentGrantOperation, string>;
  /** A space or collection (in the collection `parent` if given), one second after the last. */
  create(org: TestOrganization, parent?: string): Promise<string>;
  /** Invites one second after the last, so grants are ordered by creation. */
  invite(org: TestOrganization, id: string, body: InviteBody): Promise<void>;
  /** The grants to users on the content itself, by user id. */
  userGrants(org: TestOrganization, id: string): Promise<Record<string, string>>;
  /** The grants to teams on the content itself, by team id. */
  teamGrants(org: TestOrganization, id: string): Promise<Record<string, string>>;
  /** The ids `client` lists in the organization. */
  visibleIds(org: TestOrganization, client: Client): Promise<string[]>;
  /** The aggregate as `[userId, role]` pairs, in the list's order (all on one page). */
  aggregate(org: TestOrganization, id: string, query?: string): Promise<string[][]>;
  /**
   * The 404 (unknown content, deleted content, content of another organization) and 403
   * (member who sees the content without being an admin of it) answers of `operation`.
   */
  expectGuarded(
    operation: ContentGrantOperation,
    send: (client: Client, id: string) => PromiseLike<Answer>,
  ): Promise<void>;
}

/** What the tests of both resources work with; `app` is the file's TestApp (from beforeAll). */
export interface GrantsKit {
  app(): TestApp;
  space: ContentGrants;
  collection: ContentGrants;
  /** A team made by the owner with these members. */
  team(org: TestOrganization, members?: string[]): Promise<string>;
  /** Gives the members join dates one minute apart, in the order given. */
  joinInOrder(org: TestOrganization, users: TestUser[]): Promise<void>;
}

export function grantsKit(app: () => TestApp): GrantsKit {
  return {
    app,
    space: contentGrants(app, 'space'),
    collection: contentGrants(app, 'collection'),
    async team(org, members = []) {
      const res = await org.owner.client
        .put(`/v1/orgs/${org.id}/teams`, { title: 'Writers', members })
        .expect(201);
      return (res.body as { id: string }).id;
    },
    async joinInOrder(org, users) {
      for (const [i, user] of users.entries()) {
        await app()
          .dataSource.getRepository(Member)
          .update(
            { organizationId: org.id, userId: user.id },
            { joinedAt: new Date(Date.UTC(2024, 0, 1, 0, i)) },
          );
      }
    },
  };
}

function contentGrants(app: () => TestApp, type: ContentType): ContentGrants {
  const paths = contentPaths(type);
  const operationIds = PERMISSION_OPERATION_IDS[type];

  async function grants<T extends { permission: string }>(
    org: TestOrganization,
    path: string,
    operationId: string,
    key: (item: T) => string,
  ): Promise<Record<string, string>> {
    const res = await org.owner.client.get(`${path}?limit=1000`).expect(200);
    expectConforms(res, operationId);
    return Object.fromEntries((res.body.items as T[]).map((item) => [key(item), item.permission]));
  }

  const create = async (org: TestOrganization, parent?: string) => {
    const factories = app().factories.later;
    const made =
      type === 'space'
        ? await factories.space(org, { parent })
        : await factories.collection(org, { parent });
    return made.id;
  };

  return {
    type,
    paths,
    operationIds,
    create,
    async invite(org, id, body) {
      app().clock.advance(1000);
      await invite(org.owner.client, type, id, body);
    },
    userGrants: (org, id) =>
      grants<UserPermissionBody>(
        org,
        paths.users(id),
        operationIds.listUsers,
        (item) => item.user.id,
      ),
    teamGrants: (org, id) =>
      grants<TeamPermissionBody>(
        org,
        paths.teams(id),
        operationIds.listTeams,
        (item) => item.team.id,
      ),
    async visibleIds(org, client) {
      const res = await client.get(`${paths.list(org)}?limit=1000`).expect(200);
      return (res.body.items as { id: string }[]).map((item) => item.id);
    },
    async aggregate(org, id, query = '') {
      const res = await org.owner.client
        .get(`${paths.aggregate(id)}?limit=1000${query}`)
        .expect(200);
      expectConforms(res, operationIds.listAggregate);
      expect(res.body.count).toBe(res.body.items.length);
      const items = res.body.items as UserPermissionBody[];
      return items.map((item) => [item.user.id, item.permission]);
    },
    async expectGuarded(operation, send) {
      const t = app();
      const notFound = `${type === 'space' ? 'Space' : 'Collection'} not found`;
      const org = await t.factories.organization();
      const id = await create(org);
      const unknown = await send(org.owner.client, 'nope');
      expectError(unknown, 404, notFound);
      const operationId = operationIds[operation];
      if (SPEC_DECLARES_404.has(operationId)) expectConforms(unknown, operationId);
      const stranger = (await t.factories.organization()).owner.client;
      expectError(await send(stranger, id), 404, notFound);
      const editor = await t.factories.asMember(org, 'edit');
      expectError(await send(editor, id), 403, '');
      // A space goes to the trash; a collection is gone.
      const deleted = await create(org);
      await org.owner.client.delete(paths.content(deleted)).expect(204);
      expectError(await send(org.owner.client, deleted), 404, notFound);
    },
  };
}

/** What a member sees in the content's `permissions` (a subset) with each role there. */
export type PermissionsByRole = Record<'read' | 'comment' | 'edit' | 'admin', object>;

export interface ContentPermissionsSuite {
  resource: ContentType;
  permissions: PermissionsByRole;
  /** Tests only this resource has, added to the describe block of their route. */
  more?: Partial<Record<ContentGrantOperation, (kit: GrantsKit) => void>>;
}

/**
 * The tests of the eight permission routes that hold for spaces and collections alike, in one
 * describe block per route on an application of their own; `more` adds the resource's own.
 */
export function describeContentPermissions(suite: ContentPermissionsSuite): void {
  const { resource, permissions, more = {} } = suite;
  let t: TestApp;
  const kit = grantsKit(() => t);
  const own = kit[resource];
  const { paths, operationIds: ops } = own;
  const base = `/v1/${resource}s/{${resource}Id}/permissions`;

  /** The route's block: the shared tests, the resource's own, then the access checks. */
  function route(
    operation: ContentGrantOperation,
    title: string,
    send: (client: Client, id: string) => PromiseLike<Answer>,
    shared: () => void,
  ) {
    describe(`${title} (${ops[operation]})`, () => {
      shared();
      more[operation]?.(kit);
      it(`answers 404 for an unknown or deleted ${resource} or another organization's, 403 for non-admins`, () =>
        own.expectGuarded(operation, send));
    });
  }

  describe(`${resource} permissions`, () => {
    beforeAll(async () => {
      t = await createTestApp();
    });
    afterAll(() => t.close());

    route(
      'invite',
      `POST ${base}`,
      (client, id) => client.post(paths.permissions(id), { role: 'read', users: ['u'] }),
      () => {
        it(`lets a guest granted read see the ${resource}, until the grant is removed`, async () => {
          const org = await t.factories.organization();
          const id = await own.create(org);
          const other = await own.create(org);
          const guest = await t.factories.member(org, null);
          await guest.client.get(paths.content(id)).expect(404);
          expect(await own.visibleIds(org, guest.client)).toEqual([]);

          await own.invite(org, id, { role: 'read', users: [guest.id] });
          const read = await guest.client.get(paths.content(id)).expect(200);
          expect(read.body.permissions).toMatchObject(permissions.read);
          expect(await own.visibleIds(org, guest.client)).toEqual([id]);
          await guest.client.get(paths.content(other)).expect(404);
          expect(await own.userGrants(org, id)).toEqual({ [guest.id]: 'read' });

          const removed = await org.owner.client
            .delete(`${paths.users(id)}/${guest.id}`)
            .expect(204);
          expectConforms(removed, ops.removeUser);
          await guest.client.get(paths.content(id)).expect(404);
          expect(await own.visibleIds(org, guest.client)).toEqual([]);
        });

        it('upserts the role of users and teams, and null removes their grants', async () => {
          const org = await t.factories.organization();
          const id = await own.create(org);
          const member = await t.factories.member(org, 'read');
          const teamId = await kit.team(org);
          await own.invite(org, id, {
            role: 'read',
            users: [member.id, member.id],
            teams: [teamId],
          });
          await own.invite(org, id, { role: 'admin', users: [member.id], teams: [teamId] });
          expect(await own.userGrants(org, id)).toEqual({ [member.id]: 'admin' });
          expect(await own.teamGrants(org, id)).toEqual({ [teamId]: 'admin' });
          const res = await member.client.get(paths.content(id)).expect(200);
          expect(res.body.permissions).toMatchObject(permissions.admin);

          await own.invite(org, id, { role: null, users: [member.id], teams: [teamId] });
          expect(await own.userGrants(org, id)).toEqual({});
          expect(await own.teamGrants(org, id)).toEqual({});
          const after = await member.client.get(paths.content(id)).expect(200);
          expect(after.body.permissions).toMatchObject(permissions.read);
        });

        it(`gives a team's members access to the ${resource}, and only to it`, async () => {
          const org = await t.factories.organization();
          const id = await own.create(org);
          const other = await own.create(org);
          const guest = await t.factories.member(org, null);
          const outsider = await t.factories.member(org, null);
          const teamId = await kit.team(org, [guest.id]);
          await own.invite(org, id, { role: 'edit', teams: [teamId] });
          const res = await guest.client.get(paths.content(id)).expect(200);
          expect(res.body.permissions).toMatchObject(permissions.edit);
          expect(await own.visibleIds(org, guest.client)).toEqual([id]);
          await guest.client.get(paths.content(other)).expect(404);
          await outsider.client.get(paths.content(id)).expect(404);
          // The team's grant is not one of its members'.
          expect(await own.userGrants(org, id)).toEqual({});
        });

        it('answers 400 for unknown users and teams, a bad role, and a bad body', async () => {
          const org = await t.factories.organization();
          const id = await own.create(org);
          const member = await t.factories.member(org, 'read');
          const outsider = await t.factories.user();
          const foreignTeam = await kit.team(await t.factories.organization());
          const post = (body: object) => org.owner.client.post(paths.permissions(id), body);

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
          expectError(
            await post({ role: 'owner', users: [member.id] }),
            400,
            'role must be one of',
          );
          expectError(await post({ users: [member.id] }), 400, 'role is required');
          expectError(await post({ role: 'read' }), 400, 'users, teams');
          expectError(
            await post({ role: 'read', users: [] }),
            400,
            'users must contain at least 1',
          );
          expectError(await post({ role: 'read', users: 'x' }), 400, 'users must be an array');
          expectError(await post({ role: 'read', teams: 'x' }), 400, 'teams must be an array');
          expectError(await post({ role: 'read', users: [member.id], x: 1 }), 400, 'x');
          // Nothing was granted by the rejected requests.
          expect(await own.userGrants(org, id)).toEqual({});
          expect(await own.teamGrants(org, id)).toEqual({});
        });
      },
    );

    route(
      'listUsers',
      `GET ${base}/users`,
      (client, id) => client.get(paths.users(id)),
      () => {
        it(`lists the users granted a role on the ${resource}, oldest grant first, in pages`, async () => {
          const org = await t.factories.organization();
          const id = await own.create(org);
          const a = await t.factories.member(org, null);
          const b = await t.factories.member(org, 'edit');
          const c = await t.factories.member(org, 'read');
          await own.invite(org, id, { role: 'comment', users: [a.id] });
          await own.invite(org, id, { role: 'admin', users: [b.id] });
          await own.invite(org, id, { role: 'read', users: [c.id] });

          const first = await org.owner.client.get(`${paths.users(id)}?limit=2`).expect(200);
          expectConforms(first, ops.listUsers);
          expect(first.body.count).toBe(3);
          expect(first.body.items).toEqual([
            {
              permission: 'comment',
              user: expect.objectContaining({ object: 'user', id: a.id, email: a.email }),
            },
            { permission: 'admin', user: expect.objectContaining({ id: b.id }) },
          ]);
          const second = await org.owner.client
            .get(`${paths.users(id)}?limit=2&page=${encodeURIComponent(first.body.next.page)}`)
            .expect(200);
          expectConforms(second, ops.listUsers);
          expect(second.body.items.map((item: UserPermissionBody) => item.user.id)).toEqual([c.id]);
          expect(second.body.next).toBeUndefined();
        });

        it(`lists neither team grants nor grants on another ${resource}`, async () => {
          const org = await t.factories.organization();
          const id = await own.create(org);
          const other = await own.create(org);
          const member = await t.factories.member(org, 'read');
          await own.invite(org, id, { role: 'read', teams: [await kit.team(org, [member.id])] });
          await own.invite(org, other, { role: 'edit', users: [member.id] });
          const res = await org.owner.client.get(paths.users(id)).expect(200);
          expectConforms(res, ops.listUsers);
          expect(res.body).toEqual({ items: [], count: 0 });
        });

        it('answers 400 for a bad limit or page', async () => {
          const org = await t.factories.organization();
          const id = await own.create(org);
          expectError(await org.owner.client.get(`${paths.users(id)}?limit=0`), 400, 'limit');
          expectError(await org.owner.client.get(`${paths.users(id)}?page=garbage`), 400, 'page');
        });
      },
    );

    route(
      'updateUser',
      `PATCH ${base}/users/{userId}`,
      (client, id) => client.patch(`${paths.users(id)}/someone`, { role: 'read' }),
      () => {
        it('sets the role, creating the grant if absent; null removes it', async () => {
          const org = await t.factories.organization();
          const id = await own.create(org);
          const guest = await t.factories.member(org, null);
          const patch = (role: Role | null) =>
            org.owner.client.patch(`${paths.users(id)}/${guest.id}`, { role }).expect(204);
          expectConforms(await patch('edit'), ops.updateUser);
          expect(await own.userGrants(org, id)).toEqual({ [guest.id]: 'edit' });
          const edit = await guest.client.get(paths.content(id)).expect(200);
          expect(edit.body.permissions).toMatchObject(permissions.edit);
          await patch('admin');
          expect(await own.userGrants(org, id)).toEqual({ [guest.id]: 'admin' });
          const admin = await guest.client.get(paths.content(id)).expect(200);
          expect(admin.body.permissions).toMatchObject(permissions.admin);
          await patch(null);
          expect(await own.userGrants(org, id)).toEqual({});
          await guest.client.get(paths.content(id)).expect(404);
        });

        it('answers 400 for a bad or missing role and unknown fields', async () => {
          const org = await t.factories.organization();
          const id = await own.create(org);
          const member = await t.factories.member(org, 'read');
          const patch = (body: object) =>
            org.owner.client.patch(`${paths.users(id)}/${member.id}`, body);
          expectError(await patch({ role: 'owner' }), 400, 'role must be one of');
          expectError(await patch({}), 400, 'role is required');
          expectError(await patch({ role: 'read', extra: true }), 400, 'extra');
          expect(await own.userGrants(org, id)).toEqual({});
        });

        it('answers 404 for a user who is not a member of the organization', async () => {
          const org = await t.factories.organization();
          const id = await own.create(org);
          const outsider = await t.factories.user();
          const elsewhere = (await t.factories.organization()).owner;
          for (const user of [outsider, elsewhere]) {
            const res = await org.owner.client.patch(`${paths.users(id)}/${user.id}`, {
              role: 'read',
            });
            expectError(res, 404, 'User not found');
            expectConforms(res, ops.updateUser);
          }
          expect(await own.userGrants(org, id)).toEqual({});
        });
      },
    );

    route(
      'removeUser',
      `DELETE ${base}/users/{userId}`,
      (client, id) => client.delete(`${paths.users(id)}/someone`),
      () => {
        it('removes only that grant, and answers 204 when there is none', async () => {
          const org = await t.factories.organization();
          const id = await own.create(org);
          const other = await own.create(org);
          const a = await t.factories.member(org, null);
          const b = await t.factories.member(org, null);
          await own.invite(org, id, { role: 'read', users: [a.id, b.id] });
          await own.invite(org, other, { role: 'read', users: [a.id] });
          await org.owner.client.delete(`${paths.users(id)}/${a.id}`).expect(204);
          expect(await own.userGrants(org, id)).toEqual({ [b.id]: 'read' });
          expect(await own.userGrants(org, other)).toEqual({ [a.id]: 'read' });
          await a.client.get(paths.content(id)).expect(404);
          await a.client.get(paths.content(other)).expect(200);
          await b.client.get(paths.content(id)).expect(200);
          const again = await org.owner.client.delete(`${paths.users(id)}/${a.id}`).expect(204);
          expectConforms(again, ops.removeUser);
          await org.owner.client.delete(`${paths.users(id)}/no-such-user`).expect(204);
        });

        it('leaves the grant of a team the user is in', async () => {
          const org = await t.factories.organization();
          const id = await own.create(org);
          const guest = await t.factories.member(org, null);
          await own.invite(org, id, { role: 'read', teams: [await kit.team(org, [guest.id])] });
          await org.owner.client.delete(`${paths.users(id)}/${guest.id}`).expect(204);
          await guest.client.get(paths.content(id)).expect(200);
        });
      },
    );

    route(
      'listTeams',
      `GET ${base}/teams`,
      (client, id) => client.get(paths.teams(id)),
      () => {
        it('lists the granted teams with their size, oldest grant first, in pages', async () => {
          const org = await t.factories.organization();
          const id = await own.create(org);
          const member = await t.factories.member(org, 'read');
          const first = await kit.team(org, [member.id]);
          const second = await kit.team(org);
          await own.invite(org, id, { role: 'edit', teams: [first] });
          await own.invite(org, id, { role: 'read', teams: [second], users: [member.id] });

          const page1 = await org.owner.client.get(`${paths.teams(id)}?limit=1`).expect(200);
          expectConforms(page1, ops.listTeams);
          expect(page1.body.count).toBe(2);
          expect(page1.body.items).toEqual([
            {
              permission: 'edit',
              team: expect.objectContaining({ object: 'team', id: first, members: 1 }),
            },
          ]);
          const page2 = await org.owner.client
            .get(`${paths.teams(id)}?limit=1&page=${encodeURIComponent(page1.body.next.page)}`)
            .expect(200);
          expectConforms(page2, ops.listTeams);
          expect(page2.body.items).toEqual([
            { permission: 'read', team: expect.objectContaining({ id: second, members: 0 }) },
          ]);
          expect(page2.body.next).toBeUndefined();
        });

        it("shows the teams' permissions for the caller", async () => {
          const org = await t.factories.organization();
          const id = await own.create(org);
          const teamId = await kit.team(org);
          await own.invite(org, id, { role: 'read', teams: [teamId] });
          const res = await org.owner.client.get(paths.teams(id)).expect(200);
          expect(res.body.items[0].team.permissions).toEqual({ admin: true, view: true });
        });

        it('answers 400 for a bad limit', async () => {
          const org = await t.factories.organization();
          const id = await own.create(org);
          expectError(await org.owner.client.get(`${paths.teams(id)}?limit=5000`), 400, 'limit');
        });
      },
    );

    route(
      'updateTeam',
      `PATCH ${base}/teams/{teamId}`,
      (client, id) => client.patch(`${paths.teams(id)}/someteam`, { role: 'read' }),
      () => {
        it("sets the team's role, creating the grant if absent; null removes it", async () => {
          const org = await t.factories.organization();
          const id = await own.create(org);
          const guest = await t.factories.member(org, null);
          const teamId = await kit.team(org, [guest.id]);
          const patch = (role: Role | null) =>
            org.owner.client.patch(`${paths.teams(id)}/${teamId}`, { role }).expect(204);
          expectConforms(await patch('comment'), ops.updateTeam);
          expect(await own.teamGrants(org, id)).toEqual({ [teamId]: 'comment' });
          const comment = await guest.client.get(paths.content(id)).expect(200);
          expect(comment.body.permissions).toMatchObject(permissions.comment);
          await patch('admin');
          expect(await own.teamGrants(org, id)).toEqual({ [teamId]: 'admin' });
          const admin = await guest.client.get(paths.content(id)).expect(200);
          expect(admin.body.permissions).toMatchObject(permissions.admin);
          await patch(null);
          expect(await own.teamGrants(org, id)).toEqual({});
          await guest.client.get(paths.content(id)).expect(404);
        });

        it('answers 400 for a bad role', async () => {
          const org = await t.factories.organization();
          const id = await own.create(org);
          const teamId = await kit.team(org);
          const res = await org.owner.client.patch(`${paths.teams(id)}/${teamId}`, {
            role: 'boss',
          });
          expectError(res, 400, 'role must be one of');
          expect(await own.teamGrants(org, id)).toEqual({});
        });

        it("answers 404 for an unknown team or another organization's team", async () => {
          const org = await t.factories.organization();
          const id = await own.create(org);
          const foreign = await kit.team(await t.factories.organization());
          for (const teamId of ['nope', foreign]) {
            const res = await org.owner.client.patch(`${paths.teams(id)}/${teamId}`, {
              role: 'read',
            });
            expectError(res, 404, 'Team not found');
            expectConforms(res, ops.updateTeam);
          }
          expect(await own.teamGrants(org, id)).toEqual({});
        });
      },
    );

    route(
      'removeTeam',
      `DELETE ${base}/teams/{teamId}`,
      (client, id) => client.delete(`${paths.teams(id)}/someteam`),
      () => {
        it("removes the team's grant and its members' access; 204 when there is none", async () => {
          const org = await t.factories.organization();
          const id = await own.create(org);
          const guest = await t.factories.member(org, null);
          const teamId = await kit.team(org, [guest.id]);
          const otherTeam = await kit.team(org);
          await own.invite(org, id, { role: 'read', teams: [teamId, otherTeam] });
          await guest.client.get(paths.content(id)).expect(200);
          const res = await org.owner.client.delete(`${paths.teams(id)}/${teamId}`).expect(204);
          expectConforms(res, ops.removeTeam);
          expect(await own.teamGrants(org, id)).toEqual({ [otherTeam]: 'read' });
          await guest.client.get(paths.content(id)).expect(404);
          await org.owner.client.delete(`${paths.teams(id)}/${teamId}`).expect(204);
          await org.owner.client.delete(`${paths.teams(id)}/no-such-team`).expect(204);
        });
      },
    );

    route(
      'listAggregate',
      `GET ${base}/aggregate`,
      (client, id) => client.get(paths.aggregate(id)),
      () => {
        it('applies the default level inherited from above to members, not to guests', async () => {
          const org = await t.factories.organization();
          const parent = await kit.collection.create(org);
          const id = await own.create(org, parent);
          const reader = await t.factories.member(org, 'read');
          const guest = await t.factories.member(org, null);
          await kit.joinInOrder(org, [org.owner, reader, guest]);
          await own.invite(org, id, { role: 'read', users: [guest.id] });
          const expectRoles = async (readerRole: Role) =>
            expect(await own.aggregate(org, id)).toEqual([
              [org.owner.id, 'admin'],
              [reader.id, readerRole],
              [guest.id, 'read'],
            ]);
          const setLevel = (path: string, defaultLevel: string) =>
            org.owner.client.patch(path, { defaultLevel }).expect(200);
          await expectRoles('read');
          await setLevel(kit.collection.paths.content(parent), 'edit');
          await expectRoles('edit');
          // The nearest level that is not `inherit` decides: the content's own.
          await setLevel(paths.content(id), 'comment');
          await expectRoles('comment');
          await setLevel(paths.content(id), 'inherit');
          await setLevel(kit.collection.paths.content(parent), 'inherit');
          // Inherited up to the root: the organization's default role.
          await org.owner.client.patch(`/v1/orgs/${org.id}`, { defaultRole: 'review' }).expect(200);
          await expectRoles('review');
        });

        it('leaves out disabled members, members of other organizations and ungranted guests', async () => {
          const org = await t.factories.organization();
          const id = await own.create(org);
          const disabled = await t.factories.member(org, 'admin');
          const disabledGuest = await t.factories.member(org, null);
          await own.invite(org, id, { role: 'admin', users: [disabled.id, disabledGuest.id] });
          await t.factories.member(org, null);
          await t.factories.member(await t.factories.organization(), 'admin');
          for (const user of [disabled, disabledGuest]) {
            await t.dataSource
              .getRepository(Member)
              .update({ organizationId: org.id, userId: user.id }, { disabled: true });
          }
          expect(await own.aggregate(org, id)).toEqual([[org.owner.id, 'admin']]);
        });

        it('filters by effective role, granted on the content or on a collection above', async () => {
          const org = await t.factories.organization();
          const parent = await kit.collection.create(org);
          const id = await own.create(org, parent);
          const admin = await t.factories.member(org, 'admin');
          const reader = await t.factories.member(org, 'read');
          const promoted = await t.factories.member(org, 'read');
          const inherited = await t.factories.member(org, 'read');
          const guest = await t.factories.member(org, null);
          await kit.joinInOrder(org, [org.owner, admin, reader, promoted, inherited, guest]);
          await own.invite(org, id, { role: 'admin', users: [promoted.id] });
          await kit.collection.invite(org, parent, { role: 'admin', users: [inherited.id] });
          await own.invite(org, id, { role: 'read', users: [guest.id] });
          expect(await own.aggregate(org, id, '&role=admin')).toEqual([
            [org.owner.id, 'admin'],
            [admin.id, 'admin'],
            [promoted.id, 'admin'],
            [inherited.id, 'admin'],
          ]);
          expect(await own.aggregate(org, id, '&role=read')).toEqual([
            [reader.id, 'read'],
            [guest.id, 'read'],
          ]);
          expect(await own.aggregate(org, id, '&role=create')).toEqual([]);
          expect(await own.aggregate(org, id, '&role=edit')).toEqual([]);
          const page = await org.owner.client
            .get(`${paths.aggregate(id)}?role=admin&limit=2`)
            .expect(200);
          expect(page.body.count).toBe(4);
          expect(page.body.items).toHaveLength(2);
          expect(page.body.next).toBeDefined();
        });

        it('answers 400 for a bad role, limit or page', async () => {
          const org = await t.factories.organization();
          const id = await own.create(org);
          const get = (query: string) => org.owner.client.get(`${paths.aggregate(id)}?${query}`);
          expectError(await get('role=guest'), 400, 'role must be one of');
          expectError(await get('role=owner'), 400, 'role must be one of');
          expectError(await get('limit=0'), 400, 'limit');
          expectError(await get('limit=1001'), 400, 'limit');
          expectError(await get('page=garbage'), 400, 'page');
          // A cursor of the grant list is not one of this list.
          const guests = [await t.factories.member(org, null), await t.factories.member(org, null)];
          await own.invite(org, id, { role: 'read', users: guests.map((guest) => guest.id) });
          const grants = await org.owner.client.get(`${paths.users(id)}?limit=1`).expect(200);
          expectError(await get(`page=${encodeURIComponent(grants.body.next.page)}`), 400, 'page');
        });
      },
    );
  });
}
