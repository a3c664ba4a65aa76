import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { IntegrationDispatcher } from '../src/integrations/events/integration-dispatcher';
import { IntegrationsRepository } from '../src/integrations/integrations.repository';
import { createTestApp, TestApp } from './helpers/app';
import { expectConforms, GITBOOK_0202 } from './helpers/conformance';
import type { TestOrganization } from './helpers/factories';

/**
 * Publishing integrations (GitBook's integration platform, 0.202.0): what `gitbook publish`,
 * `gitbook dev` and `gitbook unpublish` call, the catalogue, who may do what. The instance
 * administrator publishes any integration; an organization's admins its private ones.
 */
describe('integrations: publishing', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** A 1×1 PNG. */
  const PNG = Buffer.from(
    '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5d7f1a30000000049454e44ae426082',
    'hex',
  );
  const SCRIPT = 'export default { async fetch() { return new Response("ok"); } };';

  let count = 0;
  const uniqueName = (prefix = 'probe') => `${prefix}-${Date.now().toString(36)}-${(count += 1)}`;

  /** The body `gitbook publish` sends, for `org`. */
  function manifest(org: TestOrganization, overrides: Record<string, unknown> = {}) {
    return {
      runtime: 'v2',
      title: 'Probe',
      icon: PNG.toString('base64'),
      description: 'An integration of the tests',
      summary: '# Probe\nLong form summary.\n',
      scopes: ['space:content:read', 'site:metadata:read'],
      categories: ['other'],
      blocks: [
        {
          id: 'probe-block',
          title: 'Probe block',
          description: 'A block',
          urlUnfurl: ['https://probe.example.com/*'],
          markdown: { codeblock: 'probe', body: 'content' },
        },
      ],
      configurations: {
        account: {
          properties: { api_key: { title: 'API key', type: 'string' } },
          required: ['api_key'],
        },
        space: { componentId: 'probe-config' },
      },
      secrets: { STATIC_SECRET: 'plain-value' },
      visibility: 'private',
      target: 'all',
      organization: org.id,
      externalLinks: [{ label: 'Homepage', url: 'https://example.com' }],
      previewImages: [],
      contentSecurityPolicy: { 'script-src': "'self'" },
      script: SCRIPT,
      ...overrides,
    };
  }

  async function published(org: TestOrganization, overrides: Record<string, unknown> = {}) {
    const name = uniqueName();
    const res = await org.owner.client
      .post(`/v1/integrations/${name}`, manifest(org, overrides))
      .expect(200);
    return { name, body: res.body as Record<string, unknown> };
  }

  const expectError = (res: { status: number; body: unknown }, code: number, message = '') =>
    expect(res.body).toEqual({
      error: { code, message: expect.stringContaining(message) as string },
    });

  describe('publishIntegration', () => {
    it("publishes an organization's private integration, its script kept, its secrets never answered", async () => {
      const org = await t.factories.organization();
      const name = uniqueName();
      const res = await org.owner.client
        .post(`/v1/integrations/${name}`, manifest(org))
        .expect(200);
      expectConforms(res, 'publishIntegration', GITBOOK_0202);
      expect(res.body).toMatchObject({
        object: 'integration',
        name,
        version: 1,
        title: 'Probe',
        visibility: 'private',
        target: 'all',
        verified: false,
        scopes: ['space:content:read', 'site:metadata:read'],
        owner: { object: 'organization', id: org.id },
        permissions: { admin: true },
        contentSecurityPolicy: { 'script-src': "'self'" },
        urls: {
          location: expect.stringMatching(new RegExp(`/v1/integrations/${name}$`)) as string,
          app: expect.stringMatching(new RegExp(`/integrations/${name}$`)) as string,
          icon: expect.stringMatching(/\/v1\/integration-images\/[0-9a-f]{64}$/) as string,
        },
      });
      expect(JSON.stringify(res.body)).not.toContain('plain-value');
      expect(res.body).not.toHaveProperty('secrets');

      const repository = t.bindery.app.get(IntegrationsRepository);
      const stored = await repository.findByName(name);
      expect(await repository.script(stored!.id, 1)).toBe(SCRIPT);
      // Sealed at rest.
      expect(stored!.secrets).not.toContain('plain-value');
    });

    it("records the publish in the owning organization's audit log", async () => {
      const org = await t.factories.organization();
      const { name } = await published(org);
      const res = await org.owner.client
        .get(`/v1/orgs/${org.id}/audit-events?target=${name}`)
        .expect(200);
      expect(res.body.items).toEqual([
        expect.objectContaining({
          action: 'integration.published',
          target: expect.objectContaining({ type: 'integration', id: name }) as unknown,
        }),
      ]);
    });

    it('makes a new version on each publish, with the new manifest and script', async () => {
      const org = await t.factories.organization();
      const { name } = await published(org);
      const res = await org.owner.client
        .post(
          `/v1/integrations/${name}`,
          manifest(org, { title: 'Probe two', script: 'export default {};', blocks: [] }),
        )
        .expect(200);
      expect(res.body).toMatchObject({ version: 2, title: 'Probe two', blocks: [] });
      const repository = t.bindery.app.get(IntegrationsRepository);
      const stored = await repository.findByName(name);
      expect(await repository.script(stored!.id, 2)).toBe('export default {};');
      expect(await repository.script(stored!.id, 1)).toBe(SCRIPT);
    });

    it('serves the icon it was given, by digest, as a PNG', async () => {
      const org = await t.factories.organization();
      const { body } = await published(org);
      const icon = new URL((body.urls as { icon: string }).icon);
      const res = await t.anonymous.get(icon.pathname).expect(200);
      expect(res.headers['content-type']).toBe('image/png');
      expect(Buffer.compare(res.body as Buffer, PNG)).toBe(0);
      await t.anonymous.get(`/v1/integration-images/${'0'.repeat(64)}`).expect(404);
    });

    it('lets the instance administrator publish a public integration of any organization', async () => {
      const org = await t.factories.organization();
      const name = uniqueName();
      const res = await t.admin
        .post(`/v1/integrations/${name}`, manifest(org, { visibility: 'public' }))
        .expect(200);
      expectConforms(res, 'publishIntegration', GITBOOK_0202);
      expect(res.body).toMatchObject({ visibility: 'public', owner: { id: org.id } });
    });

    it.each([
      ['no script', { script: undefined }, 'script'],
      ['an unknown scope', { scopes: ['space:everything'] }, 'scopes'],
      ['an icon that is not an image', { icon: Buffer.from('<svg/>').toString('base64') }, 'icon'],
      ['a title too long', { title: 'x'.repeat(31) }, 'title'],
      [
        'a configuration property of an unknown type',
        { configurations: { account: { properties: { a: { type: 'color' } } } } },
        'configurations',
      ],
      ['a block without a title', { blocks: [{ id: 'b' }] }, 'blocks'],
      [
        'too many secrets',
        { secrets: Object.fromEntries([...Array(21)].map((_, i) => [`S${i}`, 'v'])) },
        'secrets',
      ],
    ])('answers 400 for %s, and publishes nothing', async (_, overrides, field) => {
      const org = await t.factories.organization();
      const name = uniqueName();
      const res = await org.owner.client
        .post(`/v1/integrations/${name}`, manifest(org, overrides))
        .expect(400);
      expectError(res, 400, field);
      await org.owner.client.get(`/v1/integrations/${name}`).expect(404);
    });

    it('answers 400 for a name GitBook does not allow', async () => {
      const org = await t.factories.organization();
      const res = await org.owner.client
        .post(`/v1/integrations/bad%20name`, manifest(org))
        .expect(400);
      expectError(res, 400, 'integrationName');
    });

    it('answers 404 for an unknown organization, and for one the caller is not a member of', async () => {
      const org = await t.factories.organization();
      const other = await t.factories.organization();
      const unknown = await org.owner.client
        .post(`/v1/integrations/${uniqueName()}`, manifest(org, { organization: 'nope' }))
        .expect(404);
      expectError(unknown, 404, 'Organization');
      await other.owner.client.post(`/v1/integrations/${uniqueName()}`, manifest(org)).expect(404);
    });

    it("answers 403 to a member below admin, and to an organization's admin publishing a public one", async () => {
      const org = await t.factories.organization();
      const creator = await t.factories.asMember(org, 'create');
      const res = await creator.post(`/v1/integrations/${uniqueName()}`, manifest(org)).expect(403);
      expectError(res, 403, 'admins');
      const publicOne = await org.owner.client
        .post(`/v1/integrations/${uniqueName()}`, manifest(org, { visibility: 'public' }))
        .expect(403);
      expectError(publicOne, 403, 'instance administrator');
    });

    it("answers 409 for a name that is another organization's integration", async () => {
      const org = await t.factories.organization();
      const other = await t.factories.organization();
      const { name } = await published(org);
      const res = await other.owner.client
        .post(`/v1/integrations/${name}`, manifest(other))
        .expect(409);
      expectError(res, 409, name);
    });
  });

  describe('getIntegrationByName', () => {
    it("answers a private integration to its organization's members, admin only for admins", async () => {
      const org = await t.factories.organization();
      const { name } = await published(org);
      const reader = await t.factories.asMember(org, 'read');
      const res = await reader.get(`/v1/integrations/${name}`).expect(200);
      expectConforms(res, 'getIntegrationByName', GITBOOK_0202);
      expect(res.body).toMatchObject({ name, permissions: { admin: false } });
      const own = await org.owner.client.get(`/v1/integrations/${name}`).expect(200);
      expect(own.body).toMatchObject({ permissions: { admin: true } });
    });

    it('answers a public integration to anyone signed in', async () => {
      const org = await t.factories.organization();
      const other = await t.factories.organization();
      const name = uniqueName();
      await t.admin
        .post(`/v1/integrations/${name}`, manifest(org, { visibility: 'unlisted' }))
        .expect(200);
      const res = await other.owner.client.get(`/v1/integrations/${name}`).expect(200);
      expect(res.body).toMatchObject({ name, permissions: { admin: false } });
    });

    it("answers 404 for an unknown name, and for another organization's private integration", async () => {
      const org = await t.factories.organization();
      const other = await t.factories.organization();
      const { name } = await published(org);
      expectError(await other.owner.client.get(`/v1/integrations/${name}`).expect(404), 404);
      await org.owner.client.get(`/v1/integrations/${uniqueName()}`).expect(404);
    });

    it('answers 401 without a token', async () => {
      const org = await t.factories.organization();
      const { name } = await published(org);
      await t.anonymous.get(`/v1/integrations/${name}`).expect(401);
    });
  });

  describe('listIntegrations', () => {
    it("lists the public integrations and the caller's organizations' own, with GitBook's filters", async () => {
      const org = await t.factories.organization();
      const other = await t.factories.organization();
      const mine = await published(org, { categories: ['analytics'], blocks: [] });
      const theirs = await published(other);
      const publicName = uniqueName('zz-public');
      await t.admin
        .post(
          `/v1/integrations/${publicName}`,
          manifest(other, { visibility: 'public', scopes: ['site:script:inject'], target: 'site' }),
        )
        .expect(200);

      const res = await org.owner.client.get('/v1/integrations?limit=1000').expect(200);
      expectConforms(res, 'listIntegrations', GITBOOK_0202);
      const names = (res.body.items as { name: string }[]).map((item) => item.name);
      expect(names).toContain(mine.name);
      expect(names).toContain(publicName);
      expect(names).not.toContain(theirs.name);
      expect(names).toEqual([...names].sort());

      const named = async (query: string) =>
        (
          (await org.owner.client.get(`/v1/integrations?limit=1000&${query}`).expect(200)).body
            .items as { name: string }[]
        ).map((item) => item.name);
      expect(await named('category=analytics')).toEqual([mine.name]);
      expect(await named(`owner=${org.id}`)).toEqual([mine.name]);
      expect(await named('scope=site:script:inject')).toEqual([publicName]);
      expect(await named(`search=${mine.name.slice(0, 14)}`)).toContain(mine.name);
      expect(await named('blocks=false')).toContain(mine.name);
      expect(await named('blocks=true')).not.toContain(mine.name);
      expect(await named('target=site')).toEqual(expect.arrayContaining([publicName, mine.name]));
      expect(await named('target=space')).not.toContain(publicName);

      const all = await t.admin.get('/v1/integrations?limit=1000').expect(200);
      expect((all.body.items as { name: string }[]).map((item) => item.name)).toContain(
        theirs.name,
      );
    });

    it('pages by name', async () => {
      const org = await t.factories.organization();
      await published(org);
      await published(org);
      const first = await org.owner.client.get(`/v1/integrations?owner=${org.id}&limit=1`);
      expect(first.body.items).toHaveLength(1);
      const second = await org.owner.client
        .get(`/v1/integrations?owner=${org.id}&limit=1&page=${first.body.next.page}`)
        .expect(200);
      expect(second.body.items).toHaveLength(1);
      expect(second.body.items[0].name > first.body.items[0].name).toBe(true);
    });

    it('answers 400 for a filter GitBook does not have a value for', async () => {
      const org = await t.factories.organization();
      expectError(await org.owner.client.get('/v1/integrations?blocks=maybe').expect(400), 400);
      await org.owner.client.get('/v1/integrations?category=gitsync').expect(400);
    });
  });

  describe('unpublishIntegration', () => {
    it('removes it for its admins (205), then answers 204', async () => {
      const org = await t.factories.organization();
      const { name } = await published(org);
      const res = await org.owner.client.delete(`/v1/integrations/${name}`).expect(205);
      expectConforms(res, 'unpublishIntegration', GITBOOK_0202);
      await org.owner.client.get(`/v1/integrations/${name}`).expect(404);
      await org.owner.client.delete(`/v1/integrations/${name}`).expect(204);
    });

    it("answers 204 to another organization's member and keeps the integration", async () => {
      const org = await t.factories.organization();
      const other = await t.factories.organization();
      const { name } = await published(org);
      await other.owner.client.delete(`/v1/integrations/${name}`).expect(204);
      await org.owner.client.get(`/v1/integrations/${name}`).expect(200);
    });

    it('answers 403 to a member below admin, and to admins for a public one', async () => {
      const org = await t.factories.organization();
      const { name } = await published(org);
      const editor = await t.factories.asMember(org, 'edit');
      expectError(await editor.delete(`/v1/integrations/${name}`).expect(403), 403);
      const publicName = uniqueName();
      await t.admin
        .post(`/v1/integrations/${publicName}`, manifest(org, { visibility: 'public' }))
        .expect(200);
      await org.owner.client.delete(`/v1/integrations/${publicName}`).expect(403);
      await t.admin.delete(`/v1/integrations/${publicName}`).expect(205);
    });
  });

  describe('development mode', () => {
    it('sends events to a tunnel until it is disabled', async () => {
      const org = await t.factories.organization();
      const { name } = await published(org);
      const repository = t.bindery.app.get(IntegrationsRepository);
      const set = await org.owner.client
        .put(`/v1/integrations/${name}/dev`, { tunnelUrl: 'https://tunnel.example.com', all: true })
        .expect(204);
      expectConforms(set, 'setIntegrationDevelopmentMode', GITBOOK_0202);
      expect(await repository.findByName(name)).toMatchObject({
        devTunnelUrl: 'https://tunnel.example.com',
        devAll: true,
      });
      const disabled = await org.owner.client.delete(`/v1/integrations/${name}/dev`).expect(205);
      expectConforms(disabled, 'disableIntegrationDevelopmentMode', GITBOOK_0202);
      expect(await repository.findByName(name)).toMatchObject({
        devTunnelUrl: null,
        devAll: false,
      });
    });

    it('sends the events to the tunnel, as GitBook sends them to a script', async () => {
      const received: {
        url?: string;
        event?: Record<string, unknown>;
        environment?: Record<string, unknown>;
      }[] = [];
      const tunnel = createServer((req, res) => {
        void new Request('http://tunnel', {
          method: 'POST',
          headers: req.headers as Record<string, string>,
          body: Readable.toWeb(req) as ReadableStream,
          duplex: 'half',
        } as RequestInit)
          .formData()
          .then((form) => {
            received.push({
              url: req.url,
              event: JSON.parse(form.get('event') as string) as Record<string, unknown>,
              environment: JSON.parse(form.get('environment') as string) as Record<string, unknown>,
            });
            res.end('OK');
          });
      });
      await new Promise<void>((resolve) => tunnel.listen(0, '127.0.0.1', resolve));
      try {
        const org = await t.factories.organization();
        const { name } = await published(org);
        const { port } = tunnel.address() as AddressInfo;
        await org.owner.client
          .put(`/v1/integrations/${name}/dev`, { tunnelUrl: `http://127.0.0.1:${port}` })
          .expect(204);
        const integration = await t.bindery.app.get(IntegrationsRepository).findByName(name);
        const result = await t.bindery.app
          .get(IntegrationDispatcher)
          .dispatch(integration!, { type: 'task', task: { n: 1 } });
        expect(result.response?.status).toBe(200);
        expect(received).toEqual([
          {
            url: '/v1',
            event: { eventId: result.eventId, type: 'task', task: { n: 1 } },
            environment: expect.objectContaining({
              integration: expect.objectContaining({ name }) as unknown,
              secrets: { STATIC_SECRET: 'plain-value' },
            }) as unknown,
          },
        ]);
      } finally {
        await new Promise((resolve) => tunnel.close(resolve));
      }
    });

    it('answers 400 for a tunnel that is not an http(s) URL', async () => {
      const org = await t.factories.organization();
      const { name } = await published(org);
      for (const body of [{ tunnelUrl: 'ftp://x' }, {}, { tunnelUrl: 'https://x', all: 'yes' }]) {
        expectError(
          await org.owner.client.put(`/v1/integrations/${name}/dev`, body).expect(400),
          400,
        );
      }
    });

    it("answers 404 for an unknown name and another organization's, 403 below admin", async () => {
      const org = await t.factories.organization();
      const other = await t.factories.organization();
      const { name } = await published(org);
      const body = { tunnelUrl: 'https://tunnel.example.com' };
      await org.owner.client.put(`/v1/integrations/${uniqueName()}/dev`, body).expect(404);
      await other.owner.client.put(`/v1/integrations/${name}/dev`, body).expect(404);
      const reviewer = await t.factories.asMember(org, 'review');
      expectError(await reviewer.put(`/v1/integrations/${name}/dev`, body).expect(403), 403);
      await reviewer.delete(`/v1/integrations/${name}/dev`).expect(403);
    });
  });
});
