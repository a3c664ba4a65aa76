import { createTestApp, TestApp } from './helpers/app';
import type { UserBody } from './helpers/bodies';
import { expectConforms } from './helpers/conformance';
import type { TestOrganization, TestUser } from './helpers/factories';

/**
 * Email addresses are visible to the person, to the admins of the organization a request is
 * about, and to the instance administrator; everyone else sees users by name and photo only
 * (GitBook's `User` without `email`), in every answer that carries users.
 */

/** Every user object of a body, however deep. */
function usersIn(body: unknown): UserBody[] {
  if (Array.isArray(body)) return body.flatMap(usersIn);
  if (typeof body !== 'object' || body === null) return [];
  const own = (body as { object?: unknown }).object === 'user' ? [body as UserBody] : [];
  return [...own, ...Object.values(body).flatMap(usersIn)];
}

describe('email privacy', () => {
  let t: TestApp;
  let org: TestOrganization;
  let admin: TestUser;
  let reader: TestUser;
  let guest: TestUser;
  let space: string;
  let team: string;

  beforeAll(async () => {
    t = await createTestApp();
    org = await t.factories.organization();
    admin = await t.factories.member(org, 'admin');
    reader = await t.factories.member(org, 'read');
    guest = await t.factories.member(org, null);
    const client = org.owner.client;
    space = (await t.factories.space(org, { title: 'Handbook' })).id;
    await t.factories.changeRequest(org, space, { subject: 'Draft' });
    await t.factories.comment(org, space, { body: { markdown: 'Hi' } });
    team = (await client.put(`/v1/orgs/${org.id}/teams`, { title: 'Writers' }).expect(201)).body.id;
    await client
      .put(`/v1/orgs/${org.id}/teams/${team}/members`, { add: [reader.id, guest.id] })
      .expect(204);
  });
  afterAll(() => t.close());

  /** The reads that carry users, with their operationIds. */
  const reads = (): [string, string][] => [
    [`/v1/orgs/${org.id}/members`, 'listMembersInOrganizationById'],
    [`/v1/orgs/${org.id}/members/${org.owner.id}`, 'getMemberInOrganizationById'],
    [`/v1/spaces/${space}/change-requests`, 'listChangeRequestsForSpace'],
    [`/v1/spaces/${space}/comments`, 'listCommentsInSpace'],
    [`/v1/orgs/${org.id}/teams/${team}/members`, 'listTeamMembersInOrganizationById'],
  ];

  it.each([
    ['a reader', () => reader],
    ['a guest', () => guest],
  ])('shows %s no email but its own', async (_label, caller) => {
    const user = caller();
    let checked = 0;
    for (const [path, operationId] of reads()) {
      const res = await user.client.get(path);
      // A guest may not list members nor see the space; the team it is in, it sees.
      if (user === guest && (res.status === 404 || res.status === 403)) continue;
      checked++;
      expect(res.status).toBe(200);
      expectConforms(res, operationId);
      const users = usersIn(res.body);
      expect(users.length).toBeGreaterThan(0);
      for (const shown of users) {
        expect({ path, id: shown.id, email: shown.email }).toEqual({
          path,
          id: shown.id,
          email: shown.id === user.id ? user.email : undefined,
        });
      }
    }
    expect(checked).toBeGreaterThanOrEqual(user === guest ? 1 : 5);
    const other = await user.client.get(`/v1/users/${org.owner.id}`).expect(200);
    expectConforms(other, 'getUserById');
    expect(other.body.email).toBeUndefined();
    const me = await user.client.get('/v1/user').expect(200);
    expect(me.body.email).toBe(user.email);
  });

  it("shows an organization admin every member's email", async () => {
    const members = await admin.client.get(`/v1/orgs/${org.id}/members?limit=100`).expect(200);
    expectConforms(members, 'listMembersInOrganizationById');
    const emails = usersIn(members.body).map((user) => user.email);
    expect(emails).toEqual(expect.arrayContaining([org.owner.email, reader.email, guest.email]));
    const comments = await admin.client.get(`/v1/spaces/${space}/comments`).expect(200);
    expect(usersIn(comments.body).every((user) => user.email !== undefined)).toBe(true);
  });

  it("hides the team's members' emails from a team member who is no admin", async () => {
    const listed = await reader.client.get(`/v1/orgs/${org.id}/teams/${team}/members`).expect(200);
    expectConforms(listed, 'listTeamMembersInOrganizationById');
    const users = usersIn(listed.body);
    expect(users.map((user) => user.id).sort()).toEqual([guest.id, reader.id].sort());
    expect(users.find((user) => user.id === guest.id)?.email).toBeUndefined();
    expect(users.find((user) => user.id === reader.id)?.email).toBe(reader.email);
  });

  it('shows the instance administrator every email', async () => {
    const res = await t.admin.get(`/v1/admin/users?limit=100`).expect(200);
    const listed = res.body.items as { id: string; email?: string }[];
    expect(listed.find((user) => user.id === guest.id)?.email).toBe(guest.email);
  });
});
