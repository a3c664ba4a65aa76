import type { Response } from 'supertest';
import { listRouteAccess } from '../src/platform/auth/route-access';
import { createTestApp, TestApp } from './helpers/app';
import type { SiteBody, SiteSpaceBody } from './helpers/bodies';
import type { Client } from './helpers/client';
import { expectConforms, GITBOOK_0201 } from './helpers/conformance';
import { addReusableContentOnSpace, insertPage } from './helpers/content';
import type { TestOrganization } from './helpers/factories';
import type {
  DocumentBlock,
  DocumentNode,
  JSONDocument,
} from '../src/content-engine/documents/document';
import { contentRef, doc, link, mention, paragraph, text } from './fixtures/documents';

/**
 * Hidden means absent, everywhere: a page whose adaptive-content condition a site's visitor
 * does not meet (and its subpages) shows in nothing its site token reads, on every route that
 * admits site readers (test/platform/route-access.e2e-spec.ts), and shows on the same routes
 * to a visitor whose claims meet it.
 */

const SITES = 'http://docs.localhost/{organization}';
/** In the hidden page alone (its title, slug and text). */
const WORD = 'quokkaveil';
/** In the hidden page's subpage alone. */
const CHILD_WORD = 'marmotwing';
const BETA = 'visitor.claims.unsigned.beta === true';

interface PageNode {
  id: string;
  title: string;
  pages?: PageNode[];
}

/** The text of a node, its inlines' included. */
function textOf(node: DocumentNode): string {
  return node.object === 'text'
    ? node.leaves.map((leaf) => leaf.text).join('')
    : (node.nodes ?? []).map(textOf).join('');
}

/**
 * A document that refers to a hidden page (`hiddenId`) and its subpage (`childId`) in every
 * way a document can: links to the page and to an anchor of the subpage, a mention, a button,
 * a content-ref card, a cards table's target, a mention alone in an expandable's body; and to
 * the visible page `openId` by a link and a card. `reusableContent`: included at its end.
 */
function linkingDocument(
  ids: { hiddenId: string; childId: string; openId: string },
  reusableContent?: string,
): JSONDocument {
  const toPlan = { kind: 'page', page: ids.hiddenId };
  const toNotes = { kind: 'anchor', page: ids.childId, anchor: 'details' };
  const toOpen = { kind: 'page', page: ids.openId };
  return doc(
    paragraph(
      'intro',
      text('Read '),
      link(toPlan, 'the roadmap'),
      text(', '),
      link(toNotes, 'the notes'),
      text(' and '),
      link(toOpen, 'the basics'),
      text('.'),
    ),
    paragraph('people', text('Ask '), mention(toPlan), text(' for access.'), {
      object: 'inline',
      type: 'button',
      isVoid: true,
      data: { label: 'Go', kind: 'primary', ref: toNotes },
    }),
    contentRef('card', toPlan),
    contentRef('openCard', toOpen),
    {
      object: 'block',
      type: 'table',
      key: 'cards',
      isVoid: true,
      data: {
        view: { type: 'cards', columns: ['title'], cardSize: 'medium', targetDefinition: 'to' },
        definition: {
          title: { id: 'title', title: 'Title', type: 'text', textAlignment: 'left' },
          to: { id: 'to', title: 'Target', type: 'content-ref' },
        },
        records: {
          one: { orderIndex: 'a0', values: { title: 'Roadmap', to: toPlan } },
          two: { orderIndex: 'a1', values: { title: 'Basics', to: toOpen } },
        },
      },
      fragments: [],
    },
    {
      object: 'block',
      type: 'expandable',
      key: 'more',
      isVoid: true,
      data: {},
      fragments: [
        {
          object: 'fragment',
          fragment: 'expandable-title',
          type: 'expandable-title',
          nodes: [paragraph('moreTitle', text('More'))],
        },
        {
          object: 'fragment',
          fragment: 'expandable-body',
          type: 'expandable-body',
          nodes: [paragraph('moreBody', mention(toNotes))],
        },
      ],
    },
    ...(reusableContent
      ? [
          {
            object: 'block',
            type: 'reusable-content',
            key: 'included',
            isVoid: true,
            data: { ref: { kind: 'reusable-content', reusableContent } },
          } as DocumentBlock,
        ]
      : []),
  );
}

interface AdaptiveSite {
  org: TestOrganization;
  site: SiteBody;
  /** Holds Open, the hidden page (under BETA) and its subpage. */
  guides: SiteSpaceBody;
  /** Holds Reference, with the word "common" as Open and the hidden pages have it. */
  api: SiteSpaceBody;
  url: string;
  openId: string;
  hiddenId: string;
  childId: string;
  /** A visitor without the claim, and one with it. */
  plain: Client;
  tester: Client;
}

describe('site visitors and hidden pages (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ SITES_URL: SITES });
  });
  afterAll(() => t.close());

  async function merge(org: TestOrganization, spaceId: string, changes: object[]) {
    t.clock.advance(1000);
    await t.factories.changeRequest(org, spaceId, { changes, merge: true });
  }

  /** Every page of the space's primary content as a member reads it, by title. */
  async function pagesByTitle(org: TestOrganization, spaceId: string) {
    const res = await org.owner.client.get(`/v1/spaces/${spaceId}/content/pages`).expect(200);
    const pages = new Map<string, PageNode>();
    const visit = (nodes: PageNode[]) =>
      nodes.forEach((node) => {
        pages.set(node.title, node);
        visit(node.pages ?? []);
      });
    visit(res.body.pages as PageNode[]);
    return pages;
  }

  async function token(url: string, unsignedClaims: object): Promise<Client> {
    const res = await t.anonymous
      .post('/v1/urls/published', { url, visitor: { unsignedClaims } })
      .expect(200);
    return t.as(res.body.apiToken as string);
  }

  /**
   * A published site without sections: `guides` (the default) holds Open, the page "Quokkaveil
   * common plan" that only visitors with the unsigned claim `beta` see, and its subpage
   * "Marmotwing notes"; `api` holds Reference. Redirects `/old-plan` and `/old-notes` send to
   * the hidden page and its subpage.
   */
  async function adaptiveSite(): Promise<AdaptiveSite> {
    const org = await t.factories.organization();
    const site = await t.factories.site(org);
    const guides = await t.factories.siteSpace(org, site.id, { spaceTitle: 'Guides' });
    const api = await t.factories.siteSpace(org, site.id, { spaceTitle: 'API' });
    await merge(org, guides.space.id, [
      insertPage('Open', 'Common ground for every reader.'),
      {
        operation: 'insert_page',
        title: 'Quokkaveil common plan',
        condition: BETA,
        document: { markdown: 'The quokkaveil roadmap, for testers: common goals.' },
      },
    ]);
    const hiddenId = (await pagesByTitle(org, guides.space.id)).get('Quokkaveil common plan')!.id;
    await merge(org, guides.space.id, [
      {
        operation: 'insert_page',
        title: 'Marmotwing notes',
        into: hiddenId,
        document: { markdown: 'Marmotwing details of the plan, common to testers.' },
      },
    ]);
    await merge(org, api.space.id, [insertPage('Reference', 'A common reference.')]);
    const pages = await pagesByTitle(org, guides.space.id);
    const childId = pages.get('Marmotwing notes')!.id;
    const sitePath = `/v1/orgs/${org.id}/sites/${site.id}`;
    for (const [source, pageId] of [
      ['/old-plan', hiddenId],
      ['/old-notes', childId],
    ]) {
      await org.owner.client
        .post(`${sitePath}/redirects`, {
          source,
          destination: { kind: 'site-page', siteSpaceId: guides.id, pageId },
        })
        .expect(201);
    }
    // AI search on: the site's answers (without a model, their sources) are reads too.
    await org.owner.client.put(`${sitePath}/customization`, { ai: { mode: 'search' } }).expect(200);
    await org.owner.client.post(`${sitePath}/publish`).expect(200);
    const url = `https://docs.localhost/${org.id}/${site.id}`;
    return {
      org,
      site,
      guides,
      api,
      url,
      openId: pages.get('Open')!.id,
      hiddenId,
      childId,
      plain: await token(url, {}),
      tester: await token(url, { beta: true }),
    };
  }

  /** Whether an answer names the hidden page or its subpage, by a word or by id. */
  function reveals(res: Response, fixture: AdaptiveSite, asked?: string): string[] {
    let text = `${JSON.stringify(res.headers)} ${res.text}`;
    // What the visitor asked, said back to it (the assistant's search calls), reveals nothing.
    if (asked !== undefined) text = text.split(asked).join('');
    return [WORD, CHILD_WORD, fixture.hiddenId, fixture.childId].filter((needle) =>
      text.toLowerCase().includes(needle.toLowerCase()),
    );
  }

  /**
   * Adds the visible page "Reading list" (`reading-list`), whose document is linkingDocument;
   * its id.
   */
  async function readingList(s: AdaptiveSite, reusableContent?: string): Promise<string> {
    const spaceId = s.guides.space.id;
    await merge(s.org, spaceId, [
      {
        operation: 'insert_page',
        title: 'Reading list',
        document: { document: linkingDocument(s, reusableContent) },
      },
    ]);
    return (await pagesByTitle(s.org, spaceId)).get('Reading list')!.id;
  }

  function searchBodies(s: AdaptiveSite, query: string): object[] {
    return [
      { query, mode: 'all' },
      { query, scope: { mode: 'all' } },
      { query, siteSpaceIds: [s.guides.id] },
      { query, mode: 'specific', siteSpaceIds: [s.guides.id, s.api.id] },
      { query, scope: { mode: 'specific', siteSpaceIds: [s.guides.id] } },
      { query, mode: 'current', siteSpaceId: s.guides.id },
      { query, scope: { mode: 'default' } },
      { query, scope: { mode: 'default', currentSiteSpace: s.guides.id } },
      {
        query,
        scope: { mode: 'default', currentSiteSpace: s.guides.id, restrictTo: 'currentSiteSpace' },
      },
    ];
  }

  interface Read {
    /** The route, as listRouteAccess names it, and what this read sends on it. */
    route: string;
    name: string;
    send: (client: Client) => Promise<Response>;
    /** What the same read answers a visitor who meets the condition. */
    withClaims: 'reveals' | 'ok' | 'unrelated';
    /** It names the hidden page (or its subpage): 404 without the claim, as an unknown one. */
    absent?: boolean;
    /** What the read asks, which its answer may say back. */
    asked?: string;
  }

  /**
   * Every read a site token may make, on the fixture's hidden page where it names a page, and
   * on a visible page and a reusable content whose documents refer to it.
   */
  async function reads(s: AdaptiveSite): Promise<Read[]> {
    const space = `/v1/spaces/${s.guides.space.id}`;
    const sitePath = `/v1/orgs/${s.org.id}/sites/${s.site.id}`;
    const readingListId = await readingList(s, 'rcShared');
    const reusable = await addReusableContentOnSpace(t, s.guides.space.id, {
      id: 'rcShared',
      title: 'Shared',
      document: doc(
        paragraph('shared', text('Shared: '), link({ kind: 'page', page: s.hiddenId }, 'plan')),
      ),
    });
    const revision = reusable.id;
    const list: Read[] = [];
    const get = (
      route: string,
      path: string,
      withClaims: Read['withClaims'],
      fields: { name?: string; absent?: boolean } = {},
    ) =>
      list.push({
        route: `GET ${route}`,
        name: fields.name ?? path,
        send: (client) => client.get(path),
        withClaims,
        ...(fields.absent ? { absent: true } : {}),
      });
    const spaceRoute = '/spaces/:spaceId';
    const revisionRoute = `${spaceRoute}/revisions/:revisionId`;
    get(spaceRoute, space, 'unrelated');
    get(`${spaceRoute}/content`, `${space}/content`, 'reveals');
    get(`${spaceRoute}/content/pages`, `${space}/content/pages`, 'reveals');
    get(`${spaceRoute}/content/files`, `${space}/content/files`, 'unrelated');
    get(`${spaceRoute}/content/files/:fileId`, `${space}/content/files/nope`, 'unrelated');
    get(revisionRoute, `${space}/revisions/${revision}`, 'reveals');
    get(`${revisionRoute}/pages`, `${space}/revisions/${revision}/pages`, 'reveals');
    get(`${revisionRoute}/files`, `${space}/revisions/${revision}/files`, 'unrelated');
    get(`${revisionRoute}/files/:fileId`, `${space}/revisions/${revision}/files/nope`, 'unrelated');
    get(
      `${revisionRoute}/reusable-contents/:reusableContentId/document`,
      `${space}/revisions/${revision}/reusable-contents/rcShared/document`,
      'reveals',
    );
    // A reusable content by id: its title and document's id, not the document.
    get(
      `${spaceRoute}/content/reusable-contents/:reusableContentId`,
      `${space}/content/reusable-contents/rcShared`,
      'unrelated',
    );
    get(
      `${revisionRoute}/reusable-contents/:reusableContentId`,
      `${space}/revisions/${revision}/reusable-contents/rcShared`,
      'unrelated',
    );
    // A document by its id: the visible page's, which refers to the hidden page.
    const documentOf = async (pageId: string) =>
      (await s.org.owner.client.get(`${space}/content/page/${pageId}`).expect(200)).body
        .documentId as string;
    get(
      `${spaceRoute}/documents/:documentId`,
      `${space}/documents/${await documentOf(readingListId)}`,
      'reveals',
    );
    get(
      `${spaceRoute}/content/page/:pageId`,
      `${space}/content/page/${s.openId}?format=markdown`,
      'unrelated',
      { name: 'a visible page, as markdown' },
    );
    // A visible page whose document refers to the hidden page and its subpage.
    for (const query of ['', '?format=markdown', '?dereferenced=reusable-contents']) {
      get(
        `${spaceRoute}/content/page/:pageId`,
        `${space}/content/page/${readingListId}${query}`,
        'reveals',
      );
    }
    get(`${spaceRoute}/content/path/*pagePath`, `${space}/content/path/reading-list`, 'reveals');
    get(
      `${revisionRoute}/page/:pageId`,
      `${space}/revisions/${revision}/page/${readingListId}`,
      'reveals',
    );
    for (const query of ['', '?dereferenced=reusable-contents']) {
      get(
        `${revisionRoute}/page/:pageId/document`,
        `${space}/revisions/${revision}/page/${readingListId}/document${query}`,
        'reveals',
      );
    }
    get(
      `${revisionRoute}/path/*pagePath`,
      `${space}/revisions/${revision}/path/reading-list?format=markdown`,
      'reveals',
    );
    get(
      `${spaceRoute}/embed`,
      `${space}/embed?url=${encodeURIComponent('http://127.0.0.1:1/')}`,
      'unrelated',
    );
    get('/orgs/:organizationId/sites/:siteId/published', `${sitePath}/published`, 'unrelated');
    get('/users/:userId', `/v1/users/${s.org.owner.id}`, 'unrelated');
    // Links and backlinks are members' reads: a site token is refused them.
    get(`${spaceRoute}/links`, `${space}/links`, 'unrelated');
    for (const [pageId, path] of [
      [s.hiddenId, 'quokkaveil-common-plan'],
      [s.childId, 'quokkaveil-common-plan/marmotwing-notes'],
    ]) {
      const absent = { absent: true };
      get(
        `${spaceRoute}/content/page/:pageId`,
        `${space}/content/page/${pageId}`,
        'reveals',
        absent,
      );
      get(
        `${spaceRoute}/content/page/:pageId`,
        `${space}/content/page/${pageId}?format=markdown`,
        'reveals',
        absent,
      );
      get(
        `${spaceRoute}/content/path/*pagePath`,
        `${space}/content/path/${path}`,
        'reveals',
        absent,
      );
      get(
        `${spaceRoute}/content/page/:pageId/meta-links`,
        `${space}/content/page/${pageId}/meta-links`,
        'ok',
        absent,
      );
      get(
        `${revisionRoute}/page/:pageId`,
        `${space}/revisions/${revision}/page/${pageId}`,
        'reveals',
        absent,
      );
      get(
        `${revisionRoute}/page/:pageId/document`,
        `${space}/revisions/${revision}/page/${pageId}/document`,
        'reveals',
        absent,
      );
      get(
        `${revisionRoute}/page/:pageId/meta-links`,
        `${space}/revisions/${revision}/page/${pageId}/meta-links`,
        'ok',
        absent,
      );
      get(
        `${revisionRoute}/path/*pagePath`,
        `${space}/revisions/${revision}/path/${path}`,
        'reveals',
        absent,
      );
      get(
        `${spaceRoute}/documents/:documentId`,
        `${space}/documents/${await documentOf(pageId)}`,
        'reveals',
        absent,
      );
      get(
        `${spaceRoute}/content/page/:pageId/backlinks`,
        `${space}/content/page/${pageId}/backlinks`,
        'unrelated',
      );
    }
    // The integrations' scripts the site's pages load: no page in them.
    get(
      '/orgs/:organizationId/sites/:siteId/integration-scripts',
      `${sitePath}/integration-scripts`,
      'unrelated',
    );
    for (const source of ['/old-plan', '/old-notes']) {
      get(
        '/orgs/:organizationId/sites/:siteId/redirect',
        `${sitePath}/redirect?source=${encodeURIComponent(source)}`,
        'reveals',
        { absent: true },
      );
    }
    for (const query of [WORD, CHILD_WORD, 'quokkavail', 'common']) {
      for (const body of searchBodies(s, query)) {
        list.push({
          route: 'POST /orgs/:organizationId/sites/:siteId/search',
          name: `search ${JSON.stringify(body)}`,
          send: (client) => client.post(`${sitePath}/search`, body),
          // A typo's correction may find the hidden page, or not.
          withClaims: query === 'quokkavail' ? 'ok' : 'reveals',
        });
      }
    }
    for (const query of [WORD, CHILD_WORD, 'common plan']) {
      for (const scope of [{ mode: 'all' }, { mode: 'default', currentSiteSpace: s.guides.id }]) {
        const body = { question: `What is the ${query}?`, scope };
        list.push({
          route: 'POST /orgs/:organizationId/sites/:siteId/ask',
          name: `ask ${JSON.stringify(body)}`,
          send: (client) => client.post(`${sitePath}/ask?format=markdown`, body),
          withClaims: 'reveals',
        });
      }
    }
    // The assistant (no model here: the pages its search finds, as tool call results).
    for (const query of [WORD, CHILD_WORD, 'common plan']) {
      list.push({
        route: 'POST /orgs/:organizationId/sites/:siteId/ai/response',
        name: `assistant ${query}`,
        asked: `What is the ${query}?`,
        send: (client) =>
          client.post(`${sitePath}/ai/response`, {
            input: [{ role: 'user', content: `What is the ${query}?` }],
          }),
        withClaims: 'ok',
      });
    }
    get(
      '/orgs/:organizationId/sites/:siteId/ask/questions',
      `${sitePath}/ask/questions`,
      'reveals',
    );
    // An integration block's render: the integration's component drawn from the props the page
    // gives it, never a page's content; nothing is installed here, so it is absent (who may
    // render what: test/integrations-site-renders.e2e-spec.ts).
    const render = {
      componentId: 'diagram',
      props: { content: WORD },
      context: { type: 'document', spaceId: s.guides.space.id, editable: false },
    };
    list.push({
      route: 'POST /integrations/:integrationName/render',
      name: 'integration render',
      send: (client) => client.post('/v1/integrations/mermaid/render', render),
      withClaims: 'unrelated',
      absent: true,
    });
    get(
      '/integrations/:integrationName/render',
      `/v1/integrations/mermaid/render?request=${encodeURIComponent(JSON.stringify(render))}`,
      'unrelated',
      { absent: true },
    );
    // Agents' feedback: a site's token gives it, and it answers nothing of the content.
    list.push({
      route: 'POST /orgs/:organizationId/sites/:siteId/agents/feedback',
      name: 'agent feedback',
      send: (client) =>
        client.post(`${sitePath}/agents/feedback`, {
          subject: { kind: 'generic' },
          feedback: { category: 'usability', summary: 'Hard to find.' },
        }),
      withClaims: 'unrelated',
    });
    list.push({
      route: 'POST /orgs/:organizationId/sites/:siteId/agent-feedback',
      name: 'agent feedback on a page',
      send: (client) =>
        client.post(`${sitePath}/agent-feedback`, {
          feedback: 'Outdated.',
          url: 'https://docs.example.com/reading-list',
          spaceId: s.guides.space.id,
          pageId: s.openId,
        }),
      withClaims: 'unrelated',
    });
    return list;
  }

  it('reads every route a site token may read', async () => {
    const s = await adaptiveSite();
    const covered = new Set((await reads(s)).map((read) => read.route));
    const siteReaderRoutes = listRouteAccess(t.bindery.app)
      .filter((route) => route.requirement?.kind === 'resource' && route.requirement.siteReaders)
      .map((route) => `${route.method} ${route.path}`);
    expect(siteReaderRoutes.filter((route) => !covered.has(route))).toEqual([]);
  });

  it('reveals a hidden page and its subpage in no read of a visitor without the claim', async () => {
    const s = await adaptiveSite();
    const leaks: object[] = [];
    for (const read of await reads(s)) {
      const res = await read.send(s.plain);
      const revealed = reveals(res, s, read.asked);
      if (res.status >= 500 || (read.absent && res.status !== 404) || revealed.length > 0) {
        leaks.push({ route: read.route, read: read.name, status: res.status, revealed });
      }
    }
    expect(leaks).toEqual([]);
  });

  it('shows them on the same reads to a visitor whose claims meet the condition', async () => {
    const s = await adaptiveSite();
    const missing: object[] = [];
    for (const read of await reads(s)) {
      if (read.withClaims === 'unrelated') continue;
      const res = await read.send(s.tester);
      if (res.status !== 200 || (read.withClaims === 'reveals' && reveals(res, s).length === 0)) {
        missing.push({ route: read.route, read: read.name, status: res.status });
      }
    }
    expect(missing).toEqual([]);
  });

  it('answers a hidden page as a page that does not exist, for its reads and meta links', async () => {
    const s = await adaptiveSite();
    const space = `/v1/spaces/${s.guides.space.id}`;
    for (const pageId of [s.hiddenId, s.childId, 'pgNoSuchPage']) {
      for (const path of [
        `${space}/content/page/${pageId}`,
        `${space}/content/page/${pageId}/meta-links`,
      ]) {
        const res = await s.plain.get(path).expect(404);
        expect(res.body).toEqual({ error: { code: 404, message: expect.any(String) } });
      }
    }
    const shown = await s.tester.get(`${space}/content/page/${s.hiddenId}/meta-links`).expect(200);
    expectConforms(shown, 'listSpacePageMetaLinks', GITBOOK_0201);
    expect(shown.body).toEqual({});
    const redirect = await s.tester
      .get(`/v1/orgs/${s.org.id}/sites/${s.site.id}/redirect?source=/old-notes`)
      .expect(200);
    expect(redirect.body.target).toMatch(/\/quokkaveil-common-plan\/marmotwing-notes$/);
  });

  it('resolves no redirect to a site space hidden from the visitor', async () => {
    const s = await adaptiveSite();
    const sitePath = `/v1/orgs/${s.org.id}/sites/${s.site.id}`;
    await s.org.owner.client
      .patch(`${sitePath}/site-spaces/${s.api.id}`, { condition: BETA })
      .expect(200);
    await s.org.owner.client
      .post(`${sitePath}/redirects`, {
        source: '/old-api',
        destination: { kind: 'site-space', siteSpaceId: s.api.id },
      })
      .expect(201);
    const plain = await token(s.url, {});
    const tester = await token(s.url, { beta: true });
    const path = `${sitePath}/redirect?source=/old-api`;
    await plain.get(path).expect(404);
    const found = await tester.get(path).expect(200);
    expect(found.body.target).toMatch(new RegExp(`/${s.api.path}$`));
  });

  it('counts and ranks only the pages a visitor sees, in every scope', async () => {
    const s = await adaptiveSite();
    const path = `/v1/orgs/${s.org.id}/sites/${s.site.id}/search`;
    interface Hit {
      id: string;
      pages: { id: string; rank: number }[];
    }
    for (const body of [
      { query: 'common', mode: 'all' },
      { query: 'common', scope: { mode: 'specific', siteSpaceIds: [s.guides.id, s.api.id] } },
    ]) {
      const plain = await s.plain.post(path, body).expect(200);
      expectConforms(plain, 'searchSiteContent', GITBOOK_0201);
      const items = plain.body.items as Hit[];
      expect(plain.body.count).toBe(2);
      const pages = items.flatMap((item) => item.pages);
      expect(pages.map((page) => page.id)).not.toContain(s.hiddenId);
      // Ranks run over the pages shown, from 1, with no gap where a hidden page would be.
      expect(pages.map((page) => page.rank).sort()).toEqual([1, 2]);

      const tester = await s.tester.post(path, body).expect(200);
      const all = (tester.body.items as Hit[]).flatMap((item) => item.pages);
      expect(all.map((page) => page.id)).toEqual(expect.arrayContaining([s.hiddenId, s.childId]));
      expect(all.map((page) => page.rank).sort()).toEqual([1, 2, 3, 4]);
    }
    // Searching the hidden space's site space alone finds nothing of it.
    const only = await s.plain
      .post(path, { query: WORD, scope: { mode: 'specific', siteSpaceIds: [s.guides.id] } })
      .expect(200);
    expect(only.body).toEqual({ items: [], count: 0 });
  });

  it('writes a link to a hidden page as its text alone, in markdown', async () => {
    const s = await adaptiveSite();
    const spaceId = s.guides.space.id;
    await merge(s.org, spaceId, [
      insertPage('Links', 'See [the plan](quokkaveil-common-plan/README.md) first.'),
    ]);
    const linksId = (await pagesByTitle(s.org, spaceId)).get('Links')!.id;
    const markdownOf = async (client: Client) =>
      (
        await client
          .get(`/v1/spaces/${spaceId}/content/page/${linksId}?format=markdown`)
          .expect(200)
      ).body.markdown as string;
    const planned = 'quokkaveil-common-plan/README.md';
    expect(await markdownOf(s.org.owner.client)).toContain(`[the plan](${planned})`);
    expect(await markdownOf(s.tester)).toContain(`[the plan](${planned})`);
    const plain = await markdownOf(s.plain);
    expect(plain).toContain('See the plan first.');
    expect(plain).not.toContain(s.hiddenId);
    expect(plain.toLowerCase()).not.toContain(WORD);
  });

  it('reads documents without refs to a hidden page: a link keeps its text, a mention or a card goes', async () => {
    const s = await adaptiveSite();
    const spaceId = s.guides.space.id;
    await addReusableContentOnSpace(t, spaceId, {
      id: 'rcLinks',
      title: 'Links',
      document: doc(
        paragraph('shared', text('Shared: '), link({ kind: 'page', page: s.hiddenId }, 'plan')),
      ),
    });
    const pageId = await readingList(s, 'rcLinks');
    const revisionId = (await s.org.owner.client.get(`/v1/spaces/${spaceId}/content`).expect(200))
      .body.id as string;
    const space = `/v1/spaces/${spaceId}`;
    const revision = `${space}/revisions/${revisionId}`;
    const inPage = (body: { document: JSONDocument }) => body.document;
    const itself = (body: JSONDocument) => body;
    const reads: [string, string, (body: never) => JSONDocument][] = [
      ['getPageById', `${space}/content/page/${pageId}`, inPage],
      ['getPageByPath', `${space}/content/path/reading-list`, inPage],
      ['getPageInRevisionById', `${revision}/page/${pageId}`, inPage],
      ['getPageInRevisionByPath', `${revision}/path/reading-list`, inPage],
      ['getPageDocumentInRevisionById', `${revision}/page/${pageId}/document`, itself],
      [
        'getPageDocumentInRevisionById',
        `${revision}/page/${pageId}/document?dereferenced=reusable-contents`,
        itself,
      ],
      [
        'getReusableContentDocumentInRevisionById',
        `${revision}/reusable-contents/rcLinks/document`,
        itself,
      ],
    ];
    const seen = new Map<string, JSONDocument>();
    const asStored = new Map<string, JSONDocument>();
    for (const [operationId, path, documentOf] of reads) {
      // As stored, the document has a button with a label, which GitBook's schema refuses (the
      // branches of its data's oneOf allow no other property than `ref` or `action`): only the
      // documents without it are checked against the schema.
      const stored = await s.org.owner.client.get(path).expect(200);
      expect(stored.text).toContain(s.hiddenId);
      // A visitor who sees the page reads the refs as stored, as a member does.
      const tester = await s.tester.get(path).expect(200);
      expect(documentOf(tester.body as never)).toEqual(documentOf(stored.body as never));
      asStored.set(path, documentOf(stored.body as never));

      const plain = await s.plain.get(path).expect(200);
      expectConforms(plain, operationId, GITBOOK_0201);
      expect({ path, revealed: reveals(plain, s) }).toEqual({ path, revealed: [] });
      seen.set(path, documentOf(plain.body as never));
    }

    expect(asStored.get(`${revision}/page/${pageId}/document`)).toEqual(
      linkingDocument(s, 'rcLinks'),
    );
    const document = seen.get(`${revision}/page/${pageId}/document`)!;
    const [intro, people, ...rest] = document.nodes;
    expect(textOf(intro)).toBe('Read the roadmap, the notes and the basics.');
    expect(intro.nodes?.filter((node) => node.object === 'inline')).toEqual([
      expect.objectContaining({ type: 'link', data: { ref: { kind: 'page', page: s.openId } } }),
    ]);
    // The mention and the button are gone; the text around them stays.
    expect(textOf(people)).toBe('Ask  for access.');
    expect(people.nodes?.some((node) => node.object === 'inline')).toBe(false);
    // The card of the hidden page is gone, the other stays.
    expect(rest.map((block) => block.key)).toEqual(['openCard', 'cards', 'more', 'included']);
    const [, cards, more] = rest;
    expect(cards.data?.records).toEqual({
      one: { orderIndex: 'a0', values: { title: 'Roadmap' } },
      two: { orderIndex: 'a1', values: { title: 'Basics', to: { kind: 'page', page: s.openId } } },
    });
    // An expandable's body keeps a paragraph, empty.
    const body = more.fragments?.find((fragment) => fragment.fragment === 'expandable-body');
    expect(body?.nodes.map(textOf)).toEqual(['']);
    // Included, the reusable content's link keeps its text too.
    const dereferenced = seen.get(
      `${revision}/page/${pageId}/document?dereferenced=reusable-contents`,
    )!;
    expect(dereferenced.nodes.map((node) => node.key).slice(-1)).toEqual(['shared']);
    expect(textOf(dereferenced.nodes[dereferenced.nodes.length - 1])).toBe('Shared: plan');
  });
});
