import { sign } from 'jsonwebtoken';
import { createTestApp, TestApp } from './helpers/app';
import { expectConforms, GITBOOK_0201 } from './helpers/conformance';
import type { TestOrganization } from './helpers/factories';

/**
 * The contract with GitBook's open-source site renderer (spec/published-content.md), replayed
 * against Bindery: for one page view, the renderer's lookups of every URL alternative (the host
 * root and the first one to four path segments, in parallel), the answer it keeps, then its
 * reads with the site token, in its order (published site, space, revision, page document and
 * meta links; for a path that is no page, the redirect by source then the page by path; and the
 * markdown of the page). Every answer is checked against GitBook's 0.201.0 schema and the
 * renderer's own expectations (fields it dereferences, statuses it tolerates).
 */

const SITES = 'http://docs.localhost/{organization}';

interface Content {
  site: string;
  siteSection?: string;
  siteSpace: string;
  space: string;
  organization: string;
  pathname: string;
  basePath: string;
  siteBasePath: string;
  canonicalUrl: string;
  complete: boolean;
  apiToken: string;
  shareKey?: string;
}
type Redirect = { target: string; redirect: string; site?: string };
type Lookup = { status: number; body: Content | Redirect | { error: { message: string } } };

interface PageView {
  /** What the renderer kept of the lookups: content, a redirect, or the primary's error. */
  outcome: Lookup;
  /** The page rendered (its title), or the not-found page (null). */
  title?: string | null;
  /** The redirect a path that is no page was sent to, if any. */
  redirectedTo?: string;
  markdown?: string;
  structure?: string[];
}

describe("GitBook renderer's page view, replayed", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ SITES_URL: SITES });
  });
  afterAll(() => t.close());

  /** The URLs the renderer looks up for one request: the host root and 1 to 4 segments. */
  function alternatives(url: string): string[] {
    const parsed = new URL(url);
    const segments = parsed.pathname.split('/').filter(Boolean);
    const urls = [`${parsed.origin}/`];
    for (let n = 1; n <= Math.min(4, segments.length); n++) {
      urls.push(`${parsed.origin}/${segments.slice(0, n).join('/')}`);
    }
    return [...new Set(urls)];
  }

  async function lookupAll(url: string, visitor: object, redirectOnError = false) {
    const urls = alternatives(url);
    const answers = await Promise.all(
      urls.map(async (alternative) => {
        const res = await t.anonymous.post('/v1/urls/published', {
          url: alternative,
          visitor: { type: 'human', unsignedClaims: {}, ...visitor },
          redirectOnError,
        });
        if (res.status === 200) expectConforms(res, 'resolvePublishedContentByUrl', GITBOOK_0201);
        else expect(res.body.error).toEqual({ code: res.status, message: expect.any(String) });
        return { url: alternative, status: res.status, body: res.body } as Lookup & {
          url: string;
        };
      }),
    );
    return { url, answers };
  }

  /**
   * The renderer keeps the first answer (in time) from the primary alternative (the longest),
   * or content with `complete` from any: so every complete answer must agree with the primary
   * one (same site space, the rest of the URL as its page path), or page views would depend on
   * timing.
   */
  function keep(url: string, answers: (Lookup & { url: string })[]): Lookup {
    const primary = answers[answers.length - 1];
    for (const answer of answers.slice(0, -1)) {
      const body = answer.body as Content;
      if (answer.status !== 200 || !('complete' in body) || !body.complete) continue;
      const rest = url.slice(answer.url.replace(/\/$/, '').length).replace(/^\//, '');
      const pathname = [body.pathname, rest].filter(Boolean).join('/');
      expect(primary.status).toBe(200);
      expect(primary.body).toMatchObject({ siteSpace: body.siteSpace, pathname });
    }
    return primary;
  }

  /** One page view: lookups, then the reads of spec/published-content.md §5 in its order. */
  async function pageView(
    url: string,
    visitor: object = {},
    redirectOnError = false,
  ): Promise<PageView> {
    const { answers } = await lookupAll(url, visitor, redirectOnError);
    const outcome = keep(url, answers);
    if (outcome.status !== 200 || 'target' in outcome.body) return { outcome };
    const content = outcome.body as Content;
    expect(content.basePath).toMatch(/^\/(.*\/)?$/);
    expect(content.siteBasePath).toMatch(/^\/(.*\/)?$/);
    expect(content.basePath.startsWith(content.siteBasePath)).toBe(true);
    const reader = t.as(content.apiToken);
    const share = content.shareKey ? `?shareKey=${encodeURIComponent(content.shareKey)}` : '';

    // 5.1 and 5.2, in parallel; both fatal when they fail.
    const [published, space] = await Promise.all([
      reader.get(`/v1/orgs/${content.organization}/sites/${content.site}/published${share}`),
      reader.get(`/v1/spaces/${content.space}${share}`),
    ]);
    expect(published.status).toBe(200);
    expectConforms(published, 'getPublishedContentSite', GITBOOK_0201);
    expect(published.headers['x-gitbook-cache-tag'].split(',')).toEqual(
      expect.arrayContaining([`site:${content.site}`, `space:${content.space}`]),
    );
    expect(space.status).toBe(200);
    expectConforms(space, 'getSpaceById');
    const structure = published.body.structure as {
      type: string;
      structure: { id: string; siteSpaces?: { id: string }[] }[];
    };
    const siteSpaceIds =
      structure.type === 'sections'
        ? structure.structure.flatMap((section) => (section.siteSpaces ?? []).map((s) => s.id))
        : structure.structure.map((siteSpace) => siteSpace.id);
    // The renderer asserts the looked-up site space and section are in the structure.
    expect(siteSpaceIds).toContain(content.siteSpace);
    expect(content.siteSection !== undefined).toBe(structure.type === 'sections');
    expect(published.body.customizations.site.socialAccounts).toEqual(expect.any(Array));

    // 5.3: the revision, immutable by id.
    const revision = await reader.get(
      `/v1/spaces/${content.space}/revisions/${space.body.revision}?metadata=true`,
    );
    expect(revision.status).toBe(200);
    expectConforms(revision, 'getRevisionById');
    expectConforms(revision, 'getRevisionById', GITBOOK_0201);
    type Page = { id: string; type: string; title: string; path?: string; pages: Page[] };
    const pages: Page[] = [];
    const walk = (list: Page[]) => list.forEach((page) => (pages.push(page), walk(page.pages)));
    walk(revision.body.pages);
    const pathname = content.pathname.toLowerCase();
    const page = pathname
      ? pages.find((candidate) => candidate.path === pathname)
      : pages.find((candidate) => candidate.type === 'document');
    const base = `/v1/spaces/${content.space}/revisions/${space.body.revision}`;
    const view: PageView = { outcome, structure: siteSpaceIds };

    let rendered = page;
    if (!rendered) {
      // 5.6: a redirect (site-relative source), else the page by path (one encoded segment).
      const source = `/${content.basePath.slice(content.siteBasePath.length)}${pathname}`;
      const redirect = await reader.get(
        `/v1/orgs/${content.organization}/sites/${content.site}/redirect?source=${encodeURIComponent(source)}${share.replace('?', '&')}`,
      );
      expect([200, 404]).toContain(redirect.status);
      if (redirect.status === 200) {
        expectConforms(redirect, 'getSiteRedirectBySource', GITBOOK_0201);
        expect(() => new URL(redirect.body.target)).not.toThrow();
        return { ...view, redirectedTo: redirect.body.target };
      }
      const byPath = await reader.get(`${base}/path/${encodeURIComponent(pathname)}`);
      expect([200, 404]).toContain(byPath.status);
      if (byPath.status === 404) return { ...view, title: null };
      rendered = byPath.body as Page;
    }

    // 5.4 and 5.5.
    const [metaLinks, document] = await Promise.all([
      reader.get(`${base}/page/${rendered.id}/meta-links`),
      reader.get(
        `${base}/page/${rendered.id}/document?evaluated=deterministic-only&dereferenced=reusable-contents`,
      ),
    ]);
    expect([200, 404]).toContain(metaLinks.status);
    if (metaLinks.status === 200)
      expectConforms(metaLinks, 'listRevisionPageMetaLinks', GITBOOK_0201);
    expect(document.status).toBe(200);
    expectConforms(document, 'getPageDocumentInRevisionById', GITBOOK_0201);

    // 5.7: the page as markdown (.md pages, llms.txt, agents).
    const markdown = await reader.get(
      `${base}/page/${rendered.id}?format=markdown&format.markdown.refs=stable`,
    );
    expect(markdown.status).toBe(200);
    // An empty page has no body in either format (GitBook's reference); others have markdown.
    if (markdown.body.documentId !== undefined || document.body.nodes.length > 0)
      expect(markdown.body.markdown).toEqual(expect.any(String));
    return { ...view, title: rendered.title, markdown: markdown.body.markdown };
  }

  /** A published site of pages Install and Guides/Advanced, with a second site space API. */
  async function site(fields: { visibility?: string } = {}): Promise<{
    org: TestOrganization;
    siteId: string;
    url: string;
    api: { id: string; path: string };
  }> {
    const org = await t.factories.organization();
    const created = await t.factories.site(org, fields);
    const docs = await t.factories.siteSpace(org, created.id, { spaceTitle: 'Docs' });
    const api = await t.factories.siteSpace(org, created.id, { spaceTitle: 'API' });
    await t.factories.changeRequest(org, docs.space.id, {
      changes: [
        {
          operation: 'insert_page',
          title: 'Install',
          document: { markdown: 'Run the installer.' },
        },
        { operation: 'insert_page', title: 'Guides', document: { markdown: 'All guides.' } },
      ],
      merge: true,
    });
    const sitePath = `/v1/orgs/${org.id}/sites/${created.id}`;
    await org.owner.client.post(`${sitePath}/publish`).expect(200);
    await org.owner.client
      .post(`${sitePath}/redirects`, {
        source: '/setup',
        destination: { kind: 'site-space', siteSpaceId: docs.id },
      })
      .expect(201);
    return { org, siteId: created.id, url: `https://docs.localhost/${org.id}/${created.id}`, api };
  }

  it('renders a public site: home, a page, another site space, a redirect, a missing page', async () => {
    const { url, api } = await site();
    const home = await pageView(url);
    expect(home.title).toEqual(expect.any(String));
    const install = await pageView(`${url}/install`);
    expect(install.title).toBe('Install');
    expect(install.markdown).toContain('Run the installer.');
    // Another site space: its path is a site-level segment, the rest a page path.
    const other = await pageView(`${url}/${api.path}`);
    expect((other.outcome.body as Content).basePath).toMatch(new RegExp(`/${api.path}/$`));
    const moved = await pageView(`${url}/setup`);
    expect(moved.redirectedTo).toBe(url.replace('https:', 'http:'));
    const missing = await pageView(`${url}/guides/nothing-here`);
    expect(missing.title).toBeNull();
    // A prefix that is no site: the renderer's primary answer is the visitor-facing 404.
    const nowhere = await pageView('https://docs.localhost/no-such-org/site/page');
    expect(nowhere.outcome).toMatchObject({ status: 404 });
  });

  it('renders a share-link site through its key segment only', async () => {
    const { org, siteId, url } = await site({ visibility: 'share-link' });
    const link = await t.factories.shareLink(org, siteId, { name: 'Partners' });
    const key = link.urls.published!.split('/').pop()!;
    const view = await pageView(`${url}/${key}/install`);
    expect(view.title).toBe('Install');
    expect((view.outcome.body as Content).siteBasePath).toMatch(new RegExp(`/${key}/$`));
    const moved = await pageView(`${url}/${key}/setup`);
    expect(moved.redirectedTo).toBe(`${url.replace('https:', 'http:')}/${key}`);
    expect((await pageView(`${url}/install`)).outcome.status).toBe(404);
  });

  it('renders a visitor-auth site only for visitors with a valid token', async () => {
    const { org, siteId, url } = await site({ visibility: 'visitor-auth' });
    const auth = await org.owner.client
      .patch(`/v1/orgs/${org.id}/sites/${siteId}/publishing/auth`, {
        backend: 'custom',
        fallbackURL: 'https://login.example.com/',
      })
      .expect(200);
    const anonymous = await pageView(`${url}/install`);
    expect(anonymous.outcome.body).toEqual({
      target: 'external',
      site: siteId,
      redirect: 'https://login.example.com/?location=%2Finstall',
    });
    const now = Math.floor(t.clock.now().getTime() / 1000);
    const expired = sign({ exp: now - 1 }, auth.body.privateKey, { algorithm: 'HS256' });
    // From ?jwt_token=: the renderer shows the error (no login loop); from the cookie: login.
    expect((await pageView(`${url}/install`, { jwtToken: expired })).outcome.status).toBe(401);
    expect((await pageView(`${url}/install`, { jwtToken: expired }, true)).outcome.body).toEqual(
      anonymous.outcome.body,
    );
    const valid = sign({ exp: now + 3600 }, auth.body.privateKey, { algorithm: 'HS256' });
    const view = await pageView(`${url}/install`, { jwtToken: valid });
    expect(view.title).toBe('Install');
  });

  it('renders an adaptive site: a conditioned variant exists only for visitors it opens to', async () => {
    const { org, siteId, url, api } = await site();
    await org.owner.client
      .patch(`/v1/orgs/${org.id}/sites/${siteId}/site-spaces/${api.id}`, {
        condition: 'visitor.claims.unsigned.developer === true',
      })
      .expect(200);
    const developer = await pageView(`${url}/${api.path}`, {
      unsignedClaims: { developer: true },
    });
    expect(developer.structure).toHaveLength(2);
    expect((developer.outcome.body as Content).basePath).toMatch(new RegExp(`/${api.path}/$`));
    const reader = await pageView(`${url}/${api.path}`);
    expect(reader.structure).toHaveLength(1);
    // Hidden, its path is a page path of the default site space: here, no such page.
    expect((reader.outcome.body as Content).pathname).toBe(api.path);
    expect(reader.title).toBeNull();
  });
});
