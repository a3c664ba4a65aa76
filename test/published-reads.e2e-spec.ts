import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DocumentBlock, JSONDocument } from '../src/content-engine/documents/document';
import { createTestApp, TestApp } from './helpers/app';
import {
  addReusableContentOnSpace,
  commitOnSpace,
  insertGrant,
  storeDocument,
} from './helpers/content';
import { expectConforms, GITBOOK_0201 } from './helpers/conformance';
import type { TestOrganization } from './helpers/factories';

/**
 * The reads GitBook's open-source renderer makes of a published space's content (besides the
 * revision itself): page documents with reusable contents dereferenced, reusable content
 * documents, page meta links, embeds, markdown pages, and the published site it starts from,
 * all checked against GitBook's API 0.201.0.
 */

const paragraph = (text: string, key: string): DocumentBlock => ({
  object: 'block',
  key,
  type: 'paragraph',
  data: {},
  nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }],
});

const includeBlock = (reusableContent: string, key = `rc-${reusableContent}`): DocumentBlock => ({
  object: 'block',
  key,
  type: 'reusable-content',
  isVoid: true,
  data: { ref: { kind: 'reusable-content', reusableContent } },
});

const documentOf = (...nodes: DocumentBlock[]): JSONDocument => ({
  object: 'document',
  data: {},
  nodes,
});

/** A reusable content whose body is a warning and a link to a page. */
const WARNING = documentOf(
  {
    object: 'block',
    key: 'warn',
    type: 'hint',
    data: { style: 'warning' },
    nodes: [paragraph('Back up your data first.', 'warn-text')],
  },
  paragraph('Shared footer', 'shared-footer'),
);

/** Pages of another site, for embeds: path → status, content type and body. */
const EXTERNAL_PAGES: Record<string, { status?: number; type: string; body: string }> = {
  '/article': {
    type: 'text/html; charset=utf-8',
    body: `<!doctype html><html><head>
      <title>Fallback title</title>
      <meta property="og:title" content="Release 2.0 &amp; beyond">
      <meta property="og:site_name" content="Acme Blog">
      <link rel="icon" href="/static/icon.png">
      <script>window.steal && steal(document.cookie)</script>
      </head><body><iframe src="https://evil.example/frame"></iframe><p>Hello</p></body></html>`,
  },
  '/plain': { type: 'text/html', body: '<title>  Just a title </title>' },
  '/latin1': {
    type: 'text/html; charset=iso-8859-1',
    body: '<title>Caf\u00e9</title>',
  },
  '/report.pdf': { type: 'application/pdf', body: '%PDF-1.4' },
  '/gone': { status: 404, type: 'text/html', body: '<title>Not found</title>' },
};

interface ExternalSite {
  origin: string;
  hits: Map<string, number>;
  close(): Promise<void>;
}

/** EXTERNAL_PAGES served on 127.0.0.1, counting the requests to each path. */
async function startExternalSite(): Promise<ExternalSite> {
  const hits = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const path = req.url ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const page = EXTERNAL_PAGES[path];
    if (!page) {
      res.writeHead(404).end();
      return;
    }
    const body = Buffer.from(page.body, page.type.includes('iso-8859-1') ? 'latin1' : 'utf8');
    res.writeHead(page.status ?? 200, { 'content-type': page.type }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function expectError(res: { status: number; body: unknown }, code: number, text: string) {
  expect(res.status).toBe(code);
  expect(res.body).toEqual({ error: { code, message: expect.stringContaining(text) } });
}

describe('published reads', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const revisionPath = (spaceId: string, revisionId: string, rest = '') =>
    `/v1/spaces/${spaceId}/revisions/${revisionId}${rest}`;

  /**
   * A space whose primary revision has: the reusable content `rcWarning` (WARNING), a document
   * page "Upgrade" including it between two paragraphs, an empty document page, a group and a
   * link.
   */
  async function upgradeGuide(org: TestOrganization) {
    const space = await t.factories.later.space(org, { empty: true });
    await addReusableContentOnSpace(t, space.id, {
      id: 'rcWarning',
      title: 'Backup warning',
      document: WARNING,
    });
    const upgrade = await storeDocument(
      t,
      documentOf(
        paragraph('Before you start', 'intro'),
        includeBlock('rcWarning'),
        paragraph('Then run the upgrade.', 'outro'),
      ),
    );
    const revision = await commitOnSpace(t, space.id, [
      { operation: 'insert_page', id: 'pgUpgrade', meta: { title: 'Upgrade' }, document: upgrade },
      { operation: 'insert_page', id: 'pgBlank', meta: { title: 'Blank' } },
      { operation: 'insert_page', id: 'pgGroup', type: 'group', meta: { title: 'Reference' } },
      {
        operation: 'insert_page',
        id: 'pgLink',
        type: 'link',
        meta: { title: 'Website', target: { kind: 'url', url: 'https://example.com' } },
      },
    ]);
    return { spaceId: space.id, revisionId: revision.id };
  }

  describe('getPageDocumentInRevisionById', () => {
    it('answers the page document, with reusable contents dereferenced when asked', async () => {
      const org = await t.factories.organization();
      const { spaceId, revisionId } = await upgradeGuide(org);
      const path = revisionPath(spaceId, revisionId, '/page/pgUpgrade/document');

      const stored = await org.owner.client.get(path).expect(200);
      expectConforms(stored, 'getPageDocumentInRevisionById', GITBOOK_0201);
      expect((stored.body as JSONDocument).nodes.map((node) => node.key)).toEqual([
        'intro',
        'rc-rcWarning',
        'outro',
      ]);

      // As the renderer asks: the reusable content's blocks take the block's place.
      const rendered = await org.owner.client
        .get(`${path}?evaluated=deterministic-only&dereferenced=reusable-contents`)
        .expect(200);
      expectConforms(rendered, 'getPageDocumentInRevisionById', GITBOOK_0201);
      expect(rendered.body).toEqual({
        object: 'document',
        data: {},
        nodes: [
          paragraph('Before you start', 'intro'),
          ...WARNING.nodes,
          paragraph('Then run the upgrade.', 'outro'),
        ],
      });
      // `true` dereferences reusable contents too.
      const all = await org.owner.client
        .get(`${path}?dereferenced=true&evaluated=true`)
        .expect(200);
      expect(all.body).toEqual(rendered.body);
      // No cache header: a revision never changes, the renderer keeps it as long as it likes.
      expect(rendered.headers['x-gitbook-cache-control']).toBeUndefined();
    });

    it('answers an empty document for a document page without a body', async () => {
      const org = await t.factories.organization();
      const { spaceId, revisionId } = await upgradeGuide(org);
      const res = await org.owner.client
        .get(revisionPath(spaceId, revisionId, '/page/pgBlank/document'))
        .expect(200);
      expectConforms(res, 'getPageDocumentInRevisionById', GITBOOK_0201);
      expect(res.body).toEqual({ object: 'document', data: {}, nodes: [] });
    });

    it('answers 404 for a group or link page, an unknown page, revision or space', async () => {
      const org = await t.factories.organization();
      const { spaceId, revisionId } = await upgradeGuide(org);
      const other = await upgradeGuide(org);
      const get = (path: string) => org.owner.client.get(path);
      expectError(
        await get(revisionPath(spaceId, revisionId, '/page/pgGroup/document')),
        404,
        'group page',
      );
      expectError(
        await get(revisionPath(spaceId, revisionId, '/page/pgLink/document')),
        404,
        'link page',
      );
      expectError(
        await get(revisionPath(spaceId, revisionId, '/page/nope/document')),
        404,
        'Page not found',
      );
      expectError(
        await get(revisionPath(spaceId, 'nope', '/page/pgUpgrade/document')),
        404,
        'Revision not found',
      );
      // A revision of another space is not one of this space's.
      expectError(
        await get(revisionPath(spaceId, other.revisionId, '/page/pgUpgrade/document')),
        404,
        'Revision not found',
      );
      expectError(
        await get(revisionPath('nope', revisionId, '/page/pgUpgrade/document')),
        404,
        'Space not found',
      );
    });

    it('answers 404 to a member of another organization', async () => {
      const org = await t.factories.organization();
      const stranger = await t.factories.organization();
      const { spaceId, revisionId } = await upgradeGuide(org);
      const res = await stranger.owner.client.get(
        revisionPath(spaceId, revisionId, '/page/pgUpgrade/document'),
      );
      expectError(res, 404, 'Space not found');
    });

    it('answers 400 for bad evaluated and dereferenced values, and unknown parameters', async () => {
      const org = await t.factories.organization();
      const { spaceId, revisionId } = await upgradeGuide(org);
      const path = revisionPath(spaceId, revisionId, '/page/pgUpgrade/document');
      expectError(await org.owner.client.get(`${path}?evaluated=always`), 400, 'evaluated');
      expectError(
        await org.owner.client.get(`${path}?dereferenced=everything`),
        400,
        'dereferenced',
      );
      expectError(await org.owner.client.get(`${path}?format=markdown`), 400, 'format');
    });
  });

  describe('getReusableContentDocumentInRevisionById', () => {
    it("answers the reusable content's document", async () => {
      const org = await t.factories.organization();
      const { spaceId, revisionId } = await upgradeGuide(org);
      const res = await org.owner.client
        .get(
          revisionPath(spaceId, revisionId, '/reusable-contents/rcWarning/document') +
            '?evaluated=deterministic-only',
        )
        .expect(200);
      expectConforms(res, 'getReusableContentDocumentInRevisionById', GITBOOK_0201);
      expect(res.body).toEqual(WARNING);

      // The revision lists it, with its document (the page fields GitBook added since 0.146.0,
      // `tags` and some of `layout`, are not there yet: checked against 0.146.0).
      const revision = await org.owner.client.get(revisionPath(spaceId, revisionId)).expect(200);
      expectConforms(revision, 'getRevisionById');
      expect(revision.body.reusableContents).toEqual([
        { id: 'rcWarning', title: 'Backup warning', document: expect.any(String) },
      ]);
    });

    it('dereferences reusable contents inside it, and leaves itself out', async () => {
      const org = await t.factories.organization();
      const space = await t.factories.later.space(org, { empty: true });
      await addReusableContentOnSpace(t, space.id, {
        id: 'rcInner',
        title: 'Inner',
        document: documentOf(paragraph('Inner text', 'inner')),
      });
      const revision = await addReusableContentOnSpace(t, space.id, {
        id: 'rcOuter',
        title: 'Outer',
        document: documentOf(
          paragraph('Outer text', 'outer'),
          includeBlock('rcInner'),
          includeBlock('rcOuter'),
        ),
      });
      const res = await org.owner.client
        .get(
          revisionPath(space.id, revision.id, '/reusable-contents/rcOuter/document') +
            '?dereferenced=reusable-contents',
        )
        .expect(200);
      expectConforms(res, 'getReusableContentDocumentInRevisionById', GITBOOK_0201);
      expect((res.body as JSONDocument).nodes.map((node) => node.key)).toEqual(['outer', 'inner']);
    });

    it('answers 404 for an unknown reusable content, revision or space, and to strangers', async () => {
      const org = await t.factories.organization();
      const stranger = await t.factories.organization();
      const { spaceId, revisionId } = await upgradeGuide(org);
      const path = (space: string, revision: string, id: string) =>
        revisionPath(space, revision, `/reusable-contents/${id}/document`);
      expectError(
        await org.owner.client.get(path(spaceId, revisionId, 'nope')),
        404,
        'Reusable content not found',
      );
      expectError(
        await org.owner.client.get(path(spaceId, 'nope', 'rcWarning')),
        404,
        'Revision not found',
      );
      expectError(
        await org.owner.client.get(path('nope', revisionId, 'rcWarning')),
        404,
        'Space not found',
      );
      expectError(
        await stranger.owner.client.get(path(spaceId, revisionId, 'rcWarning')),
        404,
        'Space not found',
      );
      expectError(
        await org.owner.client.get(`${path(spaceId, revisionId, 'rcWarning')}?evaluated=1`),
        400,
        'evaluated',
      );
    });
  });

  describe('listRevisionPageMetaLinks', () => {
    const metaLinks = (spaceId: string, revisionId: string, pageId: string) =>
      revisionPath(spaceId, revisionId, `/page/${pageId}/meta-links`);

    /** A translation of `sourceId` into `language` whose result space has `pages` (by id). */
    async function translated(
      org: TestOrganization,
      sourceId: string,
      language: string,
      pages: string[],
    ) {
      const translation = await t.factories.translation(org, { space: sourceId, language });
      const result = await t.factories.later.space(org, { empty: true, language });
      if (pages.length > 0) {
        await commitOnSpace(
          t,
          result.id,
          pages.map((id) => ({
            operation: 'insert_page',
            id,
            meta: { title: `${id} (${language})` },
          })),
        );
      }
      // What a run does first: make the result space (runs need a translation provider).
      await t.dataSource.query('UPDATE translations SET result_space_id = $1 WHERE id = $2', [
        result.id,
        translation.id,
      ]);
      return result.id;
    }

    it('lists the page in the translations that have it, for the source and the results', async () => {
      const org = await t.factories.organization();
      const { spaceId, revisionId } = await upgradeGuide(org);
      const french = await translated(org, spaceId, 'fr', ['pgUpgrade']);
      // German has not translated that page yet.
      await translated(org, spaceId, 'de', ['pgOther']);
      const page = (space: string) => ({ kind: 'page', page: 'pgUpgrade', space });

      const res = await org.owner.client
        .get(metaLinks(spaceId, revisionId, 'pgUpgrade'))
        .expect(200);
      expectConforms(res, 'listRevisionPageMetaLinks', GITBOOK_0201);
      expect(res.body).toEqual({ alternates: [page(spaceId), page(french)] });

      // From the French space: the page itself, then its source.
      const frenchSpace = await org.owner.client.get(`/v1/spaces/${french}`).expect(200);
      const fromFrench = await org.owner.client
        .get(metaLinks(french, frenchSpace.body.revision as string, 'pgUpgrade'))
        .expect(200);
      expectConforms(fromFrench, 'listRevisionPageMetaLinks', GITBOOK_0201);
      expect(fromFrench.body).toEqual({ alternates: [page(french), page(spaceId)] });

      // A page no translation has.
      const alone = await org.owner.client
        .get(metaLinks(spaceId, revisionId, 'pgBlank'))
        .expect(200);
      expectConforms(alone, 'listRevisionPageMetaLinks', GITBOOK_0201);
      expect(alone.body).toEqual({});
    });

    it('names only the spaces the caller may see', async () => {
      const org = await t.factories.organization();
      const { spaceId, revisionId } = await upgradeGuide(org);
      const french = await translated(org, spaceId, 'fr', ['pgUpgrade']);
      const spanish = await translated(org, spaceId, 'es', ['pgUpgrade']);
      const guest = await t.factories.member(org, null);
      await insertGrant(t, org, { space: spaceId }, { userId: guest.id });
      await insertGrant(t, org, { space: spanish }, { userId: guest.id });
      const res = await guest.client.get(metaLinks(spaceId, revisionId, 'pgUpgrade')).expect(200);
      expectConforms(res, 'listRevisionPageMetaLinks', GITBOOK_0201);
      const spaces = (res.body.alternates as { space: string }[]).map((ref) => ref.space);
      expect(spaces).toEqual([spaceId, spanish]);
      expect(spaces).not.toContain(french);
    });

    it('answers {} for a space without translations, 404 for unknown pages, revisions and spaces', async () => {
      const org = await t.factories.organization();
      const stranger = await t.factories.organization();
      const { spaceId, revisionId } = await upgradeGuide(org);
      const res = await org.owner.client.get(metaLinks(spaceId, revisionId, 'pgGroup')).expect(200);
      expectConforms(res, 'listRevisionPageMetaLinks', GITBOOK_0201);
      expect(res.body).toEqual({});
      expectError(
        await org.owner.client.get(metaLinks(spaceId, revisionId, 'nope')),
        404,
        'Page not found',
      );
      expectError(
        await org.owner.client.get(metaLinks(spaceId, 'nope', 'pgUpgrade')),
        404,
        'Revision not found',
      );
      expectError(
        await org.owner.client.get(metaLinks('nope', revisionId, 'pgUpgrade')),
        404,
        'Space not found',
      );
      expectError(
        await stranger.owner.client.get(metaLinks(spaceId, revisionId, 'pgUpgrade')),
        404,
        'Space not found',
      );
      // Text PostgreSQL cannot store, anywhere in the request, is bad input.
      expectError(
        await org.owner.client.get(metaLinks(spaceId, revisionId, 'pg%00')),
        400,
        'U+0000',
      );
    });
  });

  describe('getEmbedByUrlInSpace', () => {
    let site: ExternalSite;
    beforeAll(async () => {
      site = await startExternalSite();
    });
    afterAll(() => site.close());

    const embed = (spaceId: string, url: string) =>
      `/v1/spaces/${spaceId}/embed?url=${encodeURIComponent(url)}`;

    it("answers a link card from the page's head, and nothing of its markup", async () => {
      const org = await t.factories.organization();
      const space = await t.factories.later.space(org);
      const reader = await t.factories.asMember(org, 'read');
      const res = await reader.get(embed(space.id, `${site.origin}/article`)).expect(200);
      expectConforms(res, 'getEmbedByUrlInSpace', GITBOOK_0201);
      expect(res.body).toEqual({
        type: 'link',
        title: 'Release 2.0 & beyond',
        site: 'Acme Blog',
        icon: `${site.origin}/static/icon.png`,
      });
      const text = JSON.stringify(res.body);
      for (const markup of ['<script', 'steal', '<iframe', 'evil.example']) {
        expect(text).not.toContain(markup);
      }

      // Kept: asking again, from any space, does not fetch the page again.
      const other = await t.factories.later.space(org);
      const again = await org.owner.client
        .get(embed(other.id, `${site.origin}/article`))
        .expect(200);
      expect(again.body).toEqual(res.body);
      expect(site.hits.get('/article')).toBe(1);
    });

    it('falls back on the title, the host and the URL, and reads the charset', async () => {
      const org = await t.factories.organization();
      const space = await t.factories.later.space(org);
      const get = async (path: string) => {
        const res = await org.owner.client
          .get(embed(space.id, `${site.origin}${path}`))
          .expect(200);
        expectConforms(res, 'getEmbedByUrlInSpace', GITBOOK_0201);
        return res.body as Record<string, unknown>;
      };
      expect(await get('/plain')).toEqual({
        type: 'link',
        title: 'Just a title',
        site: '127.0.0.1',
      });
      expect(await get('/latin1')).toMatchObject({ title: 'Caf\u00e9' });
      expect(await get('/report.pdf')).toEqual({
        type: 'link',
        title: 'report.pdf',
        site: '127.0.0.1',
      });
    });

    it('answers 404 when the page cannot be fetched', async () => {
      const org = await t.factories.organization();
      const space = await t.factories.later.space(org);
      expectError(
        await org.owner.client.get(embed(space.id, `${site.origin}/gone`)),
        404,
        'HTTP 404',
      );
      // Nothing listens on port 9 of 127.0.0.1 (discard): the connection is refused.
      expectError(
        await org.owner.client.get(embed(space.id, 'http://127.0.0.1:9/page')),
        404,
        'refused',
      );
    });

    it('answers 400 for a URL that is not http(s), 404 for unknown spaces and strangers', async () => {
      const org = await t.factories.organization();
      const stranger = await t.factories.organization();
      const space = await t.factories.later.space(org);
      const get = (path: string) => org.owner.client.get(path);
      expectError(
        await get(embed(space.id, 'ftp://example.com/file')),
        400,
        'url must be an http or https URL',
      );
      expectError(
        await get(embed(space.id, 'javascript:alert(1)')),
        400,
        'url must be an http or https URL',
      );
      expectError(await get(embed(space.id, 'not a url')), 400, 'url');
      expectError(await get(`/v1/spaces/${space.id}/embed`), 400, 'url');
      expectError(await get(embed('nope', `${site.origin}/article`)), 404, 'Space not found');
      expectError(
        await stranger.owner.client.get(embed(space.id, `${site.origin}/article`)),
        404,
        'Space not found',
      );
    });

    it('keeps to the outbound policy: no private addresses unless allowed', async () => {
      const strict = await createTestApp({ OUTBOUND_ALLOW_PRIVATE: 'false' });
      try {
        const org = await strict.factories.organization();
        const space = await strict.factories.space(org);
        const hits = site.hits.get('/plain') ?? 0;
        const res = await org.owner.client.get(embed(space.id, `${site.origin}/plain`));
        expectError(res, 404, 'only public internet addresses');
        expect(site.hits.get('/plain') ?? 0).toBe(hits);
      } finally {
        await strict.close();
      }
    });
  });

  describe('getPageInRevisionById', () => {
    it('answers markdown as the renderer asks for it, format.markdown.refs accepted', async () => {
      const org = await t.factories.organization();
      const { spaceId, revisionId } = await upgradeGuide(org);
      const res = await org.owner.client
        .get(
          revisionPath(spaceId, revisionId, '/page/pgUpgrade') +
            '?format=markdown&format.markdown.refs=stable&dereferenced=reusable-contents',
        )
        .expect(200);
      // Checked against 0.146.0, as getRevisionById above.
      expectConforms(res, 'getPageInRevisionById');
      const markdown = res.body.markdown as string;
      expect(markdown).toContain('Before you start');
      // Dereferenced: the reusable content's text is in the page's markdown.
      expect(markdown).toContain('Back up your data first.');
      expect(markdown.indexOf('Back up')).toBeLessThan(markdown.indexOf('Then run the upgrade.'));

      expectError(
        await org.owner.client.get(
          revisionPath(spaceId, revisionId, '/page/pgUpgrade') + '?format.markdown.refs=absolute',
        ),
        400,
        'format.markdown.refs',
      );
    });
  });

  describe('getPublishedContentSite', () => {
    it('conforms to GitBook 0.201.0 with site spaces and with sections', async () => {
      const org = await t.factories.organization();
      const flat = await t.factories.later.site(org);
      const siteSpace = await t.factories.siteSpace(org, flat.id, { spaceTitle: 'Guides' });
      await org.owner.client.post(`/v1/orgs/${org.id}/sites/${flat.id}/publish`).expect(200);
      const res = await org.owner.client
        .get(`/v1/orgs/${org.id}/sites/${flat.id}/published`)
        .expect(200);
      expectConforms(res, 'getPublishedContentSite', GITBOOK_0201);
      // What the renderer dereferences without a guard.
      for (const customization of [
        res.body.customizations.site,
        res.body.customizations.siteSpaces[siteSpace.id],
      ]) {
        expect(customization.socialAccounts).toEqual([]);
        expect(customization.styling.codeTheme).toEqual({
          default: { light: 'default-light', dark: 'default-dark' },
          openapi: { light: 'default-light', dark: 'default-dark' },
        });
        expect(customization.pageActions.items).toEqual(['markdown', 'pdf']);
        expect(customization.ai).toEqual({ mode: 'none' });
      }
      expect(res.body.site).toMatchObject({
        appliedType: 'basic',
        defaultLevel: 'inherit',
        permissions: { view: true, admin: true },
        urls: { preview: expect.stringMatching(new RegExp(`/preview/${flat.id}$`)) },
      });
      expect(res.body.structure.structure[0].draft).toBe(false);

      const sectioned = await t.factories.later.site(org);
      await t.factories.siteSection(org, sectioned.id, { title: 'Guides', spaceTitle: 'Guides' });
      const sections = await org.owner.client
        .get(`/v1/orgs/${org.id}/sites/${sectioned.id}/published`)
        .expect(200);
      expectConforms(sections, 'getPublishedContentSite', GITBOOK_0201);
    });

    it('follows the site customization switches in pageActions.items', async () => {
      const org = await t.factories.organization();
      const site = await t.factories.later.site(org);
      await org.owner.client
        .put(`/v1/orgs/${org.id}/sites/${site.id}/customization`, {
          pageActions: { externalAI: true, markdown: false, mcp: true },
          pdf: { enabled: false },
          git: { showEditLink: true },
        })
        .expect(200);
      const res = await org.owner.client
        .get(`/v1/orgs/${org.id}/sites/${site.id}/published`)
        .expect(200);
      expectConforms(res, 'getPublishedContentSite', GITBOOK_0201);
      expect(res.body.customizations.site.pageActions.items).toEqual(['external-ai', 'mcp', 'git']);
      // The customization operations keep speaking 0.146.0.
      const customization = await org.owner.client
        .get(`/v1/orgs/${org.id}/sites/${site.id}/customization`)
        .expect(200);
      expectConforms(customization, 'getSiteCustomizationById');
    });
  });
});
