import { createTestApp, TEST_PUBLIC_URL, TestApp } from './helpers/app';
import { expectConforms, GITBOOK_0202 } from './helpers/conformance';
import type { TestOrganization } from './helpers/factories';

/**
 * getSitePublishingPreviewById: a one-hour URL of the renderer's multi-id form whose token reads
 * the site through Bindery's published API, published or not, as a visitor with the claims given.
 */
const RENDERER = 'https://renderer.example.com';

function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'));
}

describe('GET …/sites/{siteId}/publishing/preview (getSitePublishingPreviewById)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ RENDERER_PUBLIC_URL: RENDERER });
  });
  afterAll(() => t.close());

  const sitePath = (org: TestOrganization, siteId: string) => `/v1/orgs/${org.id}/sites/${siteId}`;
  const previewPath = (org: TestOrganization, siteId: string) =>
    `${sitePath(org, siteId)}/publishing/preview`;

  /** An unpublished share-link site: Guides (default section), Beta (only with the claim). */
  async function site(org: TestOrganization) {
    const created = await t.factories.site(org, { title: 'Acme', visibility: 'share-link' });
    const path = sitePath(org, created.id);
    await org.owner.client
      .put(`${path}/adaptive-schema`, {
        jsonSchema: {
          type: 'object',
          properties: {
            unsigned: {
              type: 'object',
              description: 'Unsigned claims of the site visitor.',
              properties: { beta: { type: 'boolean', description: 'Beta tester' } },
              additionalProperties: false,
            },
          },
          additionalProperties: false,
        },
      })
      .expect(200);
    const guides = await t.factories.siteSection(org, created.id, { spaceTitle: 'Guides' });
    const beta = await t.factories.siteSection(org, created.id, { spaceTitle: 'Beta' });
    await org.owner.client
      .patch(`${path}/sections/${beta.id}`, { condition: 'visitor.claims.unsigned.beta === true' })
      .expect(200);
    const draft = await org.owner.client
      .post(`${path}/external-links`, { title: 'Soon', url: 'https://soon.example', draft: true })
      .expect(201);
    return { siteId: created.id, path, guides, beta, draftLink: draft.body.id as string };
  }

  function tokenOf(url: string): string {
    const parsed = new URL(url);
    return parsed.searchParams.get('token')!;
  }

  it('answers a renderer URL whose token reads the unpublished site as published, drafts included', async () => {
    const org = await t.factories.organization();
    const { siteId, path, guides, beta, draftLink } = await site(org);
    const res = await org.owner.client
      .get(`${previewPath(org, siteId)}?target=/install`)
      .expect(200);
    expectConforms(res, 'getSitePublishingPreviewById', GITBOOK_0202);
    const url = new URL(res.body.url);
    expect(`${url.origin}${url.pathname}`).toBe(`${RENDERER}/~site/${siteId}/install`);
    expect(url.searchParams.get('api')).toBe(TEST_PUBLIC_URL.replace(/\/+$/, ''));
    const token = tokenOf(res.body.url);
    const claims = claimsOf(token);
    expect(claims).toMatchObject({
      kind: 'site',
      organization: org.id,
      site: siteId,
      siteSection: guides.id,
      siteSpace: guides.siteSpaces[0].id,
      space: guides.siteSpaces[0].space.id,
      spaces: [guides.siteSpaces[0].space.id],
      preview: { draft: true },
    });
    expect((claims.exp as number) * 1000 - t.clock.now().getTime()).toBeLessThanOrEqual(
      60 * 60 * 1000,
    );

    // What the renderer reads with it: the published profile, the space, not the hidden one.
    const reader = t.as(token);
    const published = await reader.get(`${path}/published`).expect(200);
    expectConforms(published, 'getPublishedContentSite', GITBOOK_0202);
    const ids = JSON.stringify(published.body.structure);
    expect(ids).toContain(guides.id);
    expect(ids).toContain(draftLink);
    expect(ids).not.toContain(beta.id);
    await reader.get(`/v1/spaces/${guides.siteSpaces[0].space.id}`).expect(200);
    await reader.get(`/v1/spaces/${beta.siteSpaces[0].space.id}`).expect(404);
    // An hour later it reads nothing.
    t.clock.advance(61 * 60 * 1000);
    await reader.get(`${path}/published`).expect(401);
  });

  it('previews for the claims given, the site space asked for, without drafts when draft=false', async () => {
    const org = await t.factories.organization();
    const { siteId, path, beta, draftLink } = await site(org);
    const res = await org.owner.client
      .get(previewPath(org, siteId))
      .query({ claims: '(unsigned:(beta:!t))', siteSpace: beta.siteSpaces[0].id, draft: 'false' })
      .expect(200);
    expectConforms(res, 'getSitePublishingPreviewById', GITBOOK_0202);
    const token = tokenOf(res.body.url);
    expect(claimsOf(token)).toMatchObject({
      siteSpace: beta.siteSpaces[0].id,
      siteSection: beta.id,
      claims: { unsigned: { beta: true } },
      preview: { draft: false },
    });
    const published = await t.as(token).get(`${path}/published`).expect(200);
    const ids = JSON.stringify(published.body.structure);
    expect(ids).toContain(beta.id);
    expect(ids).not.toContain(draftLink);
    await t.as(token).get(`/v1/spaces/${beta.siteSpaces[0].space.id}`).expect(200);
  });

  it('answers 400 for bad claims, an unknown or hidden site space, a bad target or draft', async () => {
    const org = await t.factories.organization();
    const { siteId, beta } = await site(org);
    const client = org.owner.client;
    const cases: [Record<string, string>, string][] = [
      [{ claims: '(beta:' }, 'claims: not Rison'],
      [{ claims: '!(a)' }, 'claims: must be a Rison object'],
      [{ siteSpace: 'nope' }, 'siteSpace: no site space nope in this site.'],
      [{ siteSpace: beta.siteSpaces[0].id }, 'is not shown to a visitor with these claims'],
      [{ target: 'https://elsewhere.example/x' }, 'target: a path'],
      [{ draft: 'maybe' }, 'draft must be true or false'],
    ];
    for (const [query, message] of cases) {
      const res = await client.get(previewPath(org, siteId)).query(query).expect(400);
      expectConforms(res, 'getSitePublishingPreviewById', GITBOOK_0202);
      expect(res.body.error.message).toContain(message);
    }
    const empty = await t.factories.site(org, { title: 'Empty' });
    const none = await client.get(previewPath(org, empty.id)).expect(400);
    expect(none.body).toEqual({
      error: { code: 400, message: 'This site shows no space to preview.' },
    });
  });

  it('is 404 for an unknown site or another organization, 403 to a guest', async () => {
    const org = await t.factories.organization();
    const { siteId } = await site(org);
    const missing = await org.owner.client.get(previewPath(org, 'nosuchsite')).expect(404);
    expect(missing.body).toEqual({ error: { code: 404, message: 'Site not found.' } });
    const stranger = (await t.factories.organization()).owner.client;
    await stranger.get(previewPath(org, siteId)).expect(404);
    const guest = await t.factories.asMember(org, null);
    const denied = await guest.get(previewPath(org, siteId));
    expect([403, 404]).toContain(denied.status);
    const reader = await t.factories.asMember(org, 'read');
    await reader.get(previewPath(org, siteId)).expect(200);
  });
});
