import { compressToEncodedURIComponent } from 'lz-string';
import { IntegrationInstallationEvents } from '../src/integrations/installations/installation-events';
import { createTestApp, TestApp } from './helpers/app';
import { expectConforms, expectMatchesSchema, GITBOOK_0202 } from './helpers/conformance';
import type { TestOrganization } from './helpers/factories';

/**
 * Integration blocks on the published side: GitBook's renderer draws a page's integration block
 * with the published site's token (`renderIntegrationUIWithPost`, context `document`, not
 * editable). That token renders the blocks of the spaces its site shows its visitor, through
 * the space's installation, and nothing else: not another site's space, nor one no site
 * publishes, nor a space its visitor may not see, nor a configuration form.
 */
describe('integrations: blocks rendered for a published site', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ SITES_URL: 'http://docs.localhost/{organization}' });
  });
  afterAll(() => t.close());

  /**
   * A script of the tests' own, in the manner of GitBook's Mermaid integration: its `diagram`
   * block answers an element naming the space installation it was rendered for, and whether
   * the event named a user.
   */
  const SCRIPT = `
    export default {
      async fetch(request) {
        const form = await request.formData();
        const event = JSON.parse(form.get('event'));
        const environment = JSON.parse(form.get('environment'));
        if (event.type !== 'ui_render') return new Response('ok');
        if (event.componentId !== 'diagram') return new Response('no such component', { status: 404 });
        return Response.json(
          {
            type: 'element',
            state: { content: event.props.content },
            props: event.props,
            element: {
              type: 'block',
              children: [
                {
                  type: 'text',
                  children: [
                    event.props.content + ' in ' + environment.spaceInstallation.space +
                      (event.auth ? ' for ' + event.auth.userId : ' for a visitor'),
                  ],
                },
              ],
            },
          },
          { headers: { 'cache-control': 'max-age=86400' } },
        );
      },
    };`;

  let count = 0;
  /** An integration of `org` (`private`, or `public` as GitBook's Mermaid is). */
  async function published(
    org: TestOrganization,
    visibility: 'private' | 'public' = 'private',
  ): Promise<string> {
    const name = `blocks-${Date.now().toString(36)}-${(count += 1)}`;
    await (visibility === 'public' ? t.admin : org.owner.client)
      .post(`/v1/integrations/${name}`, {
        title: 'Diagrams',
        description: 'Draws diagrams',
        scopes: [],
        blocks: [{ id: 'diagram', title: 'Diagram' }],
        visibility,
        target: 'space',
        organization: org.id,
        script: SCRIPT,
      })
      .expect(200);
    return name;
  }

  /** `name` installed on `org` (once), and on each of `spaceIds`. */
  async function installOnSpaces(org: TestOrganization, name: string, ...spaceIds: string[]) {
    const base = `/v1/integrations/${name}/installations`;
    const existing = await org.owner.client.get(base).expect(200);
    const installation =
      (existing.body.items as { id: string }[])[0]?.id ??
      ((await org.owner.client.post(base, { organization: org.id }).expect(201)).body.id as string);
    for (const space of spaceIds) {
      await org.owner.client.post(`${base}/${installation}/spaces`, { space }).expect(201);
    }
    await t.bindery.app.get(IntegrationInstallationEvents).settled();
  }

  interface PublishedSite {
    siteId: string;
    /** The space of its one visible site space. */
    spaceId: string;
    /** The space of a site space only visitors with `staff` claims see. */
    hiddenSpaceId: string;
  }

  /** A published site of `org` with a visible and a hidden site space. */
  async function publishedSite(org: TestOrganization): Promise<PublishedSite> {
    const site = await t.factories.site(org);
    const shown = await t.factories.siteSpace(org, site.id, { spaceTitle: 'Guide' });
    const hidden = await t.factories.siteSpace(org, site.id, { spaceTitle: 'Staff' });
    const sitePath = `/v1/orgs/${org.id}/sites/${site.id}`;
    await org.owner.client
      .patch(`${sitePath}/site-spaces/${hidden.id}`, { condition: 'visitor.claims.staff === true' })
      .expect(200);
    await org.owner.client.post(`${sitePath}/publish`).expect(200);
    return { siteId: site.id, spaceId: shown.space.id, hiddenSpaceId: hidden.space.id };
  }

  /** The token GitBook's renderer holds for a visitor of the site (the published lookup's). */
  async function siteToken(org: TestOrganization, siteId: string): Promise<string> {
    const lookup = await t.anonymous
      .post('/v1/urls/published', { url: `http://docs.localhost/${org.id}/${siteId}` })
      .expect(200);
    return lookup.body.apiToken as string;
  }

  /** The request GitBook's renderer sends for a block of a page in `spaceId`. */
  const blockRequest = (spaceId: string, extra: object = {}) => ({
    componentId: 'diagram',
    props: { content: 'graph TD; A-->B' },
    context: { type: 'document', spaceId, editable: false, theme: 'light' },
    ...extra,
  });

  const expectError = (res: { body: unknown }, code: number) =>
    expect(res.body).toEqual({ error: { code, message: expect.any(String) as string } });

  it("renders a block of a space its site shows with the site's token, as GitBook's renderer asks", async () => {
    const org = await t.factories.organization();
    const name = await published(org, 'public');
    const site = await publishedSite(org);
    await installOnSpaces(org, name, site.spaceId);
    const reader = t.as(await siteToken(org, site.siteId));

    const res = await reader
      .post(`/v1/integrations/${name}/render`, blockRequest(site.spaceId))
      .expect(200);
    expectConforms(res, 'renderIntegrationUIWithPost', GITBOOK_0202);
    expect(res.headers['cache-control']).toBe('private, max-age=86400');
    expect(res.body).toEqual({
      type: 'element',
      state: { content: 'graph TD; A-->B' },
      props: { content: 'graph TD; A-->B' },
      element: {
        type: 'block',
        children: [
          { type: 'text', children: [`graph TD; A-->B in ${site.spaceId} for a visitor`] },
        ],
      },
    });

    // The cacheable GET too.
    const encoded = compressToEncodedURIComponent(JSON.stringify(blockRequest(site.spaceId)));
    const got = await reader.get(`/v1/integrations/${name}/render?request=${encoded}`).expect(200);
    expectConforms(got, 'renderIntegrationUIWithGet', GITBOOK_0202);
    expect(got.body).toEqual(res.body);

    // The script heard a render of the space's block, for nobody in particular.
    const events = await org.owner.client
      .get(`/v1/integrations/${name}/events?limit=1`)
      .expect(200);
    const [latest] = events.body.items as { payload: Record<string, unknown> }[];
    expect(latest.payload).toMatchObject({
      type: 'ui_render',
      spaceId: site.spaceId,
      componentId: 'diagram',
      context: { type: 'document', spaceId: site.spaceId, editable: false },
    });
    expect(latest.payload.auth).toBeUndefined();
    expectMatchesSchema(latest.payload, 'UIRenderEvent', GITBOOK_0202);

    // A member's render still names the member.
    const member = await t.factories.member(org, 'read');
    const drawn = await member.client
      .post(`/v1/integrations/${name}/render`, blockRequest(site.spaceId))
      .expect(200);
    expect(JSON.stringify(drawn.body)).toContain(`for ${member.id}`);
  });

  it("refuses another site's space, a space no site publishes, a hidden one and an unpublished site (404)", async () => {
    const org = await t.factories.organization();
    const name = await published(org);
    const mine = await publishedSite(org);
    const theirs = await publishedSite(org);
    const unpublished = await t.factories.space(org, { title: 'Drafts' });
    // Installed on every one of them: only the site decides.
    await installOnSpaces(
      org,
      name,
      mine.spaceId,
      mine.hiddenSpaceId,
      theirs.spaceId,
      unpublished.id,
    );
    const reader = t.as(await siteToken(org, mine.siteId));
    await reader.post(`/v1/integrations/${name}/render`, blockRequest(mine.spaceId)).expect(200);

    for (const spaceId of [theirs.spaceId, unpublished.id, mine.hiddenSpaceId]) {
      const res = await reader
        .post(`/v1/integrations/${name}/render`, blockRequest(spaceId))
        .expect(404);
      expectError(res, 404);
    }
    // The same through the GET.
    const encoded = compressToEncodedURIComponent(JSON.stringify(blockRequest(theirs.spaceId)));
    await reader.get(`/v1/integrations/${name}/render?request=${encoded}`).expect(404);

    // Once the site is unpublished, its token renders nothing of it either.
    await org.owner.client.post(`/v1/orgs/${org.id}/sites/${mine.siteId}/unpublish`).expect(200);
    await reader.post(`/v1/integrations/${name}/render`, blockRequest(mine.spaceId)).expect(404);
  });

  it('answers 404 where the integration is not installed, or is private to another organization', async () => {
    const org = await t.factories.organization();
    const name = await published(org);
    const site = await publishedSite(org);
    const reader = t.as(await siteToken(org, site.siteId));
    // Not installed in the organization at all.
    await reader.post(`/v1/integrations/${name}/render`, blockRequest(site.spaceId)).expect(404);
    // Installed in the organization, not on the space.
    const elsewhere = await t.factories.space(org, { title: 'Elsewhere' });
    await installOnSpaces(org, name, elsewhere.id);
    await reader.post(`/v1/integrations/${name}/render`, blockRequest(site.spaceId)).expect(404);
    await reader.post(`/v1/integrations/nope-nope/render`, blockRequest(site.spaceId)).expect(404);

    // Another organization's site: the integration is private to `org`.
    const stranger = await t.factories.organization();
    const strangerSite = await publishedSite(stranger);
    const foreign = t.as(await siteToken(stranger, strangerSite.siteId));
    await foreign
      .post(`/v1/integrations/${name}/render`, blockRequest(strangerSite.spaceId))
      .expect(404);
    // Nor does it reach `org`'s space, even once the integration is installed there.
    await installOnSpaces(org, name, site.spaceId);
    await foreign.post(`/v1/integrations/${name}/render`, blockRequest(site.spaceId)).expect(404);
    await reader.post(`/v1/integrations/${name}/render`, blockRequest(site.spaceId)).expect(200);
  });

  it('refuses an editable render and configuration forms to the site token (403)', async () => {
    const org = await t.factories.organization();
    const name = await published(org);
    const site = await publishedSite(org);
    await installOnSpaces(org, name, site.spaceId);
    const reader = t.as(await siteToken(org, site.siteId));
    const editable = await reader
      .post(
        `/v1/integrations/${name}/render`,
        blockRequest(site.spaceId, {
          context: { type: 'document', spaceId: site.spaceId, editable: true, theme: 'light' },
        }),
      )
      .expect(403);
    expectError(editable, 403);
    for (const context of [
      { type: 'configuration_space', spaceId: site.spaceId, theme: 'light' },
      { type: 'configuration_account', organizationId: org.id, theme: 'light' },
    ]) {
      const res = await reader
        .post(`/v1/integrations/${name}/render`, blockRequest(site.spaceId, { context }))
        .expect(403);
      expectError(res, 403);
    }
    // Its other integration routes stay closed to it.
    await reader.get(`/v1/integrations/${name}`).expect(403);
    await reader.get(`/v1/integrations/${name}/installations`).expect(403);
  });
});
