import { createTestApp, TestApp } from './helpers/app';
import type { Client } from './helpers/client';
import { expectConforms, GITBOOK_0202 } from './helpers/conformance';
import { invite } from './helpers/content-grants';
import type { TestOrganization } from './helpers/factories';

/**
 * Installations of integrations (GitBook's integration platform, 0.202.0): on an organization,
 * and below that installation on its spaces and sites; their configurations checked against the
 * integration's schemas, their statuses, who may install, and what a space or site has
 * installed. Another organization's caller gets 404, as everywhere.
 */
describe('integrations: installations', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Published sites at http://docs.localhost/<organization>/<site>: the reader token's lookup.
    t = await createTestApp({ SITES_URL: 'http://docs.localhost/{organization}' });
  });
  afterAll(() => t.close());

  let count = 0;
  const uniqueName = () => `inst-${Date.now().toString(36)}-${(count += 1)}`;

  /** What `gitbook publish` sends: an account schema requiring `api_key`, a space one requiring `project`. */
  function manifest(org: TestOrganization, overrides: Record<string, unknown> = {}) {
    return {
      runtime: 'v2',
      title: 'Probe',
      description: 'An integration of the tests',
      scopes: ['space:content:read', 'site:script:inject', 'site:script:cookies'],
      categories: ['other'],
      blocks: [{ id: 'probe-block', title: 'Probe block' }],
      configurations: {
        account: {
          properties: {
            api_key: { title: 'API key', type: 'string' },
            region: { title: 'Region', type: 'string', enum: ['eu', 'us'] },
            retries: { title: 'Retries', type: 'number' },
          },
          required: ['api_key'],
        },
        space: {
          properties: { project: { title: 'Project', type: 'string' } },
          required: ['project'],
        },
        site: { componentId: 'site-config' },
      },
      visibility: 'private',
      target: 'all',
      organization: org.id,
      contentSecurityPolicy: { 'script-src': "'self' https://probe.example.com" },
      script: 'export default {};',
      ...overrides,
    };
  }

  /** A private integration of `org`, published by its owner; or by the administrator when not private. */
  async function published(org: TestOrganization, overrides: Record<string, unknown> = {}) {
    const name = uniqueName();
    const body = manifest(org, overrides);
    const client = body.visibility === 'private' ? org.owner.client : t.admin;
    await client.post(`/v1/integrations/${name}`, body).expect(200);
    return name;
  }

  const base = (name: string) => `/v1/integrations/${name}/installations`;

  /** `name` installed on `org` by its owner: the installation's id. */
  async function installed(org: TestOrganization, name: string): Promise<string> {
    const res = await org.owner.client.post(base(name), { organization: org.id }).expect(201);
    return res.body.id as string;
  }

  /** An organization with the integration installed and configured (active), a space and a site. */
  async function setup(overrides: Record<string, unknown> = {}) {
    const org = await t.factories.organization();
    const name = await published(org, overrides);
    const installation = await installed(org, name);
    await org.owner.client
      .patch(`${base(name)}/${installation}`, { configuration: { api_key: 'k' } })
      .expect(200);
    const space = await t.factories.space(org, { title: 'Guide' });
    const site = await t.factories.site(org);
    const at = `${base(name)}/${installation}`;
    return { org, name, installation, space: space.id, site: site.id, at };
  }

  async function onSpace(ctx: Awaited<ReturnType<typeof setup>>, project?: string) {
    await ctx.org.owner.client.post(`${ctx.at}/spaces`, { space: ctx.space }).expect(201);
    if (project) {
      await ctx.org.owner.client
        .patch(`${ctx.at}/spaces/${ctx.space}`, { configuration: { project } })
        .expect(200);
    }
  }

  async function onSite(ctx: Awaited<ReturnType<typeof setup>>) {
    await ctx.org.owner.client.post(`${ctx.at}/sites`, { siteId: ctx.site }).expect(201);
  }

  const expectError = (res: { status: number; body: unknown }, code: number, message = '') =>
    expect(res.body).toEqual({
      error: { code, message: expect.stringContaining(message) as string },
    });

  /** The admin of another organization: sees nothing of this one. */
  const stranger = async (): Promise<Client> => (await t.factories.organization()).owner.client;

  describe('installIntegration', () => {
    it('installs an integration on an organization, pending until its required configuration is given', async () => {
      const org = await t.factories.organization();
      const name = await published(org);
      const res = await org.owner.client.post(base(name), { organization: org.id }).expect(201);
      expectConforms(res, 'installIntegration', GITBOOK_0202);
      const id = res.body.id as string;
      expect(res.headers.location).toMatch(
        new RegExp(`/v1/integrations/${name}/installations/${id}$`),
      );
      expect(res.body).toMatchObject({
        id,
        status: 'pending',
        space_selection: 'selected',
        site_selection: 'selected',
        spaces: 0,
        configuration: {},
        externalIds: [],
        target: { organization: org.id },
        urls: {
          location: res.headers.location as string,
          publicEndpoint: `${res.headers.location as string}/integration`,
          publicContentEndpoint: `${res.headers.location as string}/integration`,
          app: expect.stringMatching(new RegExp(`/o/${org.id}/integrations/${name}$`)) as string,
        },
      });
      // A second one on the same organization is refused.
      expectError(
        await org.owner.client.post(base(name), { organization: org.id }).expect(409),
        409,
        'already installed',
      );
    });

    it('installs a public integration on any organization, active at once when it requires nothing', async () => {
      const owner = await t.factories.organization();
      const other = await t.factories.organization();
      const name = await published(owner, { visibility: 'public', configurations: {} });
      const res = await other.owner.client.post(base(name), { organization: other.id }).expect(201);
      expectConforms(res, 'installIntegration', GITBOOK_0202);
      expect(res.body).toMatchObject({ status: 'active', target: { organization: other.id } });
    });

    it('answers 400 for a body without an organization', async () => {
      const org = await t.factories.organization();
      const name = await published(org);
      expectError(await org.owner.client.post(base(name), {}).expect(400), 400, 'organization');
    });

    it('answers 404 for an unknown integration or organization, and to a caller of another organization', async () => {
      const org = await t.factories.organization();
      const name = await published(org);
      expectError(
        await org.owner.client.post(base(uniqueName()), { organization: org.id }).expect(404),
        404,
        'Integration',
      );
      expectError(
        await org.owner.client.post(base(name), { organization: 'nope' }).expect(404),
        404,
        'Organization',
      );
      // The private integration is not visible to another organization's admin.
      await (await stranger()).post(base(name), { organization: org.id }).expect(404);
    });

    it("answers 403 below admin, and for a private integration in another of the caller's organizations", async () => {
      const org = await t.factories.organization();
      const name = await published(org);
      const creator = await t.factories.asMember(org, 'create');
      expectError(
        await creator.post(base(name), { organization: org.id }).expect(403),
        403,
        'admins',
      );
      const elsewhere = await t.factories.organization({ owner: org.owner });
      expectError(
        await org.owner.client.post(base(name), { organization: elsewhere.id }).expect(403),
        403,
        'private',
      );
    });
  });

  describe('listIntegrationInstallations', () => {
    it("lists the installations in the caller's organizations it administers, by externalId too", async () => {
      const owner = await t.factories.organization();
      const name = await published(owner, { visibility: 'public' });
      const mine = await installed(owner, name);
      const other = await t.factories.organization();
      await installed(other, name);
      await owner.owner.client
        .patch(`${base(name)}/${mine}`, { externalIds: ['ext-1'] })
        .expect(200);
      const res = await owner.owner.client.get(base(name)).expect(200);
      expectConforms(res, 'listIntegrationInstallations', GITBOOK_0202);
      // The other organization's installation is not the owner's to see.
      expect(res.body.items.map((item: { id: string }) => item.id)).toEqual([mine]);
      expect(res.body.count).toBe(1);
      const filtered = await owner.owner.client.get(`${base(name)}?externalId=ext-2`).expect(200);
      expect(filtered.body.items).toEqual([]);
      const found = await owner.owner.client.get(`${base(name)}?externalId=ext-1`).expect(200);
      expect(found.body.items).toHaveLength(1);
    });

    it('lists nothing to a member below admin', async () => {
      const ctx = await setup();
      const reader = await t.factories.asMember(ctx.org, 'read');
      const res = await reader.get(base(ctx.name)).expect(200);
      expect(res.body.items).toEqual([]);
    });

    it('answers 400 for a bad limit, 404 for an unknown integration and to another organization', async () => {
      const ctx = await setup();
      expectError(
        await ctx.org.owner.client.get(`${base(ctx.name)}?limit=0`).expect(400),
        400,
        'limit',
      );
      await ctx.org.owner.client.get(base(uniqueName())).expect(404);
      await (await stranger()).get(base(ctx.name)).expect(404);
    });
  });

  describe('getIntegrationInstallationById', () => {
    it('answers the installation with its count of spaces', async () => {
      const ctx = await setup();
      await onSpace(ctx);
      const res = await ctx.org.owner.client.get(ctx.at).expect(200);
      expectConforms(res, 'getIntegrationInstallationById', GITBOOK_0202);
      expect(res.body).toMatchObject({
        id: ctx.installation,
        status: 'active',
        spaces: 1,
        configuration: { api_key: 'k' },
      });
    });

    it('answers 404 for an unknown installation or integration, to another organization, and 403 below admin', async () => {
      const ctx = await setup();
      expectError(
        await ctx.org.owner.client.get(`${base(ctx.name)}/nope`).expect(404),
        404,
        'Integration installation',
      );
      await ctx.org.owner.client.get(`${base(uniqueName())}/${ctx.installation}`).expect(404);
      await (await stranger()).get(ctx.at).expect(404);
      const editor = await t.factories.asMember(ctx.org, 'edit');
      expectError(await editor.get(ctx.at).expect(403), 403, 'admins');
    });
  });

  describe('updateIntegrationInstallation', () => {
    it('changes the fields given, active once the required configuration is given', async () => {
      const org = await t.factories.organization();
      const name = await published(org);
      const id = await installed(org, name);
      const res = await org.owner.client
        .patch(`${base(name)}/${id}`, {
          configuration: { api_key: 'secret', region: 'eu', retries: 3 },
          externalIds: ['a', 'b'],
          space_selection: 'all',
        })
        .expect(200);
      expectConforms(res, 'updateIntegrationInstallation', GITBOOK_0202);
      expect(res.body).toMatchObject({
        status: 'active',
        configuration: { api_key: 'secret', region: 'eu', retries: 3 },
        externalIds: ['a', 'b'],
        space_selection: 'all',
        site_selection: 'selected',
      });
      const again = await org.owner.client.get(`${base(name)}/${id}`).expect(200);
      expect(again.body).toMatchObject({ space_selection: 'all', externalIds: ['a', 'b'] });
      // A configuration replaces the one before: without api_key, pending again.
      const replaced = await org.owner.client
        .patch(`${base(name)}/${id}`, { configuration: { region: 'us' } })
        .expect(200);
      expect(replaced.body).toMatchObject({ status: 'pending', configuration: { region: 'us' } });
    });

    it.each([
      ['an unknown property', { configuration: { colour: 'red' } }, 'configuration.colour'],
      [
        'a value of the wrong type',
        { configuration: { retries: 'three' } },
        'configuration.retries',
      ],
      ['a value not in the enum', { configuration: { region: 'mars' } }, 'configuration.region'],
      ['too many external IDs', { externalIds: ['1', '2', '3', '4', '5', '6'] }, 'externalIds'],
      ['an unknown selection', { site_selection: 'some' }, 'site_selection'],
      ['a null configuration', { configuration: null }, 'configuration'],
    ])('answers 400 for %s', async (_, body, field) => {
      const ctx = await setup();
      expectError(await ctx.org.owner.client.patch(ctx.at, body).expect(400), 400, field);
    });

    it('answers 404 for an unknown installation and to another organization, 403 below admin', async () => {
      const ctx = await setup();
      await ctx.org.owner.client.patch(`${base(ctx.name)}/nope`, { externalIds: [] }).expect(404);
      await (await stranger()).patch(ctx.at, { externalIds: [] }).expect(404);
      const creator = await t.factories.asMember(ctx.org, 'create');
      expectError(await creator.patch(ctx.at, { externalIds: [] }).expect(403), 403, 'admins');
    });
  });

  describe('uninstallIntegration', () => {
    it('uninstalls it, from its spaces and sites too (205), then 204', async () => {
      const ctx = await setup();
      await onSpace(ctx);
      await onSite(ctx);
      const res = await ctx.org.owner.client.delete(ctx.at).expect(205);
      expectConforms(res, 'uninstallIntegration', GITBOOK_0202);
      await ctx.org.owner.client.get(ctx.at).expect(404);
      const spaces = await ctx.org.owner.client
        .get(`/v1/spaces/${ctx.space}/integrations`)
        .expect(200);
      expect(spaces.body.items).toEqual([]);
      const sites = await ctx.org.owner.client
        .get(`/v1/orgs/${ctx.org.id}/sites/${ctx.site}/integrations`)
        .expect(200);
      expect(sites.body.items).toEqual([]);
      await ctx.org.owner.client.delete(ctx.at).expect(204);
      // It can be installed again.
      await ctx.org.owner.client.post(base(ctx.name), { organization: ctx.org.id }).expect(201);
    });

    it('goes when its integration is unpublished', async () => {
      const ctx = await setup();
      await ctx.org.owner.client.delete(`/v1/integrations/${ctx.name}`).expect(205);
      const res = await ctx.org.owner.client
        .get(`/v1/orgs/${ctx.org.id}/installations`)
        .expect(200);
      expect(res.body.items).toEqual([]);
    });

    it('answers 204 for an installation the caller does not see, 404 for an integration it does not see, 403 below admin', async () => {
      const ctx = await setup();
      // Another organization's admin does not see the private integration: 404.
      await (await stranger()).delete(ctx.at).expect(404);
      await ctx.org.owner.client.delete(`${base(ctx.name)}/nope`).expect(204);
      // A public integration's installation in another organization is absent to them: 204.
      const open = await setup({ visibility: 'public' });
      await (await stranger()).delete(open.at).expect(204);
      await open.org.owner.client.get(open.at).expect(200);
      await ctx.org.owner.client.delete(`${base(uniqueName())}/${ctx.installation}`).expect(404);
      const editor = await t.factories.asMember(ctx.org, 'edit');
      expectError(await editor.delete(ctx.at).expect(403), 403, 'admins');
      await ctx.org.owner.client.get(ctx.at).expect(200);
    });
  });

  describe('space installations', () => {
    it('installIntegrationOnSpace: installs it on a space, pending until its space configuration is given', async () => {
      const ctx = await setup();
      const res = await ctx.org.owner.client
        .post(`${ctx.at}/spaces`, { space: ctx.space })
        .expect(201);
      expectConforms(res, 'installIntegrationOnSpace', GITBOOK_0202);
      const location = `${ctx.at}/spaces/${ctx.space}`;
      expect(res.headers.location).toMatch(new RegExp(`${location}$`));
      expect(res.body).toMatchObject({
        integration: ctx.name,
        installation: ctx.installation,
        space: ctx.space,
        status: 'pending',
        configuration: {},
        externalIds: [],
        urls: { location: res.headers.location as string },
      });
      expectError(
        await ctx.org.owner.client.post(`${ctx.at}/spaces`, { space: ctx.space }).expect(409),
        409,
        'already installed',
      );
      const extended = await ctx.org.owner.client
        .post(`${ctx.at}/spaces?extended=true`, {
          space: (await t.factories.space(ctx.org, { title: 'Other' })).id,
        })
        .expect(201);
      expectConforms(extended, 'installIntegrationOnSpace', GITBOOK_0202);
      expect(extended.body.space).toMatchObject({ object: 'space', title: 'Other' });
    });

    it("installIntegrationOnSpace: lets a space's admin install it, 403 to its editors and to guests", async () => {
      const ctx = await setup();
      const editor = await t.factories.asMember(ctx.org, 'edit');
      expectError(
        await editor.post(`${ctx.at}/spaces`, { space: ctx.space }).expect(403),
        403,
        "space's admins",
      );
      // An editor made admin of the space installs it there.
      const admin = await t.factories.member(ctx.org, 'edit');
      await invite(ctx.org.owner.client, 'space', ctx.space, { role: 'admin', users: [admin.id] });
      await admin.client.post(`${ctx.at}/spaces`, { space: ctx.space }).expect(201);
      await admin.client.patch(`${ctx.at}/spaces/${ctx.space}`, { externalIds: ['x'] }).expect(200);
      // A guest holds no role in the organization, even as the space's admin.
      const guest = await t.factories.member(ctx.org, null);
      await invite(ctx.org.owner.client, 'space', ctx.space, { role: 'admin', users: [guest.id] });
      expectError(
        await guest.client.post(`${ctx.at}/spaces`, { space: ctx.space }).expect(403),
        403,
        'with a role',
      );
      await guest.client.get(`${ctx.at}/spaces/${ctx.space}`).expect(403);
    });

    it('installIntegrationOnSpace: 400 for no space or an integration not for spaces, 404 for an unknown or foreign space and to another organization', async () => {
      const ctx = await setup({ target: 'site' });
      expectError(
        await ctx.org.owner.client.post(`${ctx.at}/spaces`, {}).expect(400),
        400,
        'space',
      );
      expectError(
        await ctx.org.owner.client.post(`${ctx.at}/spaces`, { space: ctx.space }).expect(400),
        400,
        'sites only',
      );
      expectError(
        await ctx.org.owner.client.post(`${ctx.at}/spaces`, { space: 'nope' }).expect(404),
        404,
        'Space',
      );
      const elsewhere = await t.factories.organization({ owner: ctx.org.owner });
      const foreign = await t.factories.space(elsewhere);
      await ctx.org.owner.client.post(`${ctx.at}/spaces`, { space: foreign.id }).expect(404);
      await (await stranger()).post(`${ctx.at}/spaces`, { space: ctx.space }).expect(404);
      await ctx.org.owner.client
        .post(`${base(ctx.name)}/nope/spaces`, { space: ctx.space })
        .expect(404);
    });

    it('getIntegrationSpaceInstallation and updateIntegrationSpaceInstallation: active once configured', async () => {
      const ctx = await setup();
      await onSpace(ctx);
      const at = `${ctx.at}/spaces/${ctx.space}`;
      const got = await ctx.org.owner.client.get(at).expect(200);
      expectConforms(got, 'getIntegrationSpaceInstallation', GITBOOK_0202);
      expect(got.body).toMatchObject({ space: ctx.space, status: 'pending' });
      const updated = await ctx.org.owner.client
        .patch(at, { configuration: { project: 'docs' }, externalIds: ['p-1'] })
        .expect(200);
      expectConforms(updated, 'updateIntegrationSpaceInstallation', GITBOOK_0202);
      expect(updated.body).toMatchObject({
        status: 'active',
        configuration: { project: 'docs' },
        externalIds: ['p-1'],
      });
      const extended = await ctx.org.owner.client.get(`${at}?extended=true`).expect(200);
      expectConforms(extended, 'getIntegrationSpaceInstallation', GITBOOK_0202);
      expect(extended.body.space).toMatchObject({ object: 'space', id: ctx.space });
      // The installation's own configuration going incomplete makes it pending too.
      await ctx.org.owner.client.patch(ctx.at, { configuration: {} }).expect(200);
      expect((await ctx.org.owner.client.get(at).expect(200)).body.status).toBe('pending');
    });

    it('get/update a space installation: 400, 404 and 403', async () => {
      const ctx = await setup();
      await onSpace(ctx);
      const at = `${ctx.at}/spaces/${ctx.space}`;
      expectError(
        await ctx.org.owner.client.patch(at, { configuration: { project: 3 } }).expect(400),
        400,
        'configuration.project',
      );
      expectError(
        await ctx.org.owner.client.get(`${at}?extended=maybe`).expect(400),
        400,
        'extended',
      );
      const other = await t.factories.space(ctx.org);
      await ctx.org.owner.client.get(`${ctx.at}/spaces/${other.id}`).expect(404);
      await ctx.org.owner.client.get(`${base(ctx.name)}/nope/spaces/${ctx.space}`).expect(404);
      const outsider = await stranger();
      await outsider.get(at).expect(404);
      await outsider.patch(at, { externalIds: [] }).expect(404);
      const editor = await t.factories.asMember(ctx.org, 'edit');
      await editor.get(at).expect(403);
      await editor.patch(at, { externalIds: [] }).expect(403);
    });

    it('uninstallIntegrationFromSpace: 205, then 204; 404 to another organization; 403 below admin', async () => {
      const ctx = await setup();
      await onSpace(ctx);
      const at = `${ctx.at}/spaces/${ctx.space}`;
      await (await stranger()).delete(at).expect(404);
      const editor = await t.factories.asMember(ctx.org, 'edit');
      await editor.delete(at).expect(403);
      const res = await ctx.org.owner.client.delete(at).expect(205);
      expectConforms(res, 'uninstallIntegrationFromSpace', GITBOOK_0202);
      await ctx.org.owner.client.get(at).expect(404);
      await ctx.org.owner.client.delete(at).expect(204);
      expect((await ctx.org.owner.client.get(ctx.at).expect(200)).body.spaces).toBe(0);
    });

    it('listIntegrationInstallationSpaces: the spaces it is installed on, extended or not', async () => {
      const ctx = await setup();
      await onSpace(ctx, 'docs');
      const res = await ctx.org.owner.client.get(`${ctx.at}/spaces`).expect(200);
      expectConforms(res, 'listIntegrationInstallationSpaces', GITBOOK_0202);
      expect(res.body).toMatchObject({ count: 1, items: [{ space: ctx.space, status: 'active' }] });
      const extended = await ctx.org.owner.client.get(`${ctx.at}/spaces?extended=true`).expect(200);
      expectConforms(extended, 'listIntegrationInstallationSpaces', GITBOOK_0202);
      expect(extended.body.items[0].space).toMatchObject({ object: 'space', id: ctx.space });
      expectError(
        await ctx.org.owner.client.get(`${ctx.at}/spaces?limit=x`).expect(400),
        400,
        'limit',
      );
      await ctx.org.owner.client.get(`${base(ctx.name)}/nope/spaces`).expect(404);
      await (await stranger()).get(`${ctx.at}/spaces`).expect(404);
      await (await t.factories.asMember(ctx.org, 'create')).get(`${ctx.at}/spaces`).expect(403);
    });

    it('listIntegrationSpaceInstallations: those of the integration the caller administers, by externalId', async () => {
      const ctx = await setup();
      await onSpace(ctx);
      await ctx.org.owner.client
        .patch(`${ctx.at}/spaces/${ctx.space}`, { externalIds: ['proj-9'] })
        .expect(200);
      const at = `/v1/integrations/${ctx.name}/spaces`;
      const res = await ctx.org.owner.client.get(`${at}?externalId=proj-9`).expect(200);
      expectConforms(res, 'listIntegrationSpaceInstallations', GITBOOK_0202);
      expect(res.body.items).toEqual([
        expect.objectContaining({ space: ctx.space, installation: ctx.installation }),
      ]);
      expect(
        (await ctx.org.owner.client.get(`${at}?externalId=none`).expect(200)).body.items,
      ).toEqual([]);
      const reader = await t.factories.asMember(ctx.org, 'read');
      expect((await reader.get(at).expect(200)).body.items).toEqual([]);
      expectError(await ctx.org.owner.client.get(`${at}?extended=1`).expect(400), 400, 'extended');
      await ctx.org.owner.client.get(`/v1/integrations/${uniqueName()}/spaces`).expect(404);
      await (await stranger()).get(at).expect(404);
    });
  });

  describe('site installations', () => {
    it('installIntegrationOnSite: installs it on a site; 409 a second time', async () => {
      const ctx = await setup();
      const res = await ctx.org.owner.client
        .post(`${ctx.at}/sites`, { siteId: ctx.site })
        .expect(201);
      expectConforms(res, 'installIntegrationOnSite', GITBOOK_0202);
      expect(res.headers.location).toMatch(new RegExp(`${ctx.at}/sites/${ctx.site}$`));
      // A component's configuration requires nothing: active with its installation.
      expect(res.body).toMatchObject({
        site: ctx.site,
        status: 'active',
        installation: ctx.installation,
      });
      await ctx.org.owner.client.post(`${ctx.at}/sites`, { siteId: ctx.site }).expect(409);
      const other = await t.factories.site(ctx.org, { title: 'Other' });
      const extended = await ctx.org.owner.client
        .post(`${ctx.at}/sites?extended=true`, { siteId: other.id })
        .expect(201);
      expectConforms(extended, 'installIntegrationOnSite', GITBOOK_0202);
      expect(extended.body.site).toMatchObject({ object: 'site', id: other.id });
    });

    it('installIntegrationOnSite: 400, 404 and 403', async () => {
      const ctx = await setup({ target: 'space' });
      expectError(
        await ctx.org.owner.client.post(`${ctx.at}/sites`, {}).expect(400),
        400,
        'siteId',
      );
      expectError(
        await ctx.org.owner.client.post(`${ctx.at}/sites`, { siteId: ctx.site }).expect(400),
        400,
        'spaces only',
      );
      const all = await setup();
      expectError(
        await all.org.owner.client.post(`${all.at}/sites`, { siteId: 'nope' }).expect(404),
        404,
        'Site',
      );
      await (await stranger()).post(`${all.at}/sites`, { siteId: all.site }).expect(404);
      const creator = await t.factories.asMember(all.org, 'create');
      await creator.post(`${all.at}/sites`, { siteId: all.site }).expect(403);
    });

    it('getIntegrationSiteInstallation and updateIntegrationSiteInstallation', async () => {
      const ctx = await setup();
      await onSite(ctx);
      const at = `${ctx.at}/sites/${ctx.site}`;
      const got = await ctx.org.owner.client.get(`${at}?extended=true`).expect(200);
      expectConforms(got, 'getIntegrationSiteInstallation', GITBOOK_0202);
      expect(got.body.site).toMatchObject({ object: 'site', id: ctx.site });
      // A component draws the site configuration: any object is the integration's own.
      const updated = await ctx.org.owner.client
        .patch(at, { configuration: { anything: { nested: true } }, externalIds: ['s-1'] })
        .expect(200);
      expectConforms(updated, 'updateIntegrationSiteInstallation', GITBOOK_0202);
      expect(updated.body).toMatchObject({
        site: ctx.site,
        configuration: { anything: { nested: true } },
        externalIds: ['s-1'],
      });
    });

    it('get/update a site installation: 400, 404 and 403', async () => {
      const ctx = await setup();
      await onSite(ctx);
      const at = `${ctx.at}/sites/${ctx.site}`;
      expectError(
        await ctx.org.owner.client.patch(at, { configuration: 'x' }).expect(400),
        400,
        'configuration',
      );
      await ctx.org.owner.client.get(`${ctx.at}/sites/nope`).expect(404);
      const other = await t.factories.site(ctx.org);
      await ctx.org.owner.client.get(`${ctx.at}/sites/${other.id}`).expect(404);
      const outsider = await stranger();
      await outsider.get(at).expect(404);
      await outsider.patch(at, {}).expect(404);
      const creator = await t.factories.asMember(ctx.org, 'create');
      expectError(await creator.get(at).expect(403), 403, "site's admins");
      await creator.patch(at, {}).expect(403);
    });

    it('uninstallIntegrationFromSite: 205, then 204; 404 to another organization; 403 below admin', async () => {
      const ctx = await setup();
      await onSite(ctx);
      const at = `${ctx.at}/sites/${ctx.site}`;
      await (await stranger()).delete(at).expect(404);
      await (await t.factories.asMember(ctx.org, 'create')).delete(at).expect(403);
      const res = await ctx.org.owner.client.delete(at).expect(205);
      expectConforms(res, 'uninstallIntegrationFromSite', GITBOOK_0202);
      await ctx.org.owner.client.delete(at).expect(204);
    });

    it('listIntegrationInstallationSites: the sites it is installed on', async () => {
      const ctx = await setup();
      await onSite(ctx);
      const res = await ctx.org.owner.client.get(`${ctx.at}/sites?extended=true`).expect(200);
      expectConforms(res, 'listIntegrationInstallationSites', GITBOOK_0202);
      expect(res.body).toMatchObject({ count: 1, items: [{ site: { id: ctx.site } }] });
      expectError(
        await ctx.org.owner.client.get(`${ctx.at}/sites?limit=-1`).expect(400),
        400,
        'limit',
      );
      await ctx.org.owner.client.get(`${base(ctx.name)}/nope/sites`).expect(404);
      await (await stranger()).get(`${ctx.at}/sites`).expect(404);
      await (await t.factories.asMember(ctx.org, 'create')).get(`${ctx.at}/sites`).expect(403);
    });

    it('listIntegrationSiteInstallations: those of the integration the caller administers', async () => {
      const ctx = await setup();
      await onSite(ctx);
      const at = `/v1/integrations/${ctx.name}/sites`;
      const res = await ctx.org.owner.client.get(at).expect(200);
      expectConforms(res, 'listIntegrationSiteInstallations', GITBOOK_0202);
      expect(res.body.items).toEqual([expect.objectContaining({ site: ctx.site })]);
      const reader = await t.factories.asMember(ctx.org, 'read');
      expect((await reader.get(at).expect(200)).body.items).toEqual([]);
      expectError(await ctx.org.owner.client.get(`${at}?limit=big`).expect(400), 400, 'limit');
      await ctx.org.owner.client.get(`/v1/integrations/${uniqueName()}/sites`).expect(404);
      await (await stranger()).get(at).expect(404);
    });
  });

  describe('organization routes', () => {
    it('listOrganizationIntegrations: the integrations installed there, with the filters', async () => {
      const ctx = await setup();
      await published(ctx.org); // not installed
      const reader = await t.factories.asMember(ctx.org, 'read');
      const at = `/v1/orgs/${ctx.org.id}/integrations`;
      const res = await reader.get(at).expect(200);
      expectConforms(res, 'listOrganizationIntegrations', GITBOOK_0202);
      expect(res.body.items.map((item: { name: string }) => item.name)).toEqual([ctx.name]);
      expect(res.body.items[0].permissions).toEqual({ admin: false });
      expect((await reader.get(`${at}?search=zzz`).expect(200)).body.items).toEqual([]);
      expect((await reader.get(`${at}?blocks=false`).expect(200)).body.items).toEqual([]);
      expectError(await reader.get(`${at}?category=nope`).expect(400), 400, 'category');
      await reader.get(`/v1/orgs/nope/integrations`).expect(404);
      await (await stranger()).get(at).expect(404);
      await (await t.factories.asMember(ctx.org, null)).get(at).expect(403);
    });

    it('listOrganizationInstallations: each installation with its integration', async () => {
      const ctx = await setup();
      const at = `/v1/orgs/${ctx.org.id}/installations`;
      const res = await ctx.org.owner.client.get(at).expect(200);
      expectConforms(res, 'listOrganizationInstallations', GITBOOK_0202);
      expect(res.body.items).toEqual([
        expect.objectContaining({
          installation: expect.objectContaining({
            id: ctx.installation,
            status: 'active',
          }) as unknown,
          integration: expect.objectContaining({ name: ctx.name }) as unknown,
        }),
      ]);
      expect(
        (await ctx.org.owner.client.get(`${at}?search=nothing`).expect(200)).body.items,
      ).toEqual([]);
      expectError(await ctx.org.owner.client.get(`${at}?limit=0`).expect(400), 400, 'limit');
      await ctx.org.owner.client.get(`/v1/orgs/nope/installations`).expect(404);
      await (await stranger()).get(at).expect(404);
      await (await t.factories.asMember(ctx.org, 'create')).get(at).expect(403);
    });

    it('getOrganizationIntegrationStatus: the installation status, 404 when not installed', async () => {
      const org = await t.factories.organization();
      const name = await published(org);
      const at = `/v1/orgs/${org.id}/integrations/${name}/installation_status`;
      expectError(await org.owner.client.get(at).expect(404), 404, 'Integration installation');
      const id = await installed(org, name);
      const reader = await t.factories.asMember(org, 'read');
      const pending = await reader.get(at).expect(200);
      expectConforms(pending, 'getOrganizationIntegrationStatus', GITBOOK_0202);
      expect(pending.body).toEqual({ status: 'pending' });
      await org.owner.client
        .patch(`${base(name)}/${id}`, { configuration: { api_key: 'k' } })
        .expect(200);
      expect((await reader.get(at).expect(200)).body).toEqual({ status: 'active' });
      await reader
        .get(`/v1/orgs/${org.id}/integrations/${uniqueName()}/installation_status`)
        .expect(404);
      await (await stranger()).get(at).expect(404);
      await (await t.factories.asMember(org, null)).get(at).expect(403);
    });

    it('listOrganizationIntegrationsStatus: by target, for one space or site', async () => {
      const ctx = await setup();
      await onSpace(ctx);
      await onSite(ctx);
      const at = `/v1/orgs/${ctx.org.id}/integrations/installations-status`;
      const reader = await t.factories.asMember(ctx.org, 'read');
      const own = await reader.get(at).expect(200);
      expectConforms(own, 'listOrganizationIntegrationsStatus', GITBOOK_0202);
      expect(own.body.items).toEqual([
        expect.objectContaining({
          status: 'active',
          target: { type: 'organization', organizationId: ctx.org.id },
          integration: expect.objectContaining({ name: ctx.name }) as unknown,
        }),
      ]);
      const spaces = await reader.get(`${at}?target=space&space=${ctx.space}`).expect(200);
      expectConforms(spaces, 'listOrganizationIntegrationsStatus', GITBOOK_0202);
      expect(spaces.body.items).toEqual([
        expect.objectContaining({
          status: 'pending',
          target: { type: 'space', spaceId: ctx.space },
        }),
      ]);
      const sites = await reader.get(`${at}?target=site`).expect(200);
      expect(sites.body.items).toEqual([
        expect.objectContaining({ status: 'active', target: { type: 'site', siteId: ctx.site } }),
      ]);
      expect((await reader.get(`${at}?target=site&site=other`).expect(200)).body.items).toEqual([]);
      expectError(await reader.get(`${at}?site=${ctx.site}`).expect(400), 400, 'target=site');
      expectError(await reader.get(`${at}?target=page`).expect(400), 400, 'target');
      await reader.get(`/v1/orgs/nope/integrations/installations-status`).expect(404);
      await (await stranger()).get(at).expect(404);
      await (await t.factories.asMember(ctx.org, null)).get(at).expect(403);
    });
  });

  describe('space routes', () => {
    it('listSpaceIntegrations: the integrations installed on the space', async () => {
      const ctx = await setup();
      await onSpace(ctx);
      const reader = await t.factories.asMember(ctx.org, 'read');
      const at = `/v1/spaces/${ctx.space}/integrations`;
      const res = await reader.get(at).expect(200);
      expectConforms(res, 'listSpaceIntegrations', GITBOOK_0202);
      expect(res.body.items.map((item: { name: string }) => item.name)).toEqual([ctx.name]);
      const other = await t.factories.space(ctx.org);
      expect(
        (await reader.get(`/v1/spaces/${other.id}/integrations`).expect(200)).body.items,
      ).toEqual([]);
      expect((await reader.get(`${at}?search=zzz`).expect(200)).body.items).toEqual([]);
      expectError(await reader.get(`${at}?limit=0`).expect(400), 400, 'limit');
      await reader.get(`/v1/spaces/nope/integrations`).expect(404);
      await (await stranger()).get(at).expect(404);
    });

    it('listSpaceIntegrationsBlocks: the blocks of the active installations', async () => {
      const ctx = await setup();
      await onSpace(ctx);
      const at = `/v1/spaces/${ctx.space}/integration-blocks`;
      const reader = await t.factories.asMember(ctx.org, 'read');
      // Pending: its space configuration is missing.
      expect((await reader.get(at).expect(200)).body).toEqual([]);
      await ctx.org.owner.client
        .patch(`${ctx.at}/spaces/${ctx.space}`, { configuration: { project: 'p' } })
        .expect(200);
      const res = await reader.get(at).expect(200);
      expectConforms(res, 'listSpaceIntegrationsBlocks', GITBOOK_0202);
      expect(res.body).toEqual([
        {
          name: ctx.name,
          blocks: [expect.objectContaining({ id: 'probe-block', title: 'Probe block' })],
        },
      ]);
      await reader.get(`/v1/spaces/nope/integration-blocks`).expect(404);
      await (await stranger()).get(at).expect(404);
    });

    it('space routes answer 403 to a guest who holds no role on the space... or 404 when it does not see it', async () => {
      const ctx = await setup();
      // A guest sees no space that was not granted to it: 404, as for anything unseen.
      const guest = await t.factories.asMember(ctx.org, null);
      await guest.get(`/v1/spaces/${ctx.space}/integrations`).expect(404);
      await guest.get(`/v1/spaces/${ctx.space}/integration-blocks`).expect(404);
    });
  });

  describe('site routes', () => {
    it('listSiteIntegrations: the integrations installed on the site', async () => {
      const ctx = await setup();
      await onSite(ctx);
      const reader = await t.factories.asMember(ctx.org, 'read');
      const at = `/v1/orgs/${ctx.org.id}/sites/${ctx.site}/integrations`;
      const res = await reader.get(at).expect(200);
      expectConforms(res, 'listSiteIntegrations', GITBOOK_0202);
      expect(res.body.items.map((item: { name: string }) => item.name)).toEqual([ctx.name]);
      expectError(await reader.get(`${at}?limit=zero`).expect(400), 400, 'limit');
      await reader.get(`/v1/orgs/${ctx.org.id}/sites/nope/integrations`).expect(404);
      await (await stranger()).get(at).expect(404);
      await (await t.factories.asMember(ctx.org, null)).get(at).expect(403);
    });

    it('listSiteIntegrationScripts: the active installations that inject a script, for members and the site reader', async () => {
      const ctx = await setup();
      await onSite(ctx);
      // An integration without the scope adds no script.
      const quiet = await published(ctx.org, {
        scopes: ['site:metadata:read'],
        configurations: {},
      });
      const quietInstallation = await installed(ctx.org, quiet);
      await ctx.org.owner.client
        .post(`${base(quiet)}/${quietInstallation}/sites`, { siteId: ctx.site })
        .expect(201);
      const at = `/v1/orgs/${ctx.org.id}/sites/${ctx.site}/integration-scripts`;
      const reader = await t.factories.asMember(ctx.org, 'read');
      const res = await reader.get(at).expect(200);
      expectConforms(res, 'listSiteIntegrationScripts', GITBOOK_0202);
      expect(res.body).toEqual([
        {
          script: expect.stringMatching(
            new RegExp(
              `/v1/integrations/${ctx.name}/installations/${ctx.installation}/sites/${ctx.site}/script\\.js$`,
            ),
          ) as string,
          cookies: true,
          contentSecurityPolicy: "script-src 'self' https://probe.example.com",
        },
      ]);

      // The published site's renderer reads them with its reader token.
      await t.factories.siteSpace(ctx.org, ctx.site, { spaceId: ctx.space });
      await ctx.org.owner.client
        .post(`/v1/orgs/${ctx.org.id}/sites/${ctx.site}/publish`)
        .expect(200);
      const lookup = await t.anonymous
        .post('/v1/urls/published', { url: `http://docs.localhost/${ctx.org.id}/${ctx.site}` })
        .expect(200);
      const siteReader = t.as(lookup.body.apiToken as string);
      const read = await siteReader.get(at).expect(200);
      expect(read.body).toEqual(res.body);
      // Not another site's.
      const other = await t.factories.site(ctx.org);
      await siteReader
        .get(`/v1/orgs/${ctx.org.id}/sites/${other.id}/integration-scripts`)
        .expect(404);

      // Pending (the installation's configuration incomplete): no script.
      await ctx.org.owner.client.patch(ctx.at, { configuration: {} }).expect(200);
      expect((await reader.get(at).expect(200)).body).toEqual([]);
      await reader.get(`/v1/orgs/${ctx.org.id}/sites/nope/integration-scripts`).expect(404);
      await (await stranger()).get(at).expect(404);
      await (await t.factories.asMember(ctx.org, null)).get(at).expect(403);
    });
  });

  it('records installs, updates and uninstalls in the audit log', async () => {
    const ctx = await setup();
    await onSpace(ctx);
    const res = await ctx.org.owner.client
      .get(`/v1/orgs/${ctx.org.id}/audit-events?target=${ctx.installation}`)
      .expect(200);
    expect(res.body.items.map((item: { action: string }) => item.action)).toEqual(
      expect.arrayContaining([
        'integration.installation.updated',
        'integration.space-installation.created',
      ]),
    );
  });
});
