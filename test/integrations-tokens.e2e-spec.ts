import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { IntegrationDispatcher } from '../src/integrations/events/integration-dispatcher';
import { IntegrationInstallationEvents } from '../src/integrations/installations/installation-events';
import { IntegrationsRepository } from '../src/integrations/integrations.repository';
import { IntegrationTokens } from '../src/platform/auth/integration-tokens';
import { createTestApp, TestApp } from './helpers/app';
import { expectConforms, GITBOOK_0202 } from './helpers/conformance';
import type { TestOrganization } from './helpers/factories';

/** The `{error:{code,message}}` answer with `status`; the answer, to read its message. */
function expectError<T extends { status: number; body: { error?: { message: string } } }>(
  res: T,
  status: number,
): T & { body: { error: { message: string } } } {
  expect({ status: res.status, body: res.body }).toEqual({
    status,
    body: { error: { code: status, message: expect.any(String) as string } },
  });
  return res as T & { body: { error: { message: string } } };
}

/** A free port on loopback, for the API to listen on where its scripts call it. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * The tokens integration scripts call the API with (GitBook's `integration` and
 * `integration-installation` schemes): each event carries the integration's token, and the
 * installation's when it is about one; `createIntegrationInstallationToken` makes one with the
 * integration's. An installation's token reaches what it is installed on, within the scopes its
 * integration holds, and nothing once it is uninstalled.
 */
describe('integrations: tokens', () => {
  let t: TestApp;
  let apiUrl: string;

  beforeAll(async () => {
    const port = await freePort();
    apiUrl = `http://127.0.0.1:${port}`;
    // The scripts call the API at its public URL, through the relay: it listens there.
    t = await createTestApp({ PUBLIC_URL: apiUrl });
    await new Promise<void>((resolve) => t.server.listen(port, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await t.bindery.app.get(IntegrationInstallationEvents).settled();
    await t.close();
  });

  /**
   * A script of the tests' own: on a task `{calls}`, it makes the API calls listed, each with
   * the token it names (`integration`, `installation` from the environment, or `created`, the
   * one the first call returned), and answers their statuses and bodies; on any other event, it
   * answers the environment's tokens.
   */
  const SCRIPT = `
    export default {
      async fetch(request) {
        const form = await request.formData();
        const event = JSON.parse(form.get('event'));
        const environment = JSON.parse(form.get('environment'));
        const tokens = { ...environment.apiTokens, authToken: environment.authToken };
        if (event.type !== 'task' || !event.task.calls) return Response.json(tokens);
        const results = [];
        for (const call of event.task.calls) {
          const token = call.token === 'created' ? tokens.created : tokens[call.token];
          const response = await fetch(environment.apiEndpoint + call.path, {
            method: call.method ?? 'GET',
            headers: { authorization: 'Bearer ' + token, 'content-type': 'application/json' },
            body: call.body ? JSON.stringify(call.body) : undefined,
          });
          const body = await response.json().catch(() => null);
          if (call.keep) tokens.created = body.token;
          results.push({ status: response.status, body });
        }
        return Response.json(results);
      },
    };`;

  let count = 0;
  async function installed(org: TestOrganization, scopes: string[]) {
    const name = `tokens-${Date.now().toString(36)}-${(count += 1)}`;
    await org.owner.client
      .post(`/v1/integrations/${name}`, {
        title: 'Tokens',
        description: '',
        scopes,
        organization: org.id,
        script: SCRIPT,
      })
      .expect(200);
    const integration = (await t.bindery.app.get(IntegrationsRepository).findByName(name))!;
    const installation = await org.owner.client
      .post(`/v1/integrations/${name}/installations`, { organization: org.id })
      .expect(201);
    const at = `/v1/integrations/${name}/installations/${installation.body.id as string}`;
    return { name, integration, installationId: installation.body.id as string, at };
  }

  type Call = { path: string; token: string; method?: string; body?: object; keep?: true };
  async function run(
    integration: Parameters<IntegrationDispatcher['dispatch']>[0],
    calls: Call[],
    options: Parameters<IntegrationDispatcher['dispatch']>[2] = {},
  ): Promise<{ status: number; body: Record<string, unknown> }[]> {
    const result = await t.bindery.app
      .get(IntegrationDispatcher)
      .dispatch(integration, { type: 'task', task: { calls } }, options);
    expect(result.error).toBeUndefined();
    return JSON.parse(result.response!.body.toString()) as {
      status: number;
      body: Record<string, unknown>;
    }[];
  }

  /** The tokens an event about the installation carries, as the script received them. */
  async function tokensOf(
    integration: Parameters<IntegrationDispatcher['dispatch']>[0],
    installationId: string,
    organizationId: string,
  ) {
    const result = await t.bindery.app
      .get(IntegrationDispatcher)
      .dispatch(integration, { type: 'fetch_tokens' }, { installationId, organizationId });
    return JSON.parse(result.response!.body.toString()) as {
      integration: string;
      installation: string;
      authToken: string;
    };
  }

  it('lets a script make an installation token with its own, and read what it is installed on', async () => {
    const org = await t.factories.organization();
    const handbook = await t.factories.space(org, { title: 'Handbook' });
    const other = await t.factories.space(org, { title: 'Other' });
    const { name, integration, installationId, at } = await installed(org, [
      'space:content:read',
      'space:metadata:read',
    ]);
    await org.owner.client.patch(at, { space_selection: 'selected' }).expect(200);
    await org.owner.client.post(`${at}/spaces`, { space: handbook.id }).expect(201);

    const results = await run(integration, [
      {
        path: `/v1/integrations/${name}/installations/${installationId}/tokens`,
        method: 'POST',
        token: 'integration',
        keep: true,
      },
      { path: `/v1/spaces/${handbook.id}`, token: 'created' },
      { path: `/v1/spaces/${handbook.id}/content`, token: 'created' },
      { path: `/v1/spaces/${other.id}`, token: 'created' },
      { path: `/v1/orgs/${org.id}`, token: 'created' },
      { path: `/v1/spaces/${handbook.id}`, token: 'integration' },
    ]);
    expect(results.map((result) => result.status)).toEqual([200, 200, 200, 404, 200, 403]);
    expect(results[0].body).toEqual({ token: expect.any(String) as string });
    expect(results[1].body).toMatchObject({ id: handbook.id, title: 'Handbook' });
    expect(results[2].body).toMatchObject({ object: 'revision' });
    expect(results[4].body).toMatchObject({ id: org.id });
    expect(results[5].body).toMatchObject({
      error: { message: "This route takes an installation's token, not the integration's." },
    });
  });

  it("gives each event the integration's token, and the installation's when it is about one", async () => {
    const org = await t.factories.organization();
    const space = await t.factories.space(org);
    const { integration, installationId, at } = await installed(org, ['space:metadata:read']);
    const tokens = await tokensOf(integration, installationId, org.id);
    expect(tokens.authToken).toBe(tokens.installation);
    expectError(await t.as(tokens.installation).get(`/v1/spaces/${space.id}`), 404);
    // With its selection `all`, the installation covers all the organization's spaces.
    await org.owner.client.patch(at, { space_selection: 'all' }).expect(200);
    await t.as(tokens.installation).get(`/v1/spaces/${space.id}`).expect(200);
    const verified = t.bindery.app.get(IntegrationTokens).verify(tokens.installation);
    expect(verified).toEqual({
      kind: 'installation',
      integration: integration.id,
      installation: installationId,
      organization: org.id,
      scopes: ['space:metadata:read'],
    });
  });

  describe('createIntegrationInstallationToken', () => {
    it("answers a token for the integration's own token only: 403 for users, 404 for another installation", async () => {
      const org = await t.factories.organization();
      const other = await t.factories.organization();
      const mine = await installed(org, []);
      const theirs = await installed(other, []);
      const { integration: token } = await tokensOf(mine.integration, mine.installationId, org.id);

      const created = await t.as(token).post(`${mine.at}/tokens`).expect(200);
      expectConforms(created, 'createIntegrationInstallationToken', GITBOOK_0202);
      await t
        .as(created.body.token as string)
        .get(`/v1/orgs/${org.id}`)
        .expect(200);

      expectError(await org.owner.client.post(`${mine.at}/tokens`), 403);
      // Another integration's installation, its own installation under another name, unknown.
      expectError(await t.as(token).post(`${theirs.at}/tokens`), 404);
      expectError(
        await t
          .as(token)
          .post(`/v1/integrations/${theirs.name}/installations/${mine.installationId}/tokens`),
        404,
      );
      expectError(
        await t.as(token).post(`/v1/integrations/${mine.name}/installations/nope/tokens`),
        404,
      );
      // An installation's token does not make others.
      const { installation } = await tokensOf(mine.integration, mine.installationId, org.id);
      expectError(await t.as(installation).post(`${mine.at}/tokens`), 403);
    });
  });

  it('limits an installation token to its scopes, its organization, and reads', async () => {
    const org = await t.factories.organization();
    const other = await t.factories.organization();
    const theirs = await t.factories.space(other);
    const site = await t.factories.site(org);
    const space = await t.factories.space(org);
    const { integration, installationId, at } = await installed(org, ['space:metadata:read']);
    await org.owner.client.patch(at, { space_selection: 'all', site_selection: 'all' }).expect(200);
    const client = t.as((await tokensOf(integration, installationId, org.id)).installation);

    // Scopes: metadata but not content, no site scope.
    await client.get(`/v1/spaces/${space.id}`).expect(200);
    expect(
      expectError(await client.get(`/v1/spaces/${space.id}/content`), 403).body.error.message,
    ).toBe('This needs the integration to hold the space:content:read scope.');
    expectError(await client.get(`/v1/orgs/${org.id}/sites/${site.id}`), 403);
    // Another organization's content, and the organization's own routes it is not admitted to.
    expectError(await client.get(`/v1/spaces/${theirs.id}`), 404);
    expectError(await client.get(`/v1/orgs/${other.id}`), 404);
    expectError(await client.get(`/v1/orgs/${org.id}/members`), 403);
    expectError(await client.patch(`/v1/spaces/${space.id}`, { title: 'Taken' }), 403);
    expectError(await client.get('/v1/user'), 403);
    // A tampered or expired token.
    expectError(await t.as(`${client.token!}x`).get(`/v1/spaces/${space.id}`), 401);
    t.clock.advance(61 * 60 * 1000);
    expectError(await client.get(`/v1/spaces/${space.id}`), 401);
  });

  it('configures its own installation and reaches nothing once uninstalled', async () => {
    const org = await t.factories.organization();
    const space = await t.factories.space(org);
    const site = await t.factories.site(org);
    const { name, integration, installationId, at } = await installed(org, [
      'space:metadata:read',
      'site:metadata:read',
    ]);
    await org.owner.client.patch(at, { space_selection: 'all' }).expect(200);
    await org.owner.client.post(`${at}/sites`, { siteId: site.id }).expect(201);
    const client = t.as((await tokensOf(integration, installationId, org.id)).installation);

    const updated = await client.patch(at, { externalIds: ['acme-42'] }).expect(200);
    expectConforms(updated, 'updateIntegrationInstallation', GITBOOK_0202);
    expect(updated.body.externalIds).toEqual(['acme-42']);
    await client.get(at).expect(200);
    await client.get(`/v1/integrations/${name}`).expect(200);
    await client.get(`/v1/orgs/${org.id}/sites/${site.id}`).expect(200);
    // It does not read its integration's events (the integration's token does).
    expectError(await client.get(`/v1/integrations/${name}/events`), 403);
    const audit = await org.owner.client.get(`/v1/orgs/${org.id}/audit-events`).expect(200);
    expect(audit.body.items).toContainEqual(
      expect.objectContaining({ actor: { type: 'installation', id: installationId } }),
    );

    await org.owner.client.delete(at).expect(205);
    expectError(await client.get(`/v1/spaces/${space.id}`), 404);
    expectError(await client.get(`/v1/orgs/${org.id}`), 404);
    expectError(await client.get(at), 404);
  });

  it("lists all its installations, in every organization, with the integration's own token", async () => {
    const org = await t.factories.organization();
    const other = await t.factories.organization();
    const space = await t.factories.space(other);
    const name = `tokens-public-${Date.now().toString(36)}`;
    await t.admin
      .post(`/v1/integrations/${name}`, {
        title: 'Public',
        description: '',
        scopes: [],
        visibility: 'public',
        organization: org.id,
        script: SCRIPT,
      })
      .expect(200);
    const integration = (await t.bindery.app.get(IntegrationsRepository).findByName(name))!;
    const ids: string[] = [];
    for (const owner of [org, other]) {
      const res = await owner.owner.client
        .post(`/v1/integrations/${name}/installations`, { organization: owner.id })
        .expect(201);
      ids.push(res.body.id as string);
    }
    const at = `/v1/integrations/${name}/installations/${ids[1]}`;
    await other.owner.client.patch(at, { externalIds: ['repo-7'] }).expect(200);
    await other.owner.client.post(`${at}/spaces`, { space: space.id }).expect(201);
    await other.owner.client
      .patch(`${at}/spaces/${space.id}`, { externalIds: ['repo-7'] })
      .expect(200);
    const { integration: token } = await tokensOf(integration, ids[0], org.id);
    const client = t.as(token);

    const all = await client.get(`/v1/integrations/${name}/installations`).expect(200);
    expectConforms(all, 'listIntegrationInstallations', GITBOOK_0202);
    expect((all.body.items as { id: string }[]).map((item) => item.id).sort()).toEqual(
      [...ids].sort(),
    );
    const byExternalId = await client
      .get(`/v1/integrations/${name}/installations?externalId=repo-7`)
      .expect(200);
    expect(byExternalId.body.items).toEqual([expect.objectContaining({ id: ids[1] })]);
    const spaces = await client
      .get(`/v1/integrations/${name}/spaces?externalId=repo-7&extended=true`)
      .expect(200);
    expectConforms(spaces, 'listIntegrationSpaceInstallations', GITBOOK_0202);
    expect(spaces.body.items).toEqual([
      expect.objectContaining({ installation: ids[1], space: space.id }),
    ]);
    const sites = await client.get(`/v1/integrations/${name}/sites`).expect(200);
    expectConforms(sites, 'listIntegrationSiteInstallations', GITBOOK_0202);
    expect(sites.body.items).toEqual([]);
    // A member still sees only the organizations where it lists installations.
    const mine = await org.owner.client.get(`/v1/integrations/${name}/installations`).expect(200);
    expect(mine.body.items).toEqual([expect.objectContaining({ id: ids[0] })]);
    // Another integration's, and an installation's token, do not list them.
    const another = await installed(org, []);
    const theirs = await tokensOf(another.integration, another.installationId, org.id);
    expectError(await t.as(theirs.integration).get(`/v1/integrations/${name}/installations`), 404);
    expectError(await t.as(theirs.installation).get(`/v1/integrations/${name}/spaces`), 403);
    expectError(await client.get(`/v1/integrations/${name}/spaces?limit=nope`), 400);
  });

  describe('queueIntegrationTask', () => {
    /** The `task` events recorded for the integration, once `count` of them are there. */
    async function taskEvents(org: TestOrganization, name: string, count: number) {
      for (let attempt = 0; attempt < 100; attempt += 1) {
        const list = await org.owner.client.get(`/v1/integrations/${name}/events`).expect(200);
        const tasks = (list.body.items as { payload: { type: string; task?: object } }[]).filter(
          (item) => item.payload.type === 'task',
        );
        if (tasks.length >= count) return tasks;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`fewer than ${count} task events for ${name}`);
    }

    it('sends the task back to the script when due, with its payload', async () => {
      const org = await t.factories.organization();
      const { name, integration, installationId } = await installed(org, []);
      const { integration: token } = await tokensOf(integration, installationId, org.id);
      const client = t.as(token);

      const queued = await client
        .post(`/v1/integrations/${name}/tasks`, { task: { sync: 'handbook', page: 2 } })
        .expect(204);
      expectConforms(queued, 'queueIntegrationTask', GITBOOK_0202);
      // Due in an hour: not sent meanwhile.
      await client
        .post(`/v1/integrations/${name}/tasks`, { task: { later: true }, schedule: 3600 })
        .expect(204);
      const [event] = await taskEvents(org, name, 1);
      expect(event.payload).toEqual({
        eventId: expect.any(String) as string,
        type: 'task',
        task: { sync: 'handbook', page: 2 },
      });
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(await taskEvents(org, name, 1)).toHaveLength(1);
    });

    it("answers 400 for a bad task, 403 to users and installations, 404 for another integration's", async () => {
      const org = await t.factories.organization();
      const mine = await installed(org, []);
      const theirs = await installed(org, []);
      const tokens = await tokensOf(mine.integration, mine.installationId, org.id);
      const client = t.as(tokens.integration);
      const tasks = `/v1/integrations/${mine.name}/tasks`;

      for (const body of [
        {},
        { task: ['not', 'an', 'object'] },
        { task: 'sync' },
        { task: {}, schedule: 86401 },
        { task: {}, schedule: -1 },
        { task: { blob: 'x'.repeat(70 * 1024) } },
      ]) {
        expectError(await client.post(tasks, body), 400);
      }
      expectError(await org.owner.client.post(tasks, { task: {} }), 403);
      expectError(await t.as(tokens.installation).post(tasks, { task: {} }), 403);
      expectError(await client.post(`/v1/integrations/${theirs.name}/tasks`, { task: {} }), 404);
      expectError(
        await client.post('/v1/integrations/unknown-integration/tasks', { task: {} }),
        404,
      );
    });
  });
});
