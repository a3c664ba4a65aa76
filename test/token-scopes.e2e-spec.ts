import { createTestApp, TEST_ADMIN_TOKEN, TestApp } from './helpers/app';
import type { Client } from './helpers/client';
import { expectConforms } from './helpers/conformance';
import type { TestOrganization, TestUser } from './helpers/factories';

/**
 * Scoped API tokens: read-only or read-write, limited to one organization, and within it to
 * some spaces or sites. A scoped token reaches only what both its scope and its user reach;
 * what is outside answers as for a caller who cannot see it (404), or 403 where the route
 * itself is out of reach. test/platform/token-scopes-matrix.e2e-spec.ts sends every route.
 */
describe('scoped API tokens', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  async function scoped(user: TestUser, scopes: Record<string, unknown>): Promise<Client> {
    const res = await user.client.post('/v1/user/tokens', { label: 'scoped', scopes }).expect(201);
    expect(res.body.scopes).toEqual({ access: 'read-write', ...scopes });
    return t.as(res.body.token as string);
  }

  const refusedFor = (message: RegExp) => (res: { body: { error: { message: string } } }) =>
    expect(res.body.error.message).toMatch(message);

  describe('creating one', () => {
    it('stores the scope, lists it, and never widens it', async () => {
      const org = await t.factories.organization();
      const space = await t.factories.space(org);
      const scopes = { access: 'read-only', organization: org.id, spaces: [space.id, space.id] };
      const res = await org.owner.client
        .post('/v1/user/tokens', { label: 'docs bot', scopes })
        .expect(201);
      expect(res.body.scopes).toEqual({
        access: 'read-only',
        organization: org.id,
        spaces: [space.id],
      });
      const list = await org.owner.client.get('/v1/user/tokens').expect(200);
      const listed = (list.body.items as { id: string; scopes: unknown }[]).find(
        (token) => token.id === res.body.id,
      );
      expect(listed?.scopes).toEqual(res.body.scopes);
      // A token without scopes reaches all its user does.
      const plain = await org.owner.client.post('/v1/user/tokens', {}).expect(201);
      expect(plain.body.scopes).toEqual({ access: 'read-write' });
    });

    it.each([
      ['an unknown access', { access: 'admin' }, /access must be one of/],
      ['spaces without an organization', { spaces: ['x'] }, /need scopes.organization/],
      ['an empty list of spaces', { organization: 'ORG', spaces: [] }, /spaces must contain/],
      ['null sites', { organization: 'ORG', sites: null }, /sites should not be null/],
      ['an organization not the user’s', { organization: 'OTHER' }, /no organization/],
      [
        'a space of another organization',
        { organization: 'ORG', spaces: ['OTHER_SPACE'] },
        /no space/,
      ],
      ['an unknown site', { organization: 'ORG', sites: ['nosuchsite'] }, /no site nosuchsite/],
    ])('refuses %s with 400', async (_label, raw, message) => {
      const org = await t.factories.organization();
      const other = await t.factories.organization();
      const otherSpace = await t.factories.space(other);
      const scopes = JSON.parse(
        JSON.stringify(raw)
          .replace('OTHER_SPACE', otherSpace.id)
          .replace('ORG', org.id)
          .replace('OTHER', other.id),
      ) as Record<string, unknown>;
      const res = await org.owner.client
        .post('/v1/user/tokens', { label: 'bad', scopes })
        .expect(400);
      expect(res.body).toEqual({ error: { code: 400, message: expect.stringMatching(message) } });
      // Nothing was made.
      const list = await org.owner.client.get('/v1/user/tokens').expect(200);
      expect(list.body.items.map((token: { label?: string }) => token.label)).not.toContain('bad');
    });

    it('lets the administrator make a scoped token for a user', async () => {
      const org = await t.factories.organization();
      const res = await t
        .as(TEST_ADMIN_TOKEN)
        .post(`/v1/admin/users/${org.owner.id}/tokens`, {
          label: 'reader',
          scopes: { access: 'read-only' },
        })
        .expect(201);
      expect(res.body.scopes).toEqual({ access: 'read-only' });
      const reader = t.as(res.body.token as string);
      await reader.get(`/v1/orgs/${org.id}`).expect(200);
      await reader.patch(`/v1/orgs/${org.id}`, { title: 'Renamed' }).expect(403);
    });
  });

  describe('read-only', () => {
    it('reads, searches, and makes no change anywhere', async () => {
      const org = await t.factories.organization();
      const space = await t.factories.space(org, { title: 'Kept' });
      const site = await t.factories.site(org);
      const reader = await scoped(org.owner, { access: 'read-only' });

      const read = await reader.get(`/v1/spaces/${space.id}`).expect(200);
      expectConforms(read, 'getSpaceById');
      await reader
        .post(`/v1/orgs/${org.id}/sites/${site.id}/search`, { query: 'x', mode: 'all' })
        .expect(200);

      const writes: [string, () => Promise<{ body: { error: { message: string } } }>][] = [
        ['PATCH', () => reader.patch(`/v1/spaces/${space.id}`, { title: 'Changed' }).expect(403)],
        ['POST', () => reader.post(`/v1/orgs/${org.id}/spaces`, { title: 'New' }).expect(403)],
        ['DELETE', () => reader.delete(`/v1/spaces/${space.id}`).expect(403)],
        ['PUT', () => reader.put(`/v1/orgs/${org.id}/teams`, { title: 'Team' }).expect(403)],
        ['tokens', () => reader.post('/v1/user/tokens', { label: 'wider' }).expect(403)],
      ];
      for (const [, write] of writes) refusedFor(/read-only/)(await write());
      const after = await org.owner.client.get(`/v1/spaces/${space.id}`).expect(200);
      expect(after.body.title).toBe('Kept');
      const spaces = await org.owner.client.get(`/v1/orgs/${org.id}/spaces`).expect(200);
      expect(spaces.body.items).toHaveLength(1);
    });
  });

  describe('limited to one organization', () => {
    let org: TestOrganization;
    let elsewhere: TestOrganization;
    let token: Client;
    beforeAll(async () => {
      org = await t.factories.organization();
      elsewhere = await t.factories.organization({ owner: org.owner });
      token = await scoped(org.owner, { organization: org.id });
    });

    it('works in its organization', async () => {
      const created = await token.post(`/v1/orgs/${org.id}/spaces`, { title: 'Ours' }).expect(201);
      expectConforms(created, 'createSpace');
      await token.patch(`/v1/spaces/${created.body.id}`, { title: 'Still ours' }).expect(200);
      const me = await token.get('/v1/user').expect(200);
      expect(me.body.id).toBe(org.owner.id);
    });

    it('lists only its organization', async () => {
      const list = await token.get('/v1/orgs').expect(200);
      expectConforms(list, 'listOrganizationsForAuthenticatedUser');
      expect(list.body.items.map((o: { id: string }) => o.id)).toEqual([org.id]);
      const all = await org.owner.client.get('/v1/orgs').expect(200);
      expect(all.body.items.map((o: { id: string }) => o.id).sort()).toEqual(
        [org.id, elsewhere.id].sort(),
      );
    });

    it('sees nothing of its user’s other organizations', async () => {
      const space = await t.factories.space(elsewhere);
      refusedFor(/Organization not found/)(await token.get(`/v1/orgs/${elsewhere.id}`).expect(404));
      refusedFor(/Space not found/)(await token.get(`/v1/spaces/${space.id}`).expect(404));
      await token.patch(`/v1/spaces/${space.id}`, { title: 'Theirs' }).expect(404);
      // Deleting what it does not see does nothing, as for any caller who does not see it.
      await token.delete(`/v1/spaces/${space.id}`).expect(204);
      await org.owner.client.get(`/v1/spaces/${space.id}`).expect(200);
    });

    it('cannot reach the account, other organizations, or take content out', async () => {
      const space = await t.factories.space(org);
      refusedFor(/one organization/)(await token.post('/v1/orgs', { title: 'More' }).expect(403));
      refusedFor(/one organization/)(await token.post('/v1/user/tokens', {}).expect(403));
      refusedFor(/one organization/)(await token.get('/v1/user/tokens').expect(403));
      refusedFor(/another/)(
        await token
          .post(`/v1/spaces/${space.id}/transfer`, { organization: elsewhere.id })
          .expect(403),
      );
      const after = await org.owner.client.get(`/v1/spaces/${space.id}`).expect(200);
      expect(after.body.organization).toBe(org.id);
    });
  });

  describe('limited to some spaces', () => {
    let org: TestOrganization;
    let mine: { id: string };
    let theirs: { id: string };
    let token: Client;
    beforeAll(async () => {
      org = await t.factories.organization();
      mine = await t.factories.space(org, { title: 'Mine' });
      theirs = await t.factories.space(org, { title: 'Theirs' });
      token = await scoped(org.owner, { organization: org.id, spaces: [mine.id] });
    });

    it('reads and writes its spaces and what they hold', async () => {
      const renamed = await token.patch(`/v1/spaces/${mine.id}`, { title: 'Mine!' }).expect(200);
      expectConforms(renamed, 'updateSpaceById');
      expect(renamed.body.title).toBe('Mine!');
      const cr = await token
        .post(`/v1/spaces/${mine.id}/change-requests`, { subject: 'Edit' })
        .expect(201);
      await token.get(`/v1/spaces/${mine.id}/change-requests/${cr.body.id as string}`).expect(200);
      const comment = await token
        .post(`/v1/spaces/${mine.id}/comments`, { body: { markdown: 'Hi' } })
        .expect(201);
      await token.get(`/v1/spaces/${mine.id}/comments/${comment.body.id as string}`).expect(200);
      await token.get(`/v1/spaces/${mine.id}/content`).expect(200);
    });

    it('sees no other space, and nothing of the organization around it', async () => {
      refusedFor(/Space not found/)(await token.get(`/v1/spaces/${theirs.id}`).expect(404));
      await token.patch(`/v1/spaces/${theirs.id}`, { title: 'No' }).expect(404);
      await token.get(`/v1/spaces/${theirs.id}/change-requests`).expect(404);
      refusedFor(/outside them/)(await token.get(`/v1/orgs/${org.id}`).expect(403));
      await token.get(`/v1/orgs/${org.id}/spaces`).expect(403);
      await token.post(`/v1/orgs/${org.id}/spaces`, { title: 'New' }).expect(403);
      await token.get(`/v1/orgs/${org.id}/members`).expect(403);
      // Its user still sees everything.
      await org.owner.client.get(`/v1/spaces/${theirs.id}`).expect(200);
    });

    it('neither copies nor moves its space elsewhere', async () => {
      refusedFor(/elsewhere/)(await token.post(`/v1/spaces/${mine.id}/duplicate`).expect(403));
      await token.post(`/v1/spaces/${mine.id}/move`, { parent: null }).expect(403);
      const spaces = await org.owner.client.get(`/v1/orgs/${org.id}/spaces`).expect(200);
      expect(spaces.body.items).toHaveLength(2);
    });

    it('never does more than its user may', async () => {
      const reader = await t.factories.member(org, 'read');
      const token = await scoped(reader, { organization: org.id, spaces: [mine.id] });
      await token.get(`/v1/spaces/${mine.id}`).expect(200);
      refusedFor(/admin role/)(
        await token.patch(`/v1/spaces/${mine.id}`, { title: 'Nope' }).expect(403),
      );
    });
  });

  describe('limited to some sites', () => {
    it('reaches its sites and what they hold, no other site, and shows no new space', async () => {
      const org = await t.factories.organization();
      const space = await t.factories.space(org);
      const site = await t.factories.site(org, { title: 'Ours' });
      const other = await t.factories.site(org, { title: 'Theirs' });
      const token = await scoped(org.owner, { organization: org.id, sites: [site.id] });

      const renamed = await token
        .patch(`/v1/orgs/${org.id}/sites/${site.id}`, { title: 'Ours!' })
        .expect(200);
      expectConforms(renamed, 'updateSiteById');
      const link = await token
        .post(`/v1/orgs/${org.id}/sites/${site.id}/share-links`, { name: 'Partners' })
        .expect(201);
      await token
        .patch(`/v1/orgs/${org.id}/sites/${site.id}/share-links/${link.body.id as string}`, {
          name: 'Friends',
        })
        .expect(200);
      refusedFor(/Site not found/)(
        await token.get(`/v1/orgs/${org.id}/sites/${other.id}`).expect(404),
      );
      await token.get(`/v1/orgs/${org.id}/sites/${other.id}/share-links`).expect(404);
      await token.get(`/v1/spaces/${space.id}`).expect(404);
      refusedFor(/elsewhere/)(
        await token
          .post(`/v1/orgs/${org.id}/sites/${site.id}/site-spaces`, { spaceId: space.id })
          .expect(403),
      );
      const siteSpaces = await org.owner.client
        .get(`/v1/orgs/${org.id}/sites/${site.id}/site-spaces`)
        .expect(200);
      expect(siteSpaces.body.items).toHaveLength(0);
    });
  });

  it('stops at once when revoked, and a scoped token cannot revoke others', async () => {
    const org = await t.factories.organization();
    const token = await scoped(org.owner, { organization: org.id });
    const plain = await org.owner.client.post('/v1/user/tokens', { label: 'plain' }).expect(201);
    await token.delete(`/v1/user/tokens/${plain.body.id as string}`).expect(403);
    await t
      .as(plain.body.token as string)
      .get('/v1/user')
      .expect(200);
  });
});
