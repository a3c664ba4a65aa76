import { TeamsPresenter } from '../src/orgs/teams/teams.presenter';
import { TeamsService } from '../src/orgs/teams/teams.service';
import { insertGrant } from './helpers/content';
import { createTestApp, TestApp } from './helpers/app';
import { Client } from './helpers/client';
import { expectConforms } from './helpers/conformance';
import { TestOrganization, TestUser } from './helpers/factories';

interface TeamBody {
  object: 'team';
  id: string;
  title: string;
  members: number;
  spaces: number;
  createdAt: string;
  permissions: { admin: boolean; view: boolean };
}

const teamsPath = (org: TestOrganization) => `/v1/orgs/${org.id}/teams`;
const teamPath = (org: TestOrganization, teamId: string) => `${teamsPath(org)}/${teamId}`;
const membersPath = (org: TestOrganization, teamId: string) => `${teamPath(org, teamId)}/members`;
const memberTeamsPath = (org: TestOrganization, userId: string) =>
  `/v1/orgs/${org.id}/members/${userId}/teams`;
const ids = (body: { items: { id: string }[] }) => body.items.map((item) => item.id);

describe('teams', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** A team created by the organization's owner (an admin), one second after the last. */
  async function team(
    org: TestOrganization,
    title = 'Team',
    members: string[] = [],
  ): Promise<TeamBody> {
    t.clock.advance(1000);
    const res = await org.owner.client.put(teamsPath(org), { title, members }).expect(201);
    return res.body as TeamBody;
  }

  /** The team roles of a team's members, by user id, read through the API. */
  async function rolesIn(org: TestOrganization, teamId: string): Promise<Record<string, string>> {
    const res = await org.owner.client.get(`${membersPath(org, teamId)}?limit=1000`).expect(200);
    return Object.fromEntries(
      (res.body.items as { organization: { id: string }; team: { role: string } }[]).map((item) => [
        item.organization.id,
        item.team.role,
      ]),
    );
  }

  async function setRole(org: TestOrganization, teamId: string, user: TestUser, role: string) {
    await org.owner.client.put(`${membersPath(org, teamId)}/${user.id}`, { role }).expect(204);
  }

  function expectError(res: { body: unknown }, code: number, text: string): void {
    expect(res.body).toEqual({ error: { code, message: expect.stringContaining(text) } });
  }

  describe('GET /v1/orgs/{organizationId}/teams (listTeamsInOrganizationById)', () => {
    it('lists the teams newest first across pages, with their true member counts', async () => {
      const org = await t.factories.organization();
      const a = await t.factories.member(org, 'read');
      const b = await t.factories.member(org, 'edit');
      const first = await team(org, 'First', [a.id, b.id]);
      const second = await team(org, 'Second', [a.id]);
      const third = await team(org, 'Third');
      await team(await t.factories.organization(), 'Elsewhere');

      const reader = await t.factories.asMember(org, 'read');
      const page1 = await reader.get(`${teamsPath(org)}?limit=2`).expect(200);
      expectConforms(page1, 'listTeamsInOrganizationById');
      expect(page1.body.count).toBe(3);
      expect(ids(page1.body)).toEqual([third.id, second.id]);
      const page2 = await reader
        .get(`${teamsPath(org)}?limit=2&page=${page1.body.next.page}`)
        .expect(200);
      expectConforms(page2, 'listTeamsInOrganizationById');
      expect(ids(page2.body)).toEqual([first.id]);
      expect(page2.body).not.toHaveProperty('next');

      expect(page2.body.items[0]).toEqual({
        object: 'team',
        id: first.id,
        title: 'First',
        members: 2,
        spaces: 0,
        createdAt: first.createdAt,
        permissions: { view: true, admin: false },
      });
      expect(page1.body.items.map((item: TeamBody) => item.members)).toEqual([0, 1]);
    });

    it('counts members as they are, also after one leaves the organization', async () => {
      const org = await t.factories.organization();
      const a = await t.factories.member(org, 'read');
      const b = await t.factories.member(org, 'read');
      const created = await team(org, 'Shrinking', [a.id, b.id]);
      await t.dataSource.query(
        'DELETE FROM organization_members WHERE organization_id = $1 AND user_id = $2',
        [org.id, b.id],
      );
      const res = await org.owner.client.get(teamsPath(org)).expect(200);
      expect(res.body.items).toEqual([expect.objectContaining({ id: created.id, members: 1 })]);
    });

    it('filters by title, case-insensitively, taking % and _ literally', async () => {
      const org = await t.factories.organization();
      const docs = await team(org, 'Docs Writers');
      const sale = await team(org, '50%_off');
      await team(org, '50xyoff');
      await team(org, 'Engineering');

      const writers = await org.owner.client.get(`${teamsPath(org)}?title=WRITER`).expect(200);
      expect(ids(writers.body)).toEqual([docs.id]);
      expect(writers.body.count).toBe(1);
      const literal = await org.owner.client
        .get(`${teamsPath(org)}?title=${encodeURIComponent('%_')}`)
        .expect(200);
      expect(ids(literal.body)).toEqual([sale.id]);
      expectConforms(literal, 'listTeamsInOrganizationById');
      const none = await org.owner.client.get(`${teamsPath(org)}?title=nothing`).expect(200);
      expect(none.body).toEqual({ items: [], count: 0 });
    });

    it('filters by owner: the teams a member owns, every team for an admin', async () => {
      const org = await t.factories.organization();
      const owner = await t.factories.member(org, 'read');
      const plain = await t.factories.member(org, 'create');
      const owned = await team(org, 'Owned', [owner.id, plain.id]);
      const joined = await team(org, 'Joined', [owner.id]);
      const other = await team(org, 'Other');
      await setRole(org, owned.id, owner, 'owner');

      const byOwner = await plain.client.get(`${teamsPath(org)}?owner=${owner.id}`).expect(200);
      expect(ids(byOwner.body)).toEqual([owned.id]);
      expectConforms(byOwner, 'listTeamsInOrganizationById');
      const byAdmin = await plain.client.get(`${teamsPath(org)}?owner=${org.owner.id}`).expect(200);
      expect(ids(byAdmin.body)).toEqual([other.id, joined.id, owned.id]);
      const byPlain = await plain.client.get(`${teamsPath(org)}?owner=${plain.id}`).expect(200);
      expect(byPlain.body).toEqual({ items: [], count: 0 });
      const byStranger = await plain.client
        .get(`${teamsPath(org)}?owner=${(await t.factories.user()).id}`)
        .expect(200);
      expect(byStranger.body.count).toBe(0);
      const combined = await plain.client
        .get(`${teamsPath(org)}?owner=${org.owner.id}&title=join`)
        .expect(200);
      expect(ids(combined.body)).toEqual([joined.id]);
    });

    it("shows each team with the caller's permissions on it", async () => {
      const org = await t.factories.organization();
      const member = await t.factories.member(org, 'read');
      const owned = await team(org, 'Owned', [member.id]);
      const joined = await team(org, 'Joined', [member.id]);
      await setRole(org, owned.id, member, 'owner');

      const asMember = await member.client.get(teamsPath(org)).expect(200);
      expect(
        Object.fromEntries(asMember.body.items.map((i: TeamBody) => [i.id, i.permissions])),
      ).toEqual({
        [owned.id]: { view: true, admin: true },
        [joined.id]: { view: true, admin: false },
      });
      const asAdmin = await org.owner.client.get(teamsPath(org)).expect(200);
      expect(asAdmin.body.items.every((i: TeamBody) => i.permissions.admin)).toBe(true);
    });

    it.each([
      ['limit=0', 'limit'],
      ['limit=1001', 'limit'],
      ['page=not-a-page', 'page'],
      [`title=${'x'.repeat(65)}`, 'title'],
      [`owner=${'x'.repeat(65)}`, 'owner'],
      ['sort=title', 'sort'],
    ])('refuses %s with 400 naming %s', async (query, field) => {
      const org = await t.factories.organization();
      const res = await org.owner.client.get(`${teamsPath(org)}?${query}`).expect(400);
      expectError(res, 400, field);
    });

    it('answers 403 to a guest', async () => {
      const org = await t.factories.organization();
      const guest = await t.factories.asMember(org, null);
      const res = await guest.get(teamsPath(org)).expect(403);
      expectError(res, 403, 'read');
    });

    it('answers 404 to a member of another organization, as for an unknown organization', async () => {
      const org = await t.factories.organization();
      await team(org);
      const stranger = await t.factories.organization();
      const hidden = await stranger.owner.client.get(teamsPath(org)).expect(404);
      const unknown = await stranger.owner.client.get('/v1/orgs/nope/teams').expect(404);
      expect(hidden.body).toEqual(unknown.body);
      expect(hidden.body).toEqual({ error: { code: 404, message: 'Organization not found.' } });
    });
  });

  describe('PUT /v1/orgs/{organizationId}/teams (createOrganizationTeam)', () => {
    it('creates the team with the listed members, without adding the creator', async () => {
      const org = await t.factories.organization();
      const a = await t.factories.member(org, 'read');
      const guest = await t.factories.member(org, null);
      t.clock.set('2026-03-01T10:00:00.123Z');
      const res = await org.owner.client
        .put(teamsPath(org), { title: 'Writers', members: [a.id, guest.id, a.id] })
        .expect(201);
      expectConforms(res, 'createOrganizationTeam');
      expect(res.body).toEqual({
        object: 'team',
        id: expect.any(String),
        title: 'Writers',
        members: 2,
        spaces: 0,
        createdAt: '2026-03-01T10:00:00.123Z',
        permissions: { view: true, admin: true },
      });

      const read = await org.owner.client.get(teamPath(org, res.body.id)).expect(200);
      expect(read.body).toEqual(res.body);
      expect(await rolesIn(org, res.body.id)).toEqual({ [a.id]: 'member', [guest.id]: 'member' });
      const creatorTeams = await org.owner.client
        .get(memberTeamsPath(org, org.owner.id))
        .expect(200);
      expect(creatorTeams.body.count).toBe(0);
    });

    it('creates an empty team when no members are given, trimming the title', async () => {
      const org = await t.factories.organization();
      const res = await org.owner.client.put(teamsPath(org), { title: '  Solo  ' }).expect(201);
      expectConforms(res, 'createOrganizationTeam');
      expect(res.body).toEqual(expect.objectContaining({ title: 'Solo', members: 0 }));
      const list = await org.owner.client.get(teamsPath(org)).expect(200);
      expect(ids(list.body)).toEqual([res.body.id]);
    });

    it('shows the creator as a team member when it lists itself', async () => {
      const org = await t.factories.organization();
      const res = await org.owner.client
        .put(teamsPath(org), { title: 'Me', members: [org.owner.id] })
        .expect(201);
      expect(res.body.members).toBe(1);
      expect(await rolesIn(org, res.body.id)).toEqual({ [org.owner.id]: 'member' });
    });

    it.each([
      [{}, 'title'],
      [{ title: '' }, 'title'],
      [{ title: '   ' }, 'title'],
      [{ title: 'x'.repeat(65) }, 'title'],
      [{ title: 42 }, 'title'],
      [{ title: 'Ok', members: 'someone' }, 'members'],
      [{ title: 'Ok', members: [42] }, 'members'],
      [{ title: 'Ok', members: [''] }, 'members'],
      [{ title: 'Ok', owner: 'me' }, 'owner'],
    ])('refuses %j with 400 naming %s', async (body, field) => {
      const org = await t.factories.organization();
      const res = await org.owner.client.put(teamsPath(org), body).expect(400);
      expectError(res, 400, field);
      const list = await org.owner.client.get(teamsPath(org)).expect(200);
      expect(list.body.count).toBe(0);
    });

    it('refuses more than 1000 members with 400', async () => {
      const org = await t.factories.organization();
      const members = Array.from({ length: 1001 }, (_, i) => `u${i}`);
      const res = await org.owner.client.put(teamsPath(org), { title: 'Big', members }).expect(400);
      expectError(res, 400, 'members must contain no more than 1000 elements');
    });

    it('refuses members who are not in the organization with 400 naming them, creating nothing', async () => {
      const org = await t.factories.organization();
      const member = await t.factories.member(org, 'read');
      const outsider = await t.factories.user();
      const res = await org.owner.client
        .put(teamsPath(org), { title: 'Mixed', members: [member.id, outsider.id, 'no-such-user'] })
        .expect(400);
      expectError(res, 400, 'members');
      expect(res.body.error.message).toContain(outsider.id);
      expect(res.body.error.message).toContain('no-such-user');
      expect(res.body.error.message).not.toContain(member.id);
      const list = await org.owner.client.get(teamsPath(org)).expect(200);
      expect(list.body.count).toBe(0);
    });

    it.each(['create', 'read'] as const)('answers 403 to a %s member', async (role) => {
      const org = await t.factories.organization();
      const member = await t.factories.asMember(org, role);
      const res = await member.put(teamsPath(org), { title: 'Nope' }).expect(403);
      expectError(res, 403, 'admin');
      const list = await org.owner.client.get(teamsPath(org)).expect(200);
      expect(list.body.count).toBe(0);
    });

    it('answers 404 to a member of another organization', async () => {
      const org = await t.factories.organization();
      const stranger = await t.factories.organization();
      const res = await stranger.owner.client.put(teamsPath(org), { title: 'Nope' }).expect(404);
      expectError(res, 404, 'Organization not found.');
    });
  });

  describe('GET /v1/orgs/{organizationId}/teams/{teamId} (getTeamInOrganizationById)', () => {
    it('shows the team to a read member, who may not manage it', async () => {
      const org = await t.factories.organization();
      const a = await t.factories.member(org, 'read');
      const created = await team(org, 'Visible', [a.id]);
      const reader = await t.factories.asMember(org, 'read');
      const res = await reader.get(teamPath(org, created.id)).expect(200);
      expectConforms(res, 'getTeamInOrganizationById');
      expect(res.body).toEqual({ ...created, permissions: { view: true, admin: false } });
    });

    it('lets a team owner manage it, and a guest see only a team it is in', async () => {
      const org = await t.factories.organization();
      const guest = await t.factories.member(org, null);
      const mine = await team(org, 'Guests welcome', [guest.id]);
      const notMine = await team(org, 'Members only');

      const seen = await guest.client.get(teamPath(org, mine.id)).expect(200);
      expectConforms(seen, 'getTeamInOrganizationById');
      expect(seen.body.permissions).toEqual({ view: true, admin: false });
      const hidden = await guest.client.get(teamPath(org, notMine.id)).expect(403);
      expectError(hidden, 403, 'Guests');

      await setRole(org, mine.id, guest, 'owner');
      const owning = await guest.client.get(teamPath(org, mine.id)).expect(200);
      expect(owning.body.permissions).toEqual({ view: true, admin: true });
    });

    it('answers 404 for an unknown team and for a team of another organization', async () => {
      const org = await t.factories.organization();
      const other = await t.factories.organization();
      const theirs = await team(other, 'Theirs');
      const unknown = await org.owner.client.get(teamPath(org, 'no-such-team')).expect(404);
      expect(unknown.body).toEqual({ error: { code: 404, message: 'Team not found.' } });
      const foreign = await org.owner.client.get(teamPath(org, theirs.id)).expect(404);
      expect(foreign.body).toEqual(unknown.body);
    });

    it('answers 404 to a member of another organization', async () => {
      const org = await t.factories.organization();
      const created = await team(org);
      const stranger = await t.factories.organization();
      const res = await stranger.owner.client.get(teamPath(org, created.id)).expect(404);
      expectError(res, 404, 'Organization not found.');
    });
  });

  describe('PATCH /v1/orgs/{organizationId}/teams/{teamId} (updateTeamInOrganizationById)', () => {
    it('renames the team for an admin', async () => {
      const org = await t.factories.organization();
      const created = await team(org, 'Old name');
      const res = await org.owner.client
        .patch(teamPath(org, created.id), { title: 'New name' })
        .expect(200);
      expectConforms(res, 'updateTeamInOrganizationById');
      expect(res.body).toEqual({ ...created, title: 'New name' });
      const read = await org.owner.client.get(teamPath(org, created.id)).expect(200);
      expect(read.body.title).toBe('New name');
    });

    it('lets a team owner rename it, but not a team member or another member', async () => {
      const org = await t.factories.organization();
      const owner = await t.factories.member(org, 'read');
      const member = await t.factories.member(org, 'edit');
      const created = await team(org, 'Owned', [owner.id, member.id]);
      await setRole(org, created.id, owner, 'owner');

      const renamed = await owner.client
        .patch(teamPath(org, created.id), { title: 'Renamed by owner' })
        .expect(200);
      expectConforms(renamed, 'updateTeamInOrganizationById');
      expect(renamed.body).toEqual(
        expect.objectContaining({ title: 'Renamed by owner', members: 2 }),
      );
      expect(renamed.body.permissions).toEqual({ view: true, admin: true });

      const refused = await member.client
        .patch(teamPath(org, created.id), { title: 'Nope' })
        .expect(403);
      expectError(refused, 403, 'owners');
      const reader = await t.factories.asMember(org, 'read');
      await reader.patch(teamPath(org, created.id), { title: 'Nope' }).expect(403);
      const read = await org.owner.client.get(teamPath(org, created.id)).expect(200);
      expect(read.body.title).toBe('Renamed by owner');
    });

    it.each([
      [{}, 'title'],
      [{ title: '' }, 'title'],
      [{ title: ' ' }, 'title'],
      [{ title: 'x'.repeat(65) }, 'title'],
      [{ title: 'Ok', members: [] }, 'members'],
    ])('refuses %j with 400 naming %s', async (body, field) => {
      const org = await t.factories.organization();
      const created = await team(org, 'Unchanged');
      const res = await org.owner.client.patch(teamPath(org, created.id), body).expect(400);
      expectError(res, 400, field);
      const read = await org.owner.client.get(teamPath(org, created.id)).expect(200);
      expect(read.body.title).toBe('Unchanged');
    });

    it('answers 404 for an unknown team, one of another organization, and a stranger', async () => {
      const org = await t.factories.organization();
      const other = await t.factories.organization();
      const theirs = await team(other, 'Theirs');
      await org.owner.client.patch(teamPath(org, 'no-such-team'), { title: 'X' }).expect(404);
      const foreign = await org.owner.client
        .patch(teamPath(org, theirs.id), { title: 'Hijacked' })
        .expect(404);
      expectError(foreign, 404, 'Team not found.');
      const stranger = await other.owner.client
        .patch(teamPath(org, theirs.id), { title: 'X' })
        .expect(404);
      expectError(stranger, 404, 'Organization not found.');
      const read = await other.owner.client.get(teamPath(other, theirs.id)).expect(200);
      expect(read.body.title).toBe('Theirs');
    });
  });

  describe('DELETE /v1/orgs/{organizationId}/teams/{teamId} (removeTeamFromOrganizationById)', () => {
    it('deletes the team and its memberships, and answers 204 again once it is gone', async () => {
      const org = await t.factories.organization();
      const a = await t.factories.member(org, 'read');
      const created = await team(org, 'Doomed', [a.id]);
      const res = await org.owner.client.delete(teamPath(org, created.id)).expect(204);
      expectConforms({ status: 204, body: res.body }, 'removeTeamFromOrganizationById');
      await org.owner.client.get(teamPath(org, created.id)).expect(404);
      const aTeams = await org.owner.client.get(memberTeamsPath(org, a.id)).expect(200);
      expect(aTeams.body.count).toBe(0);
      await org.owner.client.delete(teamPath(org, created.id)).expect(204);
      await org.owner.client.delete(teamPath(org, 'never-existed')).expect(204);
    });

    it("leaves another organization's team alone", async () => {
      const org = await t.factories.organization();
      const other = await t.factories.organization();
      const theirs = await team(other, 'Theirs');
      await org.owner.client.delete(teamPath(org, theirs.id)).expect(204);
      await other.owner.client.get(teamPath(other, theirs.id)).expect(200);
    });

    it('answers 403 to a read member and to a team owner who is not an admin', async () => {
      const org = await t.factories.organization();
      const owner = await t.factories.member(org, 'create');
      const created = await team(org, 'Kept', [owner.id]);
      await setRole(org, created.id, owner, 'owner');
      const reader = await t.factories.asMember(org, 'read');
      expectError(await reader.delete(teamPath(org, created.id)).expect(403), 403, 'admin');
      await owner.client.delete(teamPath(org, created.id)).expect(403);
      await org.owner.client.get(teamPath(org, created.id)).expect(200);
    });

    it('answers 404 to a member of another organization', async () => {
      const org = await t.factories.organization();
      const created = await team(org);
      const stranger = await t.factories.organization();
      await stranger.owner.client.delete(teamPath(org, created.id)).expect(404);
      await org.owner.client.get(teamPath(org, created.id)).expect(200);
    });
  });

  describe('GET /v1/orgs/{organizationId}/teams/{teamId}/members (listTeamMembersInOrganizationById)', () => {
    it('lists the members, most recently added first, as organization members', async () => {
      const org = await t.factories.organization();
      const a = await t.factories.member(org, 'edit');
      const b = await t.factories.member(org, null);
      const created = await team(org, 'Listed');
      await team(org, 'Also with b', [b.id]);
      t.clock.advance(1000);
      await org.owner.client.put(`${membersPath(org, created.id)}/${a.id}`).expect(204);
      t.clock.advance(1000);
      await org.owner.client
        .put(`${membersPath(org, created.id)}/${b.id}`, { role: 'owner' })
        .expect(204);

      const reader = await t.factories.asMember(org, 'read');
      const first = await reader.get(`${membersPath(org, created.id)}?limit=1`).expect(200);
      expectConforms(first, 'listTeamMembersInOrganizationById');
      expect(first.body.count).toBe(2);
      expect(first.body.items).toEqual([
        {
          organization: {
            object: 'member',
            id: b.id,
            role: null,
            user: expect.objectContaining({ object: 'user', id: b.id, displayName: b.displayName }),
            disabled: false,
            joinedAt: expect.any(String),
            sso: false,
            spaces: 0,
            teams: 2,
          },
          team: { role: 'owner' },
          permissions: { view: true },
        },
      ]);
      const second = await reader
        .get(`${membersPath(org, created.id)}?limit=1&page=${first.body.next.page}`)
        .expect(200);
      expectConforms(second, 'listTeamMembersInOrganizationById');
      expect(
        second.body.items.map((i: { organization: { id: string } }) => i.organization.id),
      ).toEqual([a.id]);
      expect(second.body.items[0].organization).toEqual(
        expect.objectContaining({ role: 'edit', teams: 1 }),
      );
      expect(second.body.items[0].team).toEqual({ role: 'member' });
      expect(second.body).not.toHaveProperty('next');
    });

    it('lets a guest list a team it is in, not another', async () => {
      const org = await t.factories.organization();
      const guest = await t.factories.member(org, null);
      const mine = await team(org, 'Mine', [guest.id]);
      const other = await team(org, 'Other');
      const res = await guest.client.get(membersPath(org, mine.id)).expect(200);
      expectConforms(res, 'listTeamMembersInOrganizationById');
      expect(res.body.count).toBe(1);
      expectError(await guest.client.get(membersPath(org, other.id)).expect(403), 403, 'Guests');
    });

    it.each([
      ['limit=0', 'limit'],
      ['page=garbage', 'page'],
      ['role=owner', 'role'],
    ])('refuses %s with 400 naming %s', async (query, field) => {
      const org = await t.factories.organization();
      const created = await team(org);
      const res = await org.owner.client
        .get(`${membersPath(org, created.id)}?${query}`)
        .expect(400);
      expectError(res, 400, field);
    });

    it('answers 404 for an unknown team, one of another organization, and a stranger', async () => {
      const org = await t.factories.organization();
      const other = await t.factories.organization();
      const theirs = await team(other, 'Theirs', [other.owner.id]);
      expectError(
        await org.owner.client.get(membersPath(org, 'no-such-team')).expect(404),
        404,
        'Team not found.',
      );
      await org.owner.client.get(membersPath(org, theirs.id)).expect(404);
      expectError(
        await org.owner.client.get(membersPath(other, theirs.id)).expect(404),
        404,
        'Organization not found.',
      );
    });
  });

  describe('PUT /v1/orgs/{organizationId}/teams/{teamId}/members/{userId} (addMemberToOrganizationTeamById)', () => {
    it('adds a member, sets its role, and keeps the role when none is given', async () => {
      const org = await t.factories.organization();
      const a = await t.factories.member(org, 'read');
      const created = await team(org);
      const added = await org.owner.client
        .put(`${membersPath(org, created.id)}/${a.id}`)
        .expect(204);
      expectConforms({ status: 204, body: added.body }, 'addMemberToOrganizationTeamById');
      expect(await rolesIn(org, created.id)).toEqual({ [a.id]: 'member' });

      await org.owner.client
        .put(`${membersPath(org, created.id)}/${a.id}`, { role: 'owner' })
        .expect(204);
      expect(await rolesIn(org, created.id)).toEqual({ [a.id]: 'owner' });
      await org.owner.client.put(`${membersPath(org, created.id)}/${a.id}`, {}).expect(204);
      expect(await rolesIn(org, created.id)).toEqual({ [a.id]: 'owner' });
      await org.owner.client
        .put(`${membersPath(org, created.id)}/${a.id}`, { role: 'member' })
        .expect(204);
      expect(await rolesIn(org, created.id)).toEqual({ [a.id]: 'member' });
      const read = await org.owner.client.get(teamPath(org, created.id)).expect(200);
      expect(read.body.members).toBe(1);
    });

    it('lets a team owner add members, not a team member', async () => {
      const org = await t.factories.organization();
      const owner = await t.factories.member(org, 'read');
      const member = await t.factories.member(org, 'read');
      const newcomer = await t.factories.member(org, 'read');
      const created = await team(org, 'Owned', [owner.id, member.id]);
      await setRole(org, created.id, owner, 'owner');

      await owner.client.put(`${membersPath(org, created.id)}/${newcomer.id}`).expect(204);
      const refused = await member.client
        .put(`${membersPath(org, created.id)}/${member.id}`, { role: 'owner' })
        .expect(403);
      expectError(refused, 403, 'owners');
      expect(await rolesIn(org, created.id)).toEqual({
        [owner.id]: 'owner',
        [member.id]: 'member',
        [newcomer.id]: 'member',
      });
    });

    it.each([
      [{ role: 'admin' }, 'role'],
      [{ role: null }, 'role'],
      [{ title: 'x' }, 'title'],
    ])('refuses %j with 400 naming %s', async (body, field) => {
      const org = await t.factories.organization();
      const a = await t.factories.member(org, 'read');
      const created = await team(org);
      const res = await org.owner.client
        .put(`${membersPath(org, created.id)}/${a.id}`, body)
        .expect(400);
      expectError(res, 400, field);
      expect(await rolesIn(org, created.id)).toEqual({});
    });

    it('refuses users outside the organization with 400', async () => {
      const org = await t.factories.organization();
      const created = await team(org);
      const other = await t.factories.organization();
      for (const userId of [other.owner.id, 'no-such-user']) {
        const res = await org.owner.client
          .put(`${membersPath(org, created.id)}/${userId}`)
          .expect(400);
        expectError(res, 400, userId);
      }
      expect(await rolesIn(org, created.id)).toEqual({});
    });

    it('answers 403 to a read member, 404 for unknown and foreign teams and to a stranger', async () => {
      const org = await t.factories.organization();
      const a = await t.factories.member(org, 'read');
      const created = await team(org);
      const reader = await t.factories.asMember(org, 'read');
      await reader.put(`${membersPath(org, created.id)}/${a.id}`).expect(403);
      await org.owner.client.put(`${membersPath(org, 'no-such-team')}/${a.id}`).expect(404);
      const other = await t.factories.organization();
      const theirs = await team(other);
      await org.owner.client.put(`${membersPath(org, theirs.id)}/${a.id}`).expect(404);
      const res = await other.owner.client
        .put(`${membersPath(org, created.id)}/${other.owner.id}`)
        .expect(404);
      expectError(res, 404, 'Organization not found.');
      expect(await rolesIn(org, created.id)).toEqual({});
    });
  });

  describe('DELETE /v1/orgs/{organizationId}/teams/{teamId}/members/{userId} (deleteMemberFromOrganizationTeamById)', () => {
    it('removes the member, and answers 204 when it is not in the team', async () => {
      const org = await t.factories.organization();
      const a = await t.factories.member(org, 'read');
      const b = await t.factories.member(org, 'read');
      const created = await team(org, 'Team', [a.id, b.id]);
      const res = await org.owner.client
        .delete(`${membersPath(org, created.id)}/${a.id}`)
        .expect(204);
      expectConforms({ status: 204, body: res.body }, 'deleteMemberFromOrganizationTeamById');
      expect(await rolesIn(org, created.id)).toEqual({ [b.id]: 'member' });
      await org.owner.client.delete(`${membersPath(org, created.id)}/${a.id}`).expect(204);
      await org.owner.client.delete(`${membersPath(org, created.id)}/no-such-user`).expect(204);
      const read = await org.owner.client.get(teamPath(org, created.id)).expect(200);
      expect(read.body.members).toBe(1);
    });

    it('lets a team owner remove members', async () => {
      const org = await t.factories.organization();
      const owner = await t.factories.member(org, 'read');
      const a = await t.factories.member(org, 'read');
      const created = await team(org, 'Owned', [owner.id, a.id]);
      await setRole(org, created.id, owner, 'owner');
      await owner.client.delete(`${membersPath(org, created.id)}/${a.id}`).expect(204);
      expect(await rolesIn(org, created.id)).toEqual({ [owner.id]: 'owner' });
    });

    it('answers 403 to a team member who is not an owner, 404 for unknown teams and strangers', async () => {
      const org = await t.factories.organization();
      const a = await t.factories.member(org, 'edit');
      const b = await t.factories.member(org, 'read');
      const created = await team(org, 'Team', [a.id, b.id]);
      expectError(
        await a.client.delete(`${membersPath(org, created.id)}/${b.id}`).expect(403),
        403,
        'owners',
      );
      await org.owner.client.delete(`${membersPath(org, 'no-such-team')}/${b.id}`).expect(404);
      const stranger = await t.factories.organization();
      await stranger.owner.client.delete(`${membersPath(org, created.id)}/${b.id}`).expect(404);
      expect(await rolesIn(org, created.id)).toEqual({ [a.id]: 'member', [b.id]: 'member' });
    });
  });

  describe('PUT /v1/orgs/{organizationId}/teams/{teamId}/members (updateMembersInOrganizationTeam)', () => {
    it('adds, sets roles and removes in one request, by user id or email', async () => {
      const org = await t.factories.organization();
      const users: TestUser[] = [];
      for (let i = 0; i < 5; i++) users.push(await t.factories.member(org, 'read'));
      const [a, b, c, d, e] = users;
      const created = await team(org, 'Bulk', [a.id, b.id]);
      await setRole(org, created.id, a, 'owner');

      const res = await org.owner.client
        .put(membersPath(org, created.id), {
          add: [a.id, c.email.toUpperCase(), d.id, e.id],
          memberships: { [d.id]: { role: 'owner' }, [b.email]: { role: 'owner' } },
          remove: [e.email, 'not-in-team'],
        })
        .expect(204);
      expectConforms({ status: 204, body: res.body }, 'updateMembersInOrganizationTeam');
      expect(await rolesIn(org, created.id)).toEqual({
        [a.id]: 'owner', // `add` keeps an existing role
        [b.id]: 'owner',
        [c.id]: 'member',
        [d.id]: 'owner', // `memberships` wins over `add`
        // e: both added and removed, so removed
      });
      const read = await org.owner.client.get(teamPath(org, created.id)).expect(200);
      expect(read.body.members).toBe(4);

      await org.owner.client
        .put(membersPath(org, created.id), {
          remove: [a.id, b.id],
          memberships: { [a.id]: { role: 'member' } },
        })
        .expect(204);
      expect(await rolesIn(org, created.id)).toEqual({ [c.id]: 'member', [d.id]: 'owner' });
      await org.owner.client.put(membersPath(org, created.id), {}).expect(204);
      expect(await rolesIn(org, created.id)).toEqual({ [c.id]: 'member', [d.id]: 'owner' });
    });

    it('lets a team owner update members, not a team member', async () => {
      const org = await t.factories.organization();
      const owner = await t.factories.member(org, null);
      const member = await t.factories.member(org, 'create');
      const created = await team(org, 'Owned', [owner.id, member.id]);
      await setRole(org, created.id, owner, 'owner');
      await owner.client
        .put(membersPath(org, created.id), { memberships: { [member.id]: { role: 'owner' } } })
        .expect(204);
      expect(await rolesIn(org, created.id)).toEqual({ [owner.id]: 'owner', [member.id]: 'owner' });

      const other = await team(org, 'Not owned', [member.id]);
      expectError(
        await member.client
          .put(membersPath(org, other.id), { memberships: { [member.id]: { role: 'owner' } } })
          .expect(403),
        403,
        'owners',
      );
      expect(await rolesIn(org, other.id)).toEqual({ [member.id]: 'member' });
    });

    it.each([
      [{ add: 'someone' }, 'add'],
      [{ add: [42] }, 'add'],
      [{ remove: [''] }, 'remove'],
      [{ memberships: [] }, 'memberships'],
      [{ memberships: { someone: 'owner' } }, 'memberships'],
      [{ memberships: { someone: { role: 'admin' } } }, 'memberships'],
      [{ memberships: { someone: { role: 'owner', extra: true } } }, 'memberships'],
      [{ members: [] }, 'members'],
    ])('refuses %j with 400 naming %s', async (body, field) => {
      const org = await t.factories.organization();
      const a = await t.factories.member(org, 'read');
      const created = await team(org, 'Team', [a.id]);
      const res = await org.owner.client.put(membersPath(org, created.id), body).expect(400);
      expectError(res, 400, field);
      expect(await rolesIn(org, created.id)).toEqual({ [a.id]: 'member' });
    });

    it('refuses users outside the organization with 400 naming them, changing nothing', async () => {
      const org = await t.factories.organization();
      const a = await t.factories.member(org, 'read');
      const b = await t.factories.member(org, 'read');
      const outsider = await t.factories.user();
      const created = await team(org, 'Team', [a.id]);

      const byAdd = await org.owner.client
        .put(membersPath(org, created.id), { remove: [a.id], add: [b.id, outsider.email] })
        .expect(400);
      expectError(byAdd, 400, 'add');
      expect(byAdd.body.error.message).toContain(outsider.email);
      const bySet = await org.owner.client
        .put(membersPath(org, created.id), { memberships: { [outsider.id]: { role: 'owner' } } })
        .expect(400);
      expectError(bySet, 400, 'memberships');
      expect(bySet.body.error.message).toContain(outsider.id);
      expect(await rolesIn(org, created.id)).toEqual({ [a.id]: 'member' });
    });

    it('answers 403 to a read member, 404 for unknown and foreign teams and to a stranger', async () => {
      const org = await t.factories.organization();
      const a = await t.factories.member(org, 'read');
      const created = await team(org);
      const reader = await t.factories.asMember(org, 'read');
      await reader.put(membersPath(org, created.id), { add: [a.id] }).expect(403);
      await org.owner.client.put(membersPath(org, 'no-such-team'), { add: [a.id] }).expect(404);
      const other = await t.factories.organization();
      const theirs = await team(other);
      await org.owner.client.put(membersPath(org, theirs.id), { add: [a.id] }).expect(404);
      await other.owner.client.put(membersPath(org, created.id), { add: [a.id] }).expect(404);
      expect(await rolesIn(org, created.id)).toEqual({});
    });
  });

  describe('GET /v1/orgs/{organizationId}/members/{userId}/teams (listTeamsForOrganizationMember)', () => {
    it("lists the member's teams with its role, most recently joined first, across pages", async () => {
      const org = await t.factories.organization();
      const a = await t.factories.member(org, 'read');
      const first = await team(org, 'Alpha team', [a.id]);
      const second = await team(org, 'Beta team', [a.id]);
      await team(org, 'Without a');
      await setRole(org, second.id, a, 'owner'); // a role change is not a new join

      const reader = await t.factories.asMember(org, 'read');
      const page1 = await reader.get(`${memberTeamsPath(org, a.id)}?limit=1`).expect(200);
      expectConforms(page1, 'listTeamsForOrganizationMember');
      expect(page1.body.count).toBe(2);
      expect(page1.body.items).toEqual([
        {
          team: { ...second, permissions: { view: true, admin: false } },
          member: { role: 'owner' },
        },
      ]);
      const page2 = await reader
        .get(`${memberTeamsPath(org, a.id)}?limit=1&page=${page1.body.next.page}`)
        .expect(200);
      expectConforms(page2, 'listTeamsForOrganizationMember');
      expect(page2.body.items).toEqual([
        {
          team: { ...first, permissions: { view: true, admin: false } },
          member: { role: 'member' },
        },
      ]);
      expect(page2.body).not.toHaveProperty('next');

      const own = await a.client.get(memberTeamsPath(org, a.id)).expect(200);
      expect(own.body.items[0].team.permissions).toEqual({ view: true, admin: true });
    });

    it('filters by title, case-insensitively', async () => {
      const org = await t.factories.organization();
      const a = await t.factories.member(org, 'read');
      const docs = await team(org, 'Docs', [a.id]);
      await team(org, 'Support', [a.id]);
      await team(org, 'More docs');
      const res = await org.owner.client.get(`${memberTeamsPath(org, a.id)}?title=dOC`).expect(200);
      expectConforms(res, 'listTeamsForOrganizationMember');
      expect(res.body.items.map((i: { team: TeamBody }) => i.team.id)).toEqual([docs.id]);
      expect(res.body.count).toBe(1);
    });

    it('answers an empty page for a member without teams', async () => {
      const org = await t.factories.organization();
      const a = await t.factories.member(org, 'read');
      await team(org);
      const res = await org.owner.client.get(memberTeamsPath(org, a.id)).expect(200);
      expectConforms(res, 'listTeamsForOrganizationMember');
      expect(res.body).toEqual({ items: [], count: 0 });
    });

    it("lets a guest list its own teams, not someone else's", async () => {
      const org = await t.factories.organization();
      const guest = await t.factories.member(org, null);
      const a = await t.factories.member(org, 'read');
      const created = await team(org, 'With guest', [guest.id, a.id]);
      const own = await guest.client.get(memberTeamsPath(org, guest.id)).expect(200);
      expect(own.body.items.map((i: { team: TeamBody }) => i.team.id)).toEqual([created.id]);
      expectError(await guest.client.get(memberTeamsPath(org, a.id)).expect(403), 403, 'Guests');
    });

    it.each([
      ['limit=1001', 'limit'],
      ['page=garbage', 'page'],
      [`title=${'x'.repeat(65)}`, 'title'],
      ['owner=x', 'owner'],
    ])('refuses %s with 400 naming %s', async (query, field) => {
      const org = await t.factories.organization();
      const res = await org.owner.client
        .get(`${memberTeamsPath(org, org.owner.id)}?${query}`)
        .expect(400);
      expectError(res, 400, field);
    });

    it('answers 404 for a user who is not a member, and to a stranger', async () => {
      const org = await t.factories.organization();
      const other = await t.factories.organization();
      const notMember = await org.owner.client
        .get(memberTeamsPath(org, other.owner.id))
        .expect(404);
      expect(notMember.body).toEqual({ error: { code: 404, message: 'Member not found.' } });
      await org.owner.client.get(memberTeamsPath(org, 'no-such-user')).expect(404);
      const stranger = await other.owner.client.get(memberTeamsPath(org, org.owner.id)).expect(404);
      expectError(stranger, 404, 'Organization not found.');
    });
  });

  describe("Team.spaces: the live spaces the team's grants reach", () => {
    it('counts spaces granted to the team directly or through a collection above them, in every team answer', async () => {
      const org = await t.factories.organization();
      const { id: outer } = await t.factories.collection(org, { title: 'Collection' });
      const { id: inner } = await t.factories.collection(org, {
        title: 'Collection',
        parent: outer,
      });
      const { id: atRoot } = await t.factories.space(org, { title: 'Space' });
      await t.factories.space(org, { title: 'Space' }); // granted to no team
      await t.factories.space(org, { title: 'Space', parent: outer });
      const { id: inInner } = await t.factories.space(org, { title: 'Space', parent: inner });
      const { id: trashed } = await t.factories.space(org, { title: 'Space', parent: outer });
      await org.owner.client.delete(`/v1/spaces/${trashed}`).expect(204);

      const guest = await t.factories.member(org, null);
      const rootTeam = await team(org, 'Root');
      const outerTeam = await team(org, 'Outer', [guest.id]);
      const innerTeam = await team(org, 'Inner');
      const bare = await team(org, 'Bare', [guest.id]);
      await insertGrant(t, org, { space: atRoot }, { teamId: rootTeam.id });
      await insertGrant(t, org, { collection: outer }, { teamId: outerTeam.id }, 'edit');
      await insertGrant(t, org, { space: trashed }, { teamId: outerTeam.id });
      // Counted once although granted twice; a member's own grant is not the team's.
      await insertGrant(t, org, { collection: inner }, { teamId: innerTeam.id });
      await insertGrant(t, org, { space: inInner }, { teamId: innerTeam.id }, 'admin');
      await insertGrant(t, org, { space: atRoot }, { userId: guest.id });
      expect(bare.spaces).toBe(0);

      const expected = {
        [rootTeam.id]: 1,
        [outerTeam.id]: 2,
        [innerTeam.id]: 1,
        [bare.id]: 0,
      };
      const list = await org.owner.client.get(teamsPath(org)).expect(200);
      expectConforms(list, 'listTeamsInOrganizationById');
      expect(
        Object.fromEntries(list.body.items.map((item: TeamBody) => [item.id, item.spaces])),
      ).toEqual(expected);
      for (const [teamId, spaces] of Object.entries(expected)) {
        const one = await org.owner.client.get(teamPath(org, teamId)).expect(200);
        expectConforms(one, 'getTeamInOrganizationById');
        expect({ teamId, spaces: one.body.spaces }).toEqual({ teamId, spaces });
      }

      // As the guest sees its own teams, and as the team's members are listed.
      const mine = await t.as(guest.token).get(memberTeamsPath(org, guest.id)).expect(200);
      expectConforms(mine, 'listTeamsForOrganizationMember');
      expect(
        mine.body.items.map((item: { team: TeamBody }) => [item.team.id, item.team.spaces]),
      ).toEqual([
        [bare.id, 0],
        [outerTeam.id, 2],
      ]);
      const teamMembers = await org.owner.client.get(membersPath(org, outerTeam.id)).expect(200);
      expectConforms(teamMembers, 'listTeamMembersInOrganizationById');
      // The guest reaches the outer collection's two spaces through the team, and its own.
      expect(teamMembers.body.items).toEqual([
        expect.objectContaining({
          organization: expect.objectContaining({ id: guest.id, spaces: 3, teams: 2 }),
        }),
      ]);

      // A renamed team keeps its count; a restored space counts again.
      const renamed = await org.owner.client
        .patch(teamPath(org, outerTeam.id), { title: 'Outer!' })
        .expect(200);
      expect(renamed.body.spaces).toBe(2);
      await org.owner.client.post(`/v1/spaces/${trashed}/restore`).expect(200);
      const after = await org.owner.client.get(teamPath(org, outerTeam.id)).expect(200);
      expect(after.body.spaces).toBe(3);
    });

    it('gives the count to other modules presenting teams (presentTeams)', async () => {
      const org = await t.factories.organization();
      const granted = await team(org, 'Granted');
      const other = await t.factories.organization();
      await t.factories.space(other, { title: 'Space' });
      await insertGrant(
        t,
        org,
        { space: (await t.factories.space(org, { title: 'Space' })).id },
        { teamId: granted.id },
      );
      const presenter = t.bindery.app.get(TeamsPresenter);
      const found = await t.bindery.app.get(TeamsService).findInOrganization(org.id, granted.id);
      const [presented] = await presenter.presentTeams([found!], {
        userId: org.owner.id,
        role: 'admin',
      });
      expect(presented.spaces).toBe(1);
    });
  });

  describe('for other modules (SAML default team)', () => {
    it('finds a team only inside its organization and presents teams with one lookup', async () => {
      const org = await t.factories.organization();
      const a = await t.factories.member(org, 'read');
      const created = await team(org, 'Default', [a.id, org.owner.id]);
      const other = await t.factories.organization();
      const service = t.bindery.app.get(TeamsService);
      const presenter = t.bindery.app.get(TeamsPresenter);

      expect(await service.findInOrganization(other.id, created.id)).toBeNull();
      const found = await service.findInOrganization(org.id, created.id);
      expect(found?.title).toBe('Default');
      const [presented] = await presenter.presentTeams([found!], { userId: a.id, role: 'read' });
      expect(presented).toEqual({
        ...created,
        members: 2,
        permissions: { view: true, admin: false },
      });
      expectConforms({ status: 200, body: presented }, 'getTeamInOrganizationById');
      expect(await presenter.presentTeams([], { userId: a.id, role: 'read' })).toEqual([]);
    });
  });

  it('refuses the administrator token and callers without a token', async () => {
    const org = await t.factories.organization();
    const created = await team(org);
    const admin: Client = t.admin;
    await admin.get(teamPath(org, created.id)).expect(403);
    await t.anonymous.get(teamsPath(org)).expect(401);
  });
});
