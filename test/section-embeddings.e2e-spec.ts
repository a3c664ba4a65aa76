import { createTestApp, type TestApp } from './helpers/app';
import type { Client } from './helpers/client';
import { expectConforms } from './helpers/conformance';
import { insertPage } from './helpers/content';
import { parseEventStream } from './helpers/event-stream';
import type { TestOrganization } from './helpers/factories';
import { startFakeAiServer, type FakeAiServer } from './helpers/fake-ai-server';

/**
 * Sections embedded for answers (AI_EMBEDDING_MODEL): each section once, again only when its
 * text changed, forgotten with its page; a site's answer finds the page that answers a question
 * in other words (its embedding nearest the question's, fused with the full-text results), and
 * never a page hidden from the visitor. The fake model's vectors say a text's topic
 * (fake-ai-server.ts: "SAML assertion" and "Okta identity provider" are one topic, sso).
 * pgvector compares them: PGlite's on the embedded database; the CI's PostgreSQL server has no
 * pgvector (Debian 12 does not package it), where answers use full-text search alone.
 */

const SITES = 'http://docs.localhost/{organization}';
const BETA = 'visitor.claims.unsigned.beta === true';
/** Asked in words none of the pages uses; its topic (sso) is the Okta page's. */
const QUESTION = 'Which SAML assertion attributes are required?';

interface Source {
  page: string;
}

const onPostgres = Boolean(process.env.DATABASE_URL);

describe('section embeddings (e2e)', () => {
  let t: TestApp;
  let ai: FakeAiServer;

  beforeAll(async () => {
    ai = await startFakeAiServer();
    t = await createTestApp({
      SITES_URL: SITES,
      AI_API_URL: ai.url,
      AI_EMBEDDING_MODEL: 'fake-topics',
    });
  });
  afterAll(async () => {
    await t.close();
    await ai.close();
  });
  beforeEach(() => {
    ai.requests.length = 0;
    ai.options.embeddingsStatus = undefined;
  });

  /** Texts sent to `/embeddings` since the test began. */
  const embeddedTexts = () =>
    ai.requests
      .filter((request) => request.path === '/embeddings')
      .flatMap((request) => request.body.input as string[]);

  const countRows = async (table: string, spaceId: string, pageId?: string) => {
    const [row] = (await t.dataSource.query(
      `SELECT count(*)::int AS n FROM ${table} WHERE space_id = $1 AND ($2::text IS NULL OR page_id = $2)`,
      [spaceId, pageId ?? null],
    )) as { n: number }[];
    return row.n;
  };

  /** Waits until every section of the space has its embedding by the current text. */
  async function embedded(spaceId: string): Promise<void> {
    for (const deadline = Date.now() + 30_000; ;) {
      const [row] = (await t.dataSource.query(
        `SELECT count(*)::int AS stale FROM page_sections s
           LEFT JOIN section_embeddings e USING (space_id, page_id, section_id)
          WHERE s.space_id = $1
            AND (e.space_id IS NULL
                 OR e.text_hash <> md5(s.page_title || E'\\n' || s.section_title || E'\\n' || s.body))`,
        [spaceId],
      )) as { stale: number }[];
      const orphans = await t.dataSource.query(
        `SELECT 1 FROM section_embeddings e WHERE e.space_id = $1 AND NOT EXISTS (
           SELECT 1 FROM page_sections s WHERE (s.space_id, s.page_id, s.section_id)
                                             = (e.space_id, e.page_id, e.section_id))`,
        [spaceId],
      );
      if (row.stale === 0 && orphans.length === 0) return;
      if (Date.now() > deadline) throw new Error(`${row.stale} sections still to embed`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  async function pagesOf(org: TestOrganization, spaceId: string) {
    const res = await org.owner.client.get(`/v1/spaces/${spaceId}/content`).expect(200);
    const byTitle = new Map<string, string>();
    for (const page of res.body.pages as { id: string; title: string }[]) {
      byTitle.set(page.title, page.id);
    }
    return byTitle;
  }

  (onPostgres ? describe.skip : describe)('with pgvector', () => {
    it('embeds each section once, again only the sections an edit changed, and forgets deleted pages', async () => {
      const org = await t.factories.organization();
      const { id: spaceId } = await t.factories.space(org);
      await t.factories.changeRequest(org, spaceId, {
        changes: [
          insertPage('Okta', 'Connect your Okta identity provider.\n\n## Groups\n\nMap groups.'),
          insertPage('Invoices', 'Every invoice is sent by email.'),
          insertPage('Webhooks', 'Webhooks deliver events.'),
        ],
        merge: true,
      });
      await embedded(spaceId);
      const sections = await countRows('page_sections', spaceId);
      expect(sections).toBeGreaterThanOrEqual(4);
      expect(await countRows('section_embeddings', spaceId)).toBe(sections);
      expect(embeddedTexts()).toHaveLength(sections);
      expect(embeddedTexts()).toContainEqual(expect.stringMatching(/^Okta\nGroups\nMap groups/));

      const pages = await pagesOf(org, spaceId);
      ai.requests.length = 0;
      await t.factories.changeRequest(org, spaceId, {
        changes: [
          {
            operation: 'update_page',
            page: pages.get('Invoices'),
            document: { markdown: 'Every invoice and receipt is sent by email.' },
          },
          { operation: 'delete_page', page: pages.get('Webhooks') },
        ],
        merge: true,
      });
      await embedded(spaceId);
      // The one changed section, nothing else.
      expect(embeddedTexts()).toEqual([
        expect.stringContaining('Every invoice and receipt is sent by email.'),
      ]);
      expect(await countRows('section_embeddings', spaceId, pages.get('Webhooks'))).toBe(0);
      expect(await countRows('section_embeddings', spaceId)).toBe(
        await countRows('page_sections', spaceId),
      );
    });

    describe('answers', () => {
      let org: TestOrganization;
      let siteId: string;
      let siteSpaceId: string;
      let oktaId: string;
      let betaId: string;
      let plain: Client;
      let tester: Client;

      beforeAll(async () => {
        org = await t.factories.organization();
        const site = await t.factories.site(org, { title: 'Identity docs' });
        siteId = site.id;
        const guides = await t.factories.siteSpace(org, site.id, { spaceTitle: 'Guides' });
        siteSpaceId = guides.id;
        await t.factories.changeRequest(org, guides.space.id, {
          changes: [
            insertPage('Okta', 'Connect your Okta identity provider in the settings.'),
            insertPage('Invoices', 'Every invoice is sent by email.'),
            {
              operation: 'insert_page',
              title: 'Beta roadmap',
              condition: BETA,
              document: { markdown: 'The next Okta identity release, for beta testers.' },
            },
          ],
          merge: true,
        });
        const pages = await pagesOf(org, guides.space.id);
        oktaId = pages.get('Okta')!;
        betaId = pages.get('Beta roadmap')!;
        const sitePath = `/v1/orgs/${org.id}/sites/${site.id}`;
        await org.owner.client.put(`${sitePath}/customization`, { ai: { mode: 'search' } });
        await org.owner.client.post(`${sitePath}/publish`).expect(200);
        await embedded(guides.space.id);
        const url = `https://docs.localhost/${org.id}/${site.id}`;
        const tokenOf = async (claims: object) => {
          const res = await t.anonymous
            .post('/v1/urls/published', { url, visitor: { unsignedClaims: claims } })
            .expect(200);
          return t.as(res.body.apiToken as string);
        };
        plain = await tokenOf({});
        tester = await tokenOf({ beta: true });
      });

      /** The pages the ask cites (its first event; no chat model here: the sources alone). */
      async function sourcesOf(caller: Client, question: string): Promise<string[]> {
        const res = await caller
          .post(`/v1/orgs/${org.id}/sites/${siteId}/ask`, {
            question,
            scope: { mode: 'default', currentSiteSpace: siteSpaceId },
          })
          .expect(200);
        const [first] = parseEventStream(res.text);
        return (first.data as { answer: { sources: Source[] } }).answer.sources.map(
          (source) => source.page,
        );
      }

      it('cites the page that answers a question asked in other words', async () => {
        // Full-text search alone finds nothing: no word of the question is on a page.
        const search = await plain
          .post(`/v1/orgs/${org.id}/sites/${siteId}/search`, {
            query: QUESTION,
            scope: { mode: 'default', currentSiteSpace: siteSpaceId },
          })
          .expect(200);
        expect(search.body.items).toEqual([]);
        expect(await sourcesOf(plain, QUESTION)).toEqual([oktaId]);
        // The question was embedded by the sections' model.
        expect(embeddedTexts()).toContain(QUESTION);
      });

      it("finds the page by meaning for an organization's member too", async () => {
        const res = await org.owner.client
          .post(`/v1/orgs/${org.id}/ask`, { query: QUESTION })
          .expect(200);
        expectConforms(res, 'askInOrganization');
        const sources = (res.body.answer.sources as Source[]).map((source) => source.page);
        // A member reads every page, the beta one too; the invoices are far in meaning.
        expect(sources.sort()).toEqual([oktaId, betaId].sort());
      });

      it('never cites by meaning a page hidden from the visitor', async () => {
        expect(await sourcesOf(plain, QUESTION)).not.toContain(betaId);
        expect(await sourcesOf(tester, QUESTION)).toEqual(expect.arrayContaining([oktaId, betaId]));
      });

      it('answers from full-text search alone when the question cannot be embedded', async () => {
        ai.options.embeddingsStatus = 503;
        expect(await sourcesOf(plain, QUESTION)).toEqual([]);
        expect(await sourcesOf(plain, 'Okta identity provider')).toEqual([oktaId]);
      });
    });
  });

  (onPostgres ? describe : describe.skip)('on a PostgreSQL server without pgvector', () => {
    it('keeps no embeddings and answers from full-text search', async () => {
      const vector = await t.dataSource.query(
        `SELECT 1 FROM pg_available_extensions WHERE name = 'vector'`,
      );
      // A server that has pgvector runs the tests above instead (unset DATABASE_URL's check).
      expect(vector).toEqual([]);
      const org = await t.factories.organization();
      const { id: spaceId } = await t.factories.space(org);
      await t.factories.changeRequest(org, spaceId, {
        changes: [insertPage('Okta', 'Connect your Okta identity provider.')],
        merge: true,
      });
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      expect(embeddedTexts()).toEqual([]);
      expect(await countRows('section_embeddings', spaceId)).toBe(0);
    });
  });
});
