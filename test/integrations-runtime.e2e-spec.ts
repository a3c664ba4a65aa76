import { createServer, type Server } from 'node:http';
import { compressToEncodedURIComponent } from 'lz-string';
import type { AddressInfo } from 'node:net';
import { IntegrationDispatcher } from '../src/integrations/events/integration-dispatcher';
import { IntegrationInstallationEvents } from '../src/integrations/installations/installation-events';
import { IntegrationsRepository } from '../src/integrations/integrations.repository';
import { createTestApp, TestApp } from './helpers/app';
import { insertPage } from './helpers/content';
import { expectConforms, expectMatchesSchema, GITBOOK_0202 } from './helpers/conformance';
import type { TestOrganization } from './helpers/factories';

/**
 * Integrations' scripts running in workerd (Cloudflare's open-source Workers runtime, as GitBook
 * runs them): an event reaches the script as GitBook sends it (a form of `event` and
 * `environment` POSTed to `/v1`), what it answered is recorded and listed, and the sandbox's
 * limits stop a script that loops or allocates without bound; its requests go out only through
 * Bindery's relay, which refuses private addresses.
 */
describe('integrations: scripts in workerd', () => {
  let t: TestApp;
  /** A server on loopback that the scripts try to reach. */
  let local: Server;
  let localUrl: string;

  beforeAll(async () => {
    t = await createTestApp({
      OUTBOUND_ALLOW_PRIVATE: 'false',
      INTEGRATION_TIMEOUT_MS: '2000',
      INTEGRATION_MEMORY_MB: '160',
    });
    local = createServer((_, res) => res.end('secret from loopback'));
    await new Promise<void>((resolve) => local.listen(0, '127.0.0.1', resolve));
    localUrl = `http://127.0.0.1:${(local.address() as AddressInfo).port}/`;
  });
  afterAll(async () => {
    await t.close();
    await new Promise((resolve) => local.close(resolve));
  });

  /**
   * A script of the tests' own: it reads GitBook's form and answers by the task's `mode`:
   * `echo` the event and the environment's names, `loop` forever, `allocate` without end,
   * `fetch` a URL and answer its status.
   */
  const SCRIPT = `
    export default {
      async fetch(request) {
        const url = new URL(request.url);
        if (request.method !== 'POST' || url.pathname !== '/v1') return new Response('no', { status: 400 });
        const form = await request.formData();
        const event = JSON.parse(form.get('event'));
        const environment = JSON.parse(form.get('environment'));
        if (event.type === 'fetch') {
          const body = form.get('fetch-body');
          return Response.json(
            {
              method: event.request.method,
              url: event.request.url,
              signature: event.request.headers['x-signature'] ?? null,
              body: body ? await body.text() : null,
            },
            {
              status: 202,
              headers: { 'x-integration': environment.integration.name, 'set-cookie': 'session=stolen; Path=/' },
            },
          );
        }
        if (event.type === 'ui_render') {
          if (event.componentId === 'missing') return new Response('Component missing not found', { status: 404 });
          if (event.componentId === 'junk') return new Response('not contentkit');
          const clicks = (event.state?.clicks ?? 0) + (event.action?.action === 'click' ? 1 : 0);
          return Response.json(
            {
              type: 'element',
              state: { clicks },
              props: event.props,
              element: {
                type: 'block',
                children: [
                  { type: 'text', children: ['Hello ' + event.props.name + ' in ' + environment.spaceInstallation.space] },
                  { type: 'button', label: 'Click ' + clicks, onPress: { action: 'click' } },
                ],
              },
            },
            { headers: { 'cache-control': 'max-age=60' } },
          );
        }
        const task = event.task ?? {};
        if (task.mode === 'loop') { for (;;) {} }
        if (task.mode === 'allocate') { const kept = []; for (;;) kept.push(new Array(1e6).fill(kept.length)); }
        if (task.mode === 'fetch') {
          const response = await fetch(task.url);
          return Response.json({ status: response.status, text: await response.text() });
        }
        return Response.json({
          event,
          integration: environment.integration.name,
          installation: environment.installation?.id ?? null,
          spaceInstallation: environment.spaceInstallation?.space ?? null,
          secrets: environment.secrets,
          apiEndpoint: environment.apiEndpoint,
          signing: typeof environment.signingSecrets.integration,
        });
      },
    };`;

  let count = 0;
  async function publish(org: TestOrganization, script = SCRIPT) {
    const name = `runtime-${Date.now().toString(36)}-${(count += 1)}`;
    await org.owner.client
      .post(`/v1/integrations/${name}`, {
        title: 'Runtime',
        description: '',
        scopes: [],
        organization: org.id,
        secrets: { TOKEN: 'shh' },
        script,
      })
      .expect(200);
    const integration = await t.bindery.app.get(IntegrationsRepository).findByName(name);
    return { name, integration: integration! };
  }

  const dispatch = (integration: Parameters<IntegrationDispatcher['dispatch']>[0], task: object) =>
    t.bindery.app.get(IntegrationDispatcher).dispatch(integration, { type: 'task', task });

  it('sends an event as GitBook does and records what the script answered', async () => {
    const org = await t.factories.organization();
    const { name, integration } = await publish(org);
    const result = await dispatch(integration, { mode: 'echo', n: 1 });
    expect(result.error).toBeUndefined();
    expect(result.response!.status).toBe(200);
    const answer = JSON.parse(result.response!.body.toString()) as Record<string, unknown>;
    expect(answer).toEqual({
      event: { eventId: result.eventId, type: 'task', task: { mode: 'echo', n: 1 } },
      integration: name,
      installation: null,
      spaceInstallation: null,
      secrets: { TOKEN: 'shh' },
      apiEndpoint: 'http://bindery.test',
      signing: 'string',
    });
    expectMatchesSchema((answer as { event: unknown }).event, 'TaskEvent', GITBOOK_0202);

    const list = await org.owner.client.get(`/v1/integrations/${name}/events`).expect(200);
    expectConforms(list, 'listIntegrationEvents', GITBOOK_0202);
    expect(list.body.items).toEqual([
      expect.objectContaining({ id: result.eventId, status: 'success' }),
    ]);
    const one = await org.owner.client
      .get(`/v1/integrations/${name}/events/${result.eventId}`)
      .expect(200);
    expectConforms(one, 'getIntegrationEvent', GITBOOK_0202);
    expect(one.body.trace.logs[0]).toMatchObject({
      level: 'info',
      message: expect.stringContaining('Answered 200') as string,
    });
  });

  it("keeps what the script logged, and its uncaught errors, in the event's trace", async () => {
    const org = await t.factories.organization();
    const { name, integration } = await publish(
      org,
      `export default {
        async fetch(request) {
          const event = JSON.parse((await request.formData()).get('event'));
          console.log('handling', event.type, { page: event.task.page });
          console.warn('slow upstream');
          if (event.task.fail) throw new TypeError('no such page');
          return new Response('done');
        },
      };`,
    );
    const traceOf = async (eventId: string, lines: number) => {
      for (let attempt = 0; attempt < 50; attempt += 1) {
        const res = await org.owner.client.get(`/v1/integrations/${name}/events/${eventId}`);
        expectConforms(res, 'getIntegrationEvent', GITBOOK_0202);
        const logs = res.body.trace.logs as { level: string; message: string }[];
        if (logs.length >= lines) return logs;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`no trace of ${lines} lines for ${eventId}`);
    };

    const done = await dispatch(integration, { page: 2 });
    expect((await traceOf(done.eventId, 4)).map(({ level, message }) => [level, message])).toEqual([
      ['info', 'handling task {"page":2}'],
      ['warn', 'slow upstream'],
      ['info', expect.stringContaining('Answered 200') as string],
      ['debug', 'done'],
    ]);
    const failed = await dispatch(integration, { page: 3, fail: true });
    expect(failed.response?.status).toBe(500);
    const trace = await traceOf(failed.eventId, 4);
    expect(trace.slice(0, 3).map(({ level, message }) => [level, message])).toEqual([
      ['info', 'handling task {"page":3}'],
      ['warn', 'slow upstream'],
      ['error', 'TypeError: no such page'],
    ]);
  });

  it('stops a script that loops, and answers the next event with a new runtime', async () => {
    const org = await t.factories.organization();
    const { name, integration } = await publish(org);
    const started = Date.now();
    const looped = await dispatch(integration, { mode: 'loop' });
    expect(looped.error).toMatch(/more than 2000 ms/);
    expect(Date.now() - started).toBeLessThan(6000);
    const next = await dispatch(integration, { mode: 'echo' });
    expect(next.response?.status).toBe(200);
    const one = await org.owner.client
      .get(`/v1/integrations/${name}/events/${looped.eventId}`)
      .expect(200);
    expect(one.body).toMatchObject({
      event: { status: 'failed' },
      trace: { logs: [{ level: 'error', message: expect.stringMatching(/stopped/) as string }] },
    });
  });

  it('stops a script that allocates without bound', async () => {
    const org = await t.factories.organization();
    const { integration } = await publish(org);
    const result = await dispatch(integration, { mode: 'allocate' });
    expect(result.error).toMatch(/more than 160 MB/);
  });

  it('refuses a request of the script to a private address', async () => {
    const org = await t.factories.organization();
    const { integration } = await publish(org);
    const refused = await dispatch(integration, { mode: 'fetch', url: localUrl });
    const answer = JSON.parse(refused.response!.body.toString()) as {
      status: number;
      text: string;
    };
    expect(answer.status).toBe(403);
    expect(answer.text).toMatch(/only public internet addresses/);
    expect(answer.text).not.toContain('secret from loopback');
  });

  it('sends events to the development tunnel while it answers, else to the published script', async () => {
    const org = await t.factories.organization();
    const { name, integration } = await publish(org);
    // A tunnel on loopback is refused by the outbound rules here, as one that went away is.
    await org.owner.client.put(`/v1/integrations/${name}/dev`, { tunnelUrl: localUrl }).expect(204);
    const repository = t.bindery.app.get(IntegrationsRepository);
    const inDevelopment = (await repository.findByName(name))!;
    expect(inDevelopment.devTunnelUrl).toBe(localUrl);
    const result = await dispatch(inDevelopment, { mode: 'echo' });
    expect(result.response?.status).toBe(200);
    expect(JSON.parse(result.response!.body.toString())).toMatchObject({ integration: name });
    expect(integration.id).toBe(inDevelopment.id);
  });

  it('records a script that cannot start as a failed event', async () => {
    const org = await t.factories.organization();
    const { integration } = await publish(org, 'export default { fetch( }');
    const result = await dispatch(integration, { mode: 'echo' });
    expect(result.error).toMatch(/could not start/);
  });

  describe('installations', () => {
    it('tell the script of each installation, on the organization and on a space, as GitBook does', async () => {
      const org = await t.factories.organization();
      const { name } = await publish(org);
      const space = await t.factories.space(org, { title: 'Handbook' });
      const installed = await org.owner.client
        .post(`/v1/integrations/${name}/installations`, { organization: org.id })
        .expect(201);
      const at = `/v1/integrations/${name}/installations/${installed.body.id}`;
      await org.owner.client.post(`${at}/spaces`, { space: space.id }).expect(201);
      await org.owner.client.delete(`${at}/spaces/${space.id}`).expect(205);
      await org.owner.client.delete(at).expect(205);
      await t.bindery.app.get(IntegrationInstallationEvents).settled();

      const events = await org.owner.client.get(`/v1/integrations/${name}/events`).expect(200);
      const items = [
        ...(events.body.items as {
          id: string;
          status: string;
          payload: Record<string, unknown>;
        }[]),
      ].reverse();
      expect(items.map((item) => [item.payload.type, item.status])).toEqual([
        ['installation_setup', 'success'],
        ['space_installation_setup', 'success'],
        ['space_installation_deleted', 'success'],
        ['installation_deleted', 'success'],
      ]);
      const schemas = [
        'InstallationSetupEvent',
        'SpaceInstallationSetupEvent',
        'SpaceInstallationDeletedEvent',
        'InstallationDeletedEvent',
      ];
      items.forEach((item, i) => expectMatchesSchema(item.payload, schemas[i], GITBOOK_0202));
      expect(items[1].payload).toMatchObject({
        installationId: installed.body.id,
        spaceId: space.id,
      });
      // What the script saw: the installation, and the space installation, in its environment.
      const seen = await org.owner.client.get(`/v1/integrations/${name}/events/${items[1].id}`);
      const answer = JSON.parse(
        (seen.body.trace.logs as { level: string; message: string }[]).find(
          (log) => log.level === 'debug',
        )!.message,
      ) as Record<string, unknown>;
      expect(answer).toMatchObject({
        installation: installed.body.id,
        spaceInstallation: expect.anything(),
      });
    });
  });

  describe('renderIntegrationUIWithPost and WithGet', () => {
    async function installedOnSpace() {
      const org = await t.factories.organization();
      const { name } = await publish(org);
      const space = await t.factories.space(org, { title: 'Handbook' });
      const installed = await org.owner.client
        .post(`/v1/integrations/${name}/installations`, { organization: org.id })
        .expect(201);
      await org.owner.client
        .post(`/v1/integrations/${name}/installations/${installed.body.id}/spaces`, {
          space: space.id,
        })
        .expect(201);
      await t.bindery.app.get(IntegrationInstallationEvents).settled();
      return { org, name, space: space.id };
    }
    const request = (spaceId: string, extra: object = {}) => ({
      componentId: 'greeting',
      props: { name: 'Ada' },
      context: { type: 'document', spaceId, editable: true, theme: 'light' },
      ...extra,
    });

    it("renders a block in a document through the space's installation, with its action and state", async () => {
      const { org, name, space } = await installedOnSpace();
      const reader = await t.factories.asMember(org, 'read');
      const res = await reader
        .post(
          `/v1/integrations/${name}/render`,
          request(space, { state: { clicks: 2 }, action: { action: 'click' } }),
        )
        .expect(200);
      expectConforms(res, 'renderIntegrationUIWithPost', GITBOOK_0202);
      expect(res.headers['cache-control']).toBe('private, max-age=60');
      expect(res.body).toMatchObject({
        type: 'element',
        state: { clicks: 3 },
        element: { children: [{ children: [`Hello Ada in ${space}`] }, { label: 'Click 3' }] },
      });

      const encoded = compressToEncodedURIComponent(JSON.stringify(request(space)));
      const got = await reader
        .get(`/v1/integrations/${name}/render?request=${encoded}`)
        .expect(200);
      expectConforms(got, 'renderIntegrationUIWithGet', GITBOOK_0202);
      expect(got.body.state).toEqual({ clicks: 0 });

      const events = await org.owner.client
        .get(`/v1/integrations/${name}/events?limit=2`)
        .expect(200);
      const [latest] = events.body.items as { payload: Record<string, unknown> }[];
      expect(latest.payload).toMatchObject({
        type: 'ui_render',
        spaceId: space,
        componentId: 'greeting',
      });
      expectMatchesSchema(latest.payload, 'UIRenderEvent', GITBOOK_0202);
    });

    it('answers 400 for a bad context or request, 404 where it is not installed or unseen, 403 below admin for a configuration', async () => {
      const { org, name, space } = await installedOnSpace();
      const other = await t.factories.space(org, { title: 'Other' });
      const stranger = await t.factories.organization();
      const client = org.owner.client;
      const bad = await client
        .post(
          `/v1/integrations/${name}/render`,
          request(space, { context: { type: 'page', theme: 'light' } }),
        )
        .expect(400);
      expect(bad.body).toEqual({
        error: { code: 400, message: expect.stringContaining('context.type') as string },
      });
      await client.get(`/v1/integrations/${name}/render?request=garbage`).expect(400);
      await client.post(`/v1/integrations/${name}/render`, request(other.id)).expect(404);
      await stranger.owner.client
        .post(`/v1/integrations/${name}/render`, request(space))
        .expect(404);
      await client.post(`/v1/integrations/nope-nope/render`, request(space)).expect(404);
      const editor = await t.factories.asMember(org, 'edit');
      await editor
        .post(`/v1/integrations/${name}/render`, {
          ...request(space),
          context: { type: 'configuration_space', spaceId: space, theme: 'dark' },
        })
        .expect(403);
      await client
        .post(`/v1/integrations/${name}/render`, request(space, { componentId: 'missing' }))
        .expect(404);
      const junk = await client
        .post(`/v1/integrations/${name}/render`, request(space, { componentId: 'junk' }))
        .expect(503);
      expect(junk.body.error.message).toMatch(/without ContentKit/);
    });
  });

  describe("an integration's public endpoint", () => {
    it("relays any request under it to the script's fetch, body as sent, and answers its answer", async () => {
      const org = await t.factories.organization();
      const { name } = await publish(org);
      const res = await t.anonymous
        .post(`/v1/integrations/${name}/integration/hooks/github?delivery=1`)
        .set('content-type', 'application/x-www-form-urlencoded')
        .set('x-signature', 'sha256=abc')
        .send('a=1&b=%20two')
        .expect(202);
      expect(res.body).toEqual({
        method: 'post',
        url: `http://bindery.test/v1/integrations/${name}/integration/hooks/github?delivery=1`,
        signature: 'sha256=abc',
        body: 'a=1&b=%20two',
      });
      expect(res.headers['x-integration']).toBe(name);
      expect(res.headers['content-security-policy']).toMatch(/^sandbox/);
      // No cookie of the API's origin (where published sites keep their visitors' sessions).
      expect(res.headers['set-cookie']).toBeUndefined();
      const root = await t.anonymous.get(`/v1/integrations/${name}/integration`).expect(202);
      expect(root.body).toMatchObject({ method: 'get', body: null });
      const events = await org.owner.client.get(`/v1/integrations/${name}/events`).expect(200);
      const payloads = (events.body.items as { payload: { type: string } }[]).map((e) => e.payload);
      expect(payloads.map((payload) => payload.type)).toEqual(['fetch', 'fetch']);
      for (const payload of payloads) expectMatchesSchema(payload, 'FetchEvent', GITBOOK_0202);
    });

    it('answers 404 for an unknown integration, 405 for a method GitBook does not relay, 413 for a body over 1 MB', async () => {
      const org = await t.factories.organization();
      const { name } = await publish(org);
      const patch = await t.anonymous.patch(`/v1/integrations/${name}/integration/x`).expect(405);
      expect(patch.headers.allow).toBe('GET, POST, PUT, DELETE');
      expect(patch.body).toEqual({ error: { code: 405, message: expect.any(String) as string } });
      await t.anonymous.get('/v1/integrations/nope-nope/integration/x').expect(404);
      await t.anonymous
        .post(`/v1/integrations/${name}/integration/big`)
        .set('content-type', 'application/octet-stream')
        .send(Buffer.alloc(1024 * 1024 + 1))
        .expect(413);
    });
  });

  describe("an installation's public endpoints", () => {
    /** Answers what a `fetch` event names, and the installation its environment carries. */
    const ENDPOINT_SCRIPT = `
      export default {
        async fetch(request) {
          const form = await request.formData();
          const event = JSON.parse(form.get('event'));
          const environment = JSON.parse(form.get('environment'));
          return Response.json({
            event: { installationId: event.installationId, spaceId: event.spaceId, siteId: event.siteId },
            url: event.request.url,
            installation: environment.installation?.id ?? null,
            publicEndpoint: environment.installation?.urls.publicEndpoint ?? null,
            space: environment.spaceInstallation?.space ?? null,
            site: environment.siteInstallation?.site ?? null,
            installationToken: typeof environment.apiTokens.installation,
          });
        },
      };`;

    it('relay to the script with the installation, its space or site installation, and its token', async () => {
      const org = await t.factories.organization();
      const space = await t.factories.space(org);
      const site = await t.factories.site(org);
      const { name } = await publish(org, ENDPOINT_SCRIPT);
      const installed = await org.owner.client
        .post(`/v1/integrations/${name}/installations`, { organization: org.id })
        .expect(201);
      const id = installed.body.id as string;
      const at = `/v1/integrations/${name}/installations/${id}`;
      expect(installed.body.urls.publicEndpoint).toBe(`http://bindery.test${at}/integration`);
      const onSpace = await org.owner.client.post(`${at}/spaces`, { space: space.id }).expect(201);
      const onSite = await org.owner.client.post(`${at}/sites`, { siteId: site.id }).expect(201);
      const spaceEndpoint = onSpace.body.urls.publicEndpoint as string;
      const siteEndpoint = onSite.body.urls.publicEndpoint as string;
      expect(spaceEndpoint).toBe(`http://bindery.test${at}/spaces/${space.id}/integration`);

      const own = await t.anonymous.post(`${at}/integration/oauth?code=1`).expect(200);
      expect(own.body).toEqual({
        event: { installationId: id },
        url: `http://bindery.test${at}/integration/oauth?code=1`,
        installation: id,
        publicEndpoint: `http://bindery.test${at}/integration`,
        space: null,
        site: null,
        installationToken: 'string',
      });
      const onSpaceAnswer = await t.anonymous
        .get(new URL(spaceEndpoint).pathname + '/webhook')
        .expect(200);
      expect(onSpaceAnswer.body).toMatchObject({
        event: { installationId: id, spaceId: space.id },
        installation: id,
        space: space.id,
      });
      const onSiteAnswer = await t.anonymous.delete(new URL(siteEndpoint).pathname).expect(200);
      expect(onSiteAnswer.body).toMatchObject({
        event: { installationId: id, siteId: site.id },
        site: site.id,
      });
      const events = await org.owner.client.get(`/v1/integrations/${name}/events`).expect(200);
      const fetched = (events.body.items as { installationId?: string; payload: object }[]).filter(
        (event) => (event.payload as { type: string }).type === 'fetch',
      );
      expect(fetched).toHaveLength(3);
      for (const event of fetched) {
        expect(event.installationId).toBe(id);
        expectMatchesSchema(event.payload, 'FetchEvent', GITBOOK_0202);
      }
    });

    it('answer 404 for an unknown installation or one not on the space or site, 405 for PATCH', async () => {
      const org = await t.factories.organization();
      const space = await t.factories.space(org);
      const { name } = await publish(org, ENDPOINT_SCRIPT);
      const other = await publish(org, ENDPOINT_SCRIPT);
      const installed = await org.owner.client
        .post(`/v1/integrations/${name}/installations`, { organization: org.id })
        .expect(201);
      const at = `/v1/integrations/${name}/installations/${installed.body.id as string}`;
      await t.anonymous.get(`/v1/integrations/${name}/installations/nope/integration`).expect(404);
      // Another integration's name over this installation.
      await t.anonymous
        .get(
          `/v1/integrations/${other.name}/installations/${installed.body.id as string}/integration`,
        )
        .expect(404);
      await t.anonymous.get(`${at}/spaces/${space.id}/integration/x`).expect(404);
      await t.anonymous.get(`${at}/sites/nope/integration`).expect(404);
      await t.anonymous.patch(`${at}/integration`).expect(405);
    });
  });

  describe('what happens to the spaces it is installed on', () => {
    it('reaches the script as GitBook sends it, for active installations on the space only', async () => {
      const org = await t.factories.organization();
      const space = await t.factories.space(org);
      const other = await t.factories.space(org);
      const { name } = await publish(org);
      const installed = await org.owner.client
        .post(`/v1/integrations/${name}/installations`, { organization: org.id })
        .expect(201);
      const id = installed.body.id as string;
      await org.owner.client
        .post(`/v1/integrations/${name}/installations/${id}/spaces`, { space: space.id })
        .expect(201);
      await t.bindery.app.get(IntegrationInstallationEvents).settled();

      await t.factories.changeRequest(org, space.id, {
        changes: [insertPage('Install', '# Install\n\nRun it.')],
        merge: true,
      });
      await org.owner.client.patch(`/v1/spaces/${space.id}`, { visibility: 'public' }).expect(200);
      // Not installed on this one.
      await org.owner.client.patch(`/v1/spaces/${other.id}`, { visibility: 'public' }).expect(200);

      const head = await org.owner.client.get(`/v1/spaces/${space.id}/content`).expect(200);
      let payloads: Record<string, unknown>[] = [];
      for (let attempt = 0; attempt < 100 && payloads.length < 2; attempt += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        const events = await org.owner.client.get(`/v1/integrations/${name}/events`).expect(200);
        payloads = (events.body.items as { payload: Record<string, unknown> }[])
          .map((event) => event.payload)
          .filter(
            (payload) =>
              String(payload.type).startsWith('space_') &&
              !String(payload.type).includes('installation'),
          );
      }
      const byType = Object.fromEntries(payloads.map((payload) => [payload.type, payload]));
      expect(Object.keys(byType).sort()).toEqual([
        'space_content_updated',
        'space_visibility_updated',
      ]);
      expect(byType.space_content_updated).toEqual({
        eventId: expect.any(String) as string,
        type: 'space_content_updated',
        installationId: id,
        spaceId: space.id,
        revisionId: head.body.id,
        updatedBy: [expect.objectContaining({ id: org.owner.id })],
      });
      // Members' emails stay in the organization.
      expect(byType.space_content_updated.updatedBy).toEqual([
        expect.not.objectContaining({ email: expect.anything() as unknown }),
      ]);
      expect(byType.space_visibility_updated).toMatchObject({
        installationId: id,
        spaceId: space.id,
        previousVisibility: 'private',
        visibility: 'public',
      });
      for (const payload of payloads) expectMatchesSchema(payload, 'Event', GITBOOK_0202);
      // The script had the installation and the space installation in its environment.
      const detail = await org.owner.client
        .get(`/v1/integrations/${name}/events/${byType.space_content_updated.eventId as string}`)
        .expect(200);
      const answer = (detail.body.trace.logs as { level: string; message: string }[]).find(
        (log) => log.level === 'debug',
      )!;
      expect(JSON.parse(answer.message)).toMatchObject({
        installation: id,
        spaceInstallation: space.id,
      });
    });
  });

  describe('events of an integration', () => {
    it('are for the admins of its organization: 403 below, 404 elsewhere and for unknown ids', async () => {
      const org = await t.factories.organization();
      const other = await t.factories.organization();
      const { name, integration } = await publish(org);
      const { eventId } = await dispatch(integration, { mode: 'echo' });
      const editor = await t.factories.asMember(org, 'edit');
      await editor.get(`/v1/integrations/${name}/events`).expect(403);
      await editor.get(`/v1/integrations/${name}/events/${eventId}`).expect(403);
      await other.owner.client.get(`/v1/integrations/${name}/events`).expect(404);
      await org.owner.client.get(`/v1/integrations/${name}/events/nope`).expect(404);
      await org.owner.client.get(`/v1/integrations/${name}/events?limit=0`).expect(400);
    });
  });
});
