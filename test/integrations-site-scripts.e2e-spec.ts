import { IntegrationInstallationEvents } from '../src/integrations/installations/installation-events';
import { createTestApp, TestApp } from './helpers/app';
import type { Client } from './helpers/client';
import { expectConforms, expectMatchesSchema, GITBOOK_0202 } from './helpers/conformance';
import type { TestOrganization } from './helpers/factories';

/**
 * The scripts integrations inject in published sites (GitBook's `site:script:inject`): the
 * published site lists them (for members and for its reader token), and each script's URL is
 * answered by the integration's script, run in workerd, as GitBook asks it: a
 * `fetch_published_script` event with the site installation in its environment. Its answer is
 * served as JavaScript, with its cache and without its cookies; a script that fails is a 502,
 * recorded with its event.
 */
describe('integrations: site scripts', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Published sites at http://docs.localhost/<organization>/<site>: the reader token's lookup.
    t = await createTestApp({ SITES_URL: 'http://docs.localhost/{organization}' });
  });
  afterAll(() => t.close());

  /**
   * A script of the tests' own, in the manner of GitBook's Google Analytics integration: it
   * answers `fetch_published_script` with a script embedding the site installation's
   * `tracking_id` and what it received; the site installation's `mode` makes it fail (`throw`,
   * `fail`: a 500) or answer HTML without a cache (`plain`).
   */
  const SCRIPT = `
    export default {
      async fetch(request) {
        const form = await request.formData();
        const event = JSON.parse(form.get('event'));
        const environment = JSON.parse(form.get('environment'));
        if (event.type !== 'fetch_published_script') return new Response('ok');
        const configuration = environment.siteInstallation.configuration;
        if (configuration.mode === 'throw') throw new Error('the script broke');
        if (configuration.mode === 'fail') return new Response('nope', { status: 500 });
        const probe = {
          trackingId: configuration.tracking_id,
          event,
          installation: environment.installation.id,
          site: environment.siteInstallation.site,
        };
        const script = 'window.probe = ' + JSON.stringify(probe) + ';';
        if (configuration.mode === 'plain') {
          return new Response(script, { headers: { 'content-type': 'text/html', 'set-cookie': 'visitor=1; Path=/' } });
        }
        return new Response(script, {
          headers: {
            'Content-Type': 'application/javascript',
            'Cache-Control': 'max-age=604800',
            'Set-Cookie': 'session=stolen; Path=/',
          },
        });
      },
    };`;

  let count = 0;
  /** A private integration of `org` with a site configuration requiring `tracking_id`. */
  async function published(
    org: TestOrganization,
    scopes = ['site:script:inject'],
  ): Promise<string> {
    const name = `scripts-${Date.now().toString(36)}-${(count += 1)}`;
    await org.owner.client
      .post(`/v1/integrations/${name}`, {
        runtime: 'v2',
        title: 'Analytics',
        description: 'Tracks the visitors of a site',
        scopes,
        configurations: {
          site: {
            properties: {
              tracking_id: { title: 'Tracking ID', type: 'string' },
              mode: { title: 'Mode', type: 'string', enum: ['ok', 'plain', 'throw', 'fail'] },
            },
            required: ['tracking_id'],
          },
        },
        visibility: 'private',
        target: 'all',
        organization: org.id,
        script: SCRIPT,
      })
      .expect(200);
    return name;
  }

  /** A published site of `org`, showing a space. */
  async function publishedSite(org: TestOrganization): Promise<string> {
    const site = await t.factories.site(org);
    await t.factories.siteSpace(org, site.id, { spaceTitle: 'Guide' });
    await org.owner.client.post(`/v1/orgs/${org.id}/sites/${site.id}/publish`).expect(200);
    return site.id;
  }

  /** `name` installed on `org` and on `siteId`, with the site installation's `configuration`. */
  async function installOnSite(
    org: TestOrganization,
    name: string,
    siteId: string,
    configuration: Record<string, unknown> | null = { tracking_id: 'G-TRACK42' },
  ): Promise<string> {
    const base = `/v1/integrations/${name}/installations`;
    const existing = await org.owner.client.get(base).expect(200);
    const installation =
      (existing.body.items as { id: string }[])[0]?.id ??
      ((await org.owner.client.post(base, { organization: org.id }).expect(201)).body.id as string);
    await org.owner.client.post(`${base}/${installation}/sites`, { siteId }).expect(201);
    if (configuration) {
      await org.owner.client
        .patch(`${base}/${installation}/sites/${siteId}`, { configuration })
        .expect(200);
    }
    await t.bindery.app.get(IntegrationInstallationEvents).settled();
    return installation;
  }

  const scriptPath = (name: string, installation: string, siteId: string) =>
    `/v1/integrations/${name}/installations/${installation}/sites/${siteId}/script.js`;

  /** GET of a script, its body read as text whatever its type. */
  const getScript = (client: Client, path: string) =>
    client
      .get(path)
      .buffer(true)
      .parse((res, callback) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => callback(null, text));
      });

  /** What the script embedded: `window.probe = {...};`. */
  function probeOf(body: unknown): {
    trackingId: string;
    event: Record<string, unknown>;
    installation: string;
    site: string;
  } {
    const match = /^window\.probe = (.*);$/s.exec(body as string);
    expect(match).not.toBeNull();
    return JSON.parse(match![1]) as ReturnType<typeof probeOf>;
  }

  type EventItem = { id: string; status: string; payload: Record<string, unknown> };
  /** The integration's `fetch_published_script` events, newest first. */
  async function scriptEvents(org: TestOrganization, name: string): Promise<EventItem[]> {
    const res = await org.owner.client.get(`/v1/integrations/${name}/events`).expect(200);
    expectConforms(res, 'listIntegrationEvents', GITBOOK_0202);
    return (res.body.items as EventItem[]).filter(
      (item) => item.payload.type === 'fetch_published_script',
    );
  }

  const expectError = (res: { body: unknown }, code: number) =>
    expect(res.body).toEqual({ error: { code, message: expect.any(String) as string } });

  it('lists the script in the published site, for members and for its reader token, and serves it from the integration', async () => {
    const org = await t.factories.organization();
    const name = await published(org);
    const siteId = await publishedSite(org);
    const installation = await installOnSite(org, name, siteId);
    // An integration without the scope adds no script.
    const quiet = await published(org, ['site:metadata:read']);
    await installOnSite(org, quiet, siteId);

    const member = await t.factories.asMember(org, 'read');
    const profile = await member.get(`/v1/orgs/${org.id}/sites/${siteId}/published`).expect(200);
    expectConforms(profile, 'getPublishedContentSite', GITBOOK_0202);
    expect(profile.body.scripts).toEqual([
      { script: `http://bindery.test${scriptPath(name, installation, siteId)}`, cookies: false },
    ]);
    // The same as listSiteIntegrationScripts answers.
    const listed = await member
      .get(`/v1/orgs/${org.id}/sites/${siteId}/integration-scripts`)
      .expect(200);
    expect(listed.body).toEqual(profile.body.scripts);

    const lookup = await t.anonymous
      .post('/v1/urls/published', { url: `http://docs.localhost/${org.id}/${siteId}` })
      .expect(200);
    const reader = t.as(lookup.body.apiToken as string);
    const read = await reader.get(`/v1/orgs/${org.id}/sites/${siteId}/published`).expect(200);
    expectConforms(read, 'getPublishedContentSite', GITBOOK_0202);
    expect(read.body.scripts).toEqual(profile.body.scripts);

    // A visitor's browser loads it: no token.
    const res = await getScript(t.anonymous, scriptPath(name, installation, siteId)).expect(200);
    expect(res.headers['content-type']).toBe('application/javascript');
    expect(res.headers['cache-control']).toBe('max-age=604800');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    // Never a cookie of the API's origin (where published sites keep their visitors' sessions).
    expect(res.headers['set-cookie']).toBeUndefined();
    const probe = probeOf(res.body);
    expect(probe).toMatchObject({ trackingId: 'G-TRACK42', installation, site: siteId });
    expect(probe.event).toEqual({
      eventId: expect.any(String) as string,
      type: 'fetch_published_script',
      installationId: installation,
      siteId,
    });
    expectMatchesSchema(probe.event, 'FetchPublishedScriptEvent', GITBOOK_0202);

    const [event] = await scriptEvents(org, name);
    expect(event).toMatchObject({ id: probe.event.eventId, status: 'success' });
    expect(event.payload).toEqual(probe.event);
  });

  it('answers JavaScript with a short public cache when the script says neither', async () => {
    const org = await t.factories.organization();
    const name = await published(org);
    const siteId = await publishedSite(org);
    const installation = await installOnSite(org, name, siteId, {
      tracking_id: 'G-PLAIN',
      mode: 'plain',
    });
    const res = await getScript(t.anonymous, scriptPath(name, installation, siteId)).expect(200);
    expect(res.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(probeOf(res.body).trackingId).toBe('G-PLAIN');
  });

  it('answers 404 unless the integration, with the scope, is active on the published site', async () => {
    const org = await t.factories.organization();
    const name = await published(org);
    const siteId = await publishedSite(org);
    const installation = await installOnSite(org, name, siteId);
    const client = t.anonymous;
    await getScript(client, scriptPath(name, installation, siteId)).expect(200);

    // An unknown integration or installation, another organization's installation.
    expectError(await client.get(scriptPath('nope-nope', installation, siteId)).expect(404), 404);
    expectError(await client.get(scriptPath(name, 'nope', siteId)).expect(404), 404);
    const other = await t.factories.organization();
    const otherName = await published(other);
    const otherSite = await publishedSite(other);
    const otherInstallation = await installOnSite(other, otherName, otherSite);
    await client.get(scriptPath(name, otherInstallation, otherSite)).expect(404);
    await client.get(scriptPath(otherName, installation, siteId)).expect(404);

    // A published site of the organization it is not installed on.
    const elsewhere = await publishedSite(org);
    await client.get(scriptPath(name, installation, elsewhere)).expect(404);
    await client.get(scriptPath(name, installation, 'nope')).expect(404);

    // An integration without site:script:inject, active on the site.
    const quiet = await published(org, ['site:metadata:read']);
    const quietInstallation = await installOnSite(org, quiet, siteId);
    await client.get(scriptPath(quiet, quietInstallation, siteId)).expect(404);

    // Pending: the site installation's required configuration is missing.
    const pendingSite = await publishedSite(org);
    await installOnSite(org, name, pendingSite, null);
    await client.get(scriptPath(name, installation, pendingSite)).expect(404);

    // An unpublished site, and the site once unpublished.
    const draft = await t.factories.site(org);
    await installOnSite(org, name, draft.id);
    await client.get(scriptPath(name, installation, draft.id)).expect(404);
    await org.owner.client.post(`/v1/orgs/${org.id}/sites/${siteId}/unpublish`).expect(200);
    expectError(await client.get(scriptPath(name, installation, siteId)).expect(404), 404);

    // The script heard only of the one it served.
    expect(await scriptEvents(org, name)).toHaveLength(1);
    expect(await scriptEvents(org, quiet)).toHaveLength(0);
  });

  it('answers 502 when the script throws or answers 500, recorded as failed events', async () => {
    const org = await t.factories.organization();
    const name = await published(org);
    const throwing = await publishedSite(org);
    const failing = await publishedSite(org);
    const installation = await installOnSite(org, name, throwing, {
      tracking_id: 'G-1',
      mode: 'throw',
    });
    await installOnSite(org, name, failing, { tracking_id: 'G-2', mode: 'fail' });

    const thrown = await t.anonymous.get(scriptPath(name, installation, throwing)).expect(502);
    expectError(thrown, 502);
    expect(thrown.headers['content-type']).toMatch(/^application\/json/);
    const failed = await t.anonymous.get(scriptPath(name, installation, failing)).expect(502);
    expectError(failed, 502);
    expect(failed.body.error.message).toMatch(/answered 500/);

    const events = await scriptEvents(org, name);
    expect(events.map((event) => [event.payload.siteId, event.status])).toEqual([
      [failing, 'failed'],
      [throwing, 'failed'],
    ]);
    for (const event of events) {
      expectMatchesSchema(event.payload, 'FetchPublishedScriptEvent', GITBOOK_0202);
    }
    const one = await org.owner.client
      .get(`/v1/integrations/${name}/events/${events[0].id}`)
      .expect(200);
    expectConforms(one, 'getIntegrationEvent', GITBOOK_0202);
    expect(one.body.event).toMatchObject({ status: 'failed' });
  });
});
