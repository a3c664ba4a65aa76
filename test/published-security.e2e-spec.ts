import { listRouteAccess } from '../src/platform/auth/route-access';
import { createTestApp, TestApp } from './helpers/app';
import type { SiteSpaceBody } from './helpers/bodies';
import type { TestOrganization } from './helpers/factories';

/**
 * The security matrix of site tokens: every route of the API, called with a published site's
 * token. Only the routes that admit site readers answer, and only for that site's published
 * content as its visitor sees it; every other route refuses the token (403), whatever it is
 * about. A token of another site reads none of this site's content, and hidden site spaces
 * stay absent from every answer.
 */

const SITES = 'http://docs.localhost/{organization}';
/**
 * The routes admitting site readers that are not a GET: a search, an ask and a render of an
 * integration block, which read.
 */
const READING_POSTS = [
  'POST /orgs/:organizationId/sites/:siteId/search',
  'POST /orgs/:organizationId/sites/:siteId/ask',
  'POST /orgs/:organizationId/sites/:siteId/ai/response',
  'POST /integrations/:integrationName/render',
];
/** And the one write they may make: an agent's feedback to the site (as they may ask it). */
const FEEDBACK_POSTS = [
  'POST /orgs/:organizationId/sites/:siteId/agents/feedback',
  'POST /orgs/:organizationId/sites/:siteId/agent-feedback',
];

interface Fixture {
  org: TestOrganization;
  siteId: string;
  shown: SiteSpaceBody;
  hidden: SiteSpaceBody;
  revisionId: string;
  pageId: string;
  pagePath: string;
  token: string;
}

describe('site tokens across every route', () => {
  let t: TestApp;
  let mine: Fixture;
  let theirs: Fixture;

  beforeAll(async () => {
    t = await createTestApp({ SITES_URL: SITES });
    mine = await fixture();
    theirs = await fixture();
  });
  afterAll(() => t.close());

  /** A published site with a shown and a hidden (conditioned) site space, and a token for it. */
  async function fixture(): Promise<Fixture> {
    const org = await t.factories.organization();
    const site = await t.factories.site(org);
    const shown = await t.factories.siteSpace(org, site.id, { spaceTitle: 'Shown' });
    const hidden = await t.factories.siteSpace(org, site.id, { spaceTitle: 'Hidden' });
    const sitePath = `/v1/orgs/${org.id}/sites/${site.id}`;
    await org.owner.client
      .patch(`${sitePath}/site-spaces/${hidden.id}`, { condition: 'visitor.claims.staff === true' })
      .expect(200);
    // AI search on, so that the site's answers answer its token.
    await org.owner.client.put(`${sitePath}/customization`, { ai: { mode: 'search' } }).expect(200);
    await org.owner.client.post(`${sitePath}/publish`).expect(200);
    const lookup = await t.anonymous
      .post('/v1/urls/published', { url: `https://docs.localhost/${org.id}/${site.id}` })
      .expect(200);
    const content = await org.owner.client.get(`/v1/spaces/${shown.space.id}/content`).expect(200);
    return {
      org,
      siteId: site.id,
      shown,
      hidden,
      revisionId: content.body.id,
      pageId: content.body.pages[0].id,
      pagePath: content.body.pages[0].path,
      token: lookup.body.apiToken,
    };
  }

  /** The route's path with its parameters taken from `f`. */
  function pathOf(route: string, f: Fixture, space = f.shown.space.id): string {
    const values: Record<string, string> = {
      organizationId: f.org.id,
      siteId: f.siteId,
      spaceId: space,
      revisionId: f.revisionId,
      pageId: f.pageId,
      siteSpaceId: f.shown.id,
    };
    const path = route
      .replace(/\*(\w+)/g, f.pagePath)
      .replace(/:(\w+)/g, (_, name: string) => values[name] ?? 'unknown');
    return path.startsWith('/health') ? path : `/v1${path}`;
  }

  /** The reads with a body (`searchSiteContent`, `streamAskInSite`) get a valid one, every other write `{}`. */
  function call(token: string, method: string, path: string) {
    const client = t.as(token);
    switch (method) {
      case 'GET':
        return client.get(path);
      case 'DELETE':
        return client.delete(path);
      case 'POST':
        return client.post(
          path,
          path.endsWith('/search')
            ? { query: 'x', mode: 'all' }
            : path.endsWith('/ask')
              ? { question: 'x', scope: { mode: 'all' } }
              : path.endsWith('/ai/response')
                ? { input: [{ role: 'user', content: 'x' }] }
                : path.endsWith('/agents/feedback')
                  ? {
                      subject: { kind: 'generic' },
                      feedback: { category: 'usability', summary: 'x' },
                    }
                  : path.endsWith('/agent-feedback')
                    ? { feedback: 'x', url: 'https://docs.example.com/', spaceId: 's', pageId: 'p' }
                    : {},
        );
      case 'PUT':
        return client.put(path, {});
      default:
        return client.patch(path, {});
    }
  }

  it('refuses the token on every route that does not admit site readers', async () => {
    const routes = listRouteAccess(t.bindery.app).filter(
      ({ requirement }) =>
        requirement &&
        requirement.kind !== 'public' &&
        !(requirement.kind === 'resource' && requirement.siteReaders),
    );
    expect(routes.length).toBeGreaterThan(150);
    const answered: string[] = [];
    for (const route of routes) {
      const res = await call(mine.token, route.method, pathOf(route.path, mine));
      if (res.status !== 403) answered.push(`${route.method} ${route.path} → ${res.status}`);
    }
    expect(answered).toEqual([]);
  });

  it("admits it, for its own site, only on reads of published content and agents' feedback", async () => {
    const routes = listRouteAccess(t.bindery.app).filter(
      ({ requirement }) => requirement?.kind === 'resource' && requirement.siteReaders,
    );
    expect(
      routes.every(
        (route) =>
          route.method === 'GET' ||
          [...READING_POSTS, ...FEEDBACK_POSTS].includes(`${route.method} ${route.path}`),
      ),
    ).toBe(true);
    const refused: string[] = [];
    for (const route of routes) {
      const path = pathOf(route.path, mine);
      const res = await call(mine.token, route.method, path);
      // A parameter the fixture cannot fill (a file id, a redirect's source) names nothing:
      // the route answers its own 404 or 400, not the guard's refusal or a missing route.
      const unfilled = path.includes('unknown') || /\/(redirect|embed)$/.test(route.path);
      const expected = unfilled
        ? [400, 404]
        : FEEDBACK_POSTS.includes(`${route.method} ${route.path}`)
          ? [201, 204]
          : [200];
      if (!expected.includes(res.status) || /^No route/.test(res.body.error?.message ?? ''))
        refused.push(`${route.method} ${route.path} → ${res.status} ${JSON.stringify(res.body)}`);
    }
    expect(refused).toEqual([]);
  });

  it("never reads another site's content, nor a space its visitor may not see", async () => {
    const routes = listRouteAccess(t.bindery.app).filter(
      ({ requirement }) => requirement?.kind === 'resource' && requirement.siteReaders,
    );
    const leaked: string[] = [];
    for (const route of routes) {
      const foreign = await call(theirs.token, route.method, pathOf(route.path, mine));
      if (foreign.status !== 404 || /^No route/.test(foreign.body.error.message))
        leaked.push(`theirs ${route.path} → ${foreign.status}`);
      if (route.path.includes(':spaceId')) {
        const hidden = await call(
          mine.token,
          route.method,
          pathOf(route.path, mine, mine.hidden.space.id),
        );
        if (hidden.status !== 404) leaked.push(`hidden ${route.path} → ${hidden.status}`);
      }
    }
    expect(leaked).toEqual([]);
    const published = await t
      .as(mine.token)
      .get(`/v1/orgs/${mine.org.id}/sites/${mine.siteId}/published`)
      .expect(200);
    const body = JSON.stringify(published.body);
    expect(body).not.toContain(mine.hidden.id);
    expect(body).not.toContain(mine.hidden.space.id);
  });

  it('answers 401 to tampered, forged and expired tokens on a route that admits readers', async () => {
    const path = `/v1/spaces/${mine.shown.space.id}`;
    await t.as(mine.token).get(path).expect(200);
    const [header, payload, signature] = mine.token.split('.');
    const flipped = signature.slice(0, -2) + (signature.endsWith('AA') ? 'BB' : 'AA');
    await t.as(`${header}.${payload}.${flipped}`).get(path).expect(401);
    await t
      .as(`${header}.${theirs.token.split('.')[1]}.${signature}`)
      .get(path)
      .expect(401);
    await t.as(`${header}.${payload}.`).get(path).expect(401);
  });
});
