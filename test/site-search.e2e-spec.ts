import { createTestApp, TestApp } from './helpers/app';
import type { PageOf, SiteBody, SiteSpaceBody } from './helpers/bodies';
import type { Client } from './helpers/client';
import { expectConforms, GITBOOK_0201 } from './helpers/conformance';
import { insertPage } from './helpers/content';
import type { TestOrganization } from './helpers/factories';

/**
 * `searchSiteContent`: search over the spaces of a site's site spaces, in every body form
 * GitBook's renderer sends, for members and for a published site's token (which sees only the
 * site spaces its visitor may see).
 */

const SITES = 'http://docs.localhost/{organization}';

interface SectionHit {
  id: string;
  title: string;
  path: string;
  body: string;
  score: number;
  urls: { app: string };
}
interface PageHit {
  id: string;
  title: string;
  description: string;
  path: string;
  score: number;
  rank: number;
  ancestors: { title: string }[];
  sections: SectionHit[];
  urls: { app: string };
}
interface SpaceHit {
  type: 'space';
  id: string;
  title: string;
  score: number;
  pages: PageHit[];
}

describe('site search (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ SITES_URL: SITES });
  });
  afterAll(() => t.close());

  const searchPath = (org: TestOrganization, siteId: string, extra = '') =>
    `/v1/orgs/${org.id}/sites/${siteId}/search${extra}`;

  /** Merges a change request adding a page `title` with `markdown` (indexed on merge). */
  async function write(org: TestOrganization, spaceId: string, title: string, markdown: string) {
    await t.factories.changeRequest(org, spaceId, {
      changes: [insertPage(title, markdown)],
      merge: true,
    });
  }

  /** Searches and answers the ids of the spaces found (checked against GitBook's schema). */
  async function spacesFound(client: Client, path: string, body: object): Promise<string[]> {
    const res = await client.post(path, body).expect(200);
    expectConforms(res, 'searchSiteContent', GITBOOK_0201);
    return (res.body as PageOf<SpaceHit>).items.map((item) => item.id).sort();
  }

  function expectError(res: { status: number; body: unknown }, code: number, text: string) {
    expect({ status: res.status, body: res.body }).toEqual({
      status: code,
      body: { error: { code, message: expect.stringContaining(text) } },
    });
  }

  /**
   * A site without sections: site spaces `guides` (the default; the word "zephyrine") and
   * `reference` ("quokka"); `outside`, a space of the organization in no site, has both words.
   */
  async function flatSite() {
    const org = await t.factories.organization();
    const site = await t.factories.site(org);
    const guides = await t.factories.siteSpace(org, site.id, { spaceTitle: 'Guides' });
    const reference = await t.factories.siteSpace(org, site.id, { spaceTitle: 'Reference' });
    const outside = await t.factories.space(org, { title: 'Outside' });
    await write(org, guides.space.id, 'Installation', 'Set up the zephyrine engine first.');
    await write(org, reference.space.id, 'Animals', 'A quokka lives here.');
    await write(org, outside.id, 'Elsewhere', 'A zephyrine and a quokka.');
    return { org, site, guides, reference, outside: outside.id };
  }

  describe('members', () => {
    it('finds a word in the site space whose page has it, in GitBook’s newer shape', async () => {
      const { org, site, guides } = await flatSite();
      const res = await org.owner.client
        .post(searchPath(org, site.id), { query: 'zephyrine', mode: 'all' })
        .expect(200);
      expectConforms(res, 'searchSiteContent', GITBOOK_0201);
      const body = res.body as PageOf<SpaceHit>;
      expect(body.count).toBe(1);
      expect(body.next).toBeUndefined();
      const appSpace = `${t.config.appUrl}/o/${org.id}/s/${guides.space.id}`;
      expect(body.items).toEqual([
        {
          type: 'space',
          id: guides.space.id,
          title: 'Guides',
          score: expect.any(Number),
          pages: [
            {
              id: expect.any(String),
              title: 'Installation',
              description: '',
              path: 'installation',
              score: expect.any(Number),
              rank: 1,
              ancestors: [],
              urls: { app: `${appSpace}/installation` },
              sections: [
                {
                  id: expect.any(String),
                  title: 'Installation',
                  path: 'installation',
                  body: 'Set up the zephyrine engine first.',
                  score: expect.any(Number),
                  urls: { app: `${appSpace}/installation` },
                },
              ],
            },
          ],
        },
      ]);
      const [space] = body.items;
      expect(space.score).toBeGreaterThan(0);
      expect(space.pages[0].score).toBe(space.score);
      expect(res.headers['x-gitbook-cache-tag']?.split(',')).toEqual(
        expect.arrayContaining([`site:${site.id}`, `space:${guides.space.id}`]),
      );
    });

    it('restricts to the site spaces of the mode: current, specific, all, and the scope forms', async () => {
      const { org, site, guides, reference } = await flatSite();
      const path = searchPath(org, site.id);
      const as = org.owner.client;
      const both = [guides.space.id, reference.space.id].sort();
      const cases: [string, object, string[]][] = [
        // A space of the organization outside the site is never searched.
        ['all', { query: 'zephyrine', mode: 'all' }, [guides.space.id]],
        ['all', { query: 'quokka', mode: 'all' }, [reference.space.id]],
        ['all, prefix', { query: 'zephyrine quok', mode: 'all' }, []],
        // Without sections, the default scope of a site space is that site space alone.
        [
          'current',
          { query: 'zephyrine', mode: 'current', siteSpaceId: guides.id },
          [guides.space.id],
        ],
        ['current', { query: 'quokka', mode: 'current', siteSpaceId: guides.id }, []],
        ['specific', { query: 'quokka', mode: 'specific', siteSpaceIds: [guides.id] }, []],
        [
          'specific',
          { query: 'quokka', mode: 'specific', siteSpaceIds: [reference.id] },
          [reference.space.id],
        ],
        [
          'siteSpaceIds alone',
          { query: 'quokka', siteSpaceIds: [reference.id] },
          [reference.space.id],
        ],
        ['scope all', { query: 'quokka', scope: { mode: 'all' } }, [reference.space.id]],
        [
          'scope specific',
          { query: 'zephyrine', scope: { mode: 'specific', siteSpaceIds: [reference.id] } },
          [],
        ],
        [
          'scope default',
          { query: 'quokka', scope: { mode: 'default', currentSiteSpace: reference.id } },
          [reference.space.id],
        ],
        // Without a current site space: the root's default, guides.
        ['scope default, no current', { query: 'quokka', scope: { mode: 'default' } }, []],
        [
          'restricted to the current one',
          {
            query: 'quokka',
            scope: {
              mode: 'default',
              currentSiteSpace: reference.id,
              restrictTo: 'currentSiteSpace',
            },
          },
          [reference.space.id],
        ],
        [
          'restricted to the others',
          {
            query: 'quokka',
            scope: {
              mode: 'default',
              currentSiteSpace: reference.id,
              restrictTo: 'otherSiteSpaces',
            },
          },
          [],
        ],
      ];
      const found: Record<string, string[]> = {};
      const expected: Record<string, string[]> = {};
      for (const [index, [label, body, spaces]] of cases.entries()) {
        found[`${index} ${label}`] = await spacesFound(as, path, body);
        expected[`${index} ${label}`] = spaces.sort();
      }
      expect(found).toEqual(expected);

      // A word in both site spaces: each scope gets its share.
      await write(org, guides.space.id, 'Tips', 'Watch the lighthouse.');
      await write(org, reference.space.id, 'More', 'Another lighthouse.');
      expect(await spacesFound(as, path, { query: 'lighthouse', mode: 'all' })).toEqual(both);
      expect(
        await spacesFound(as, path, {
          query: 'lighthouse',
          mode: 'current',
          siteSpaceId: reference.id,
        }),
      ).toEqual([reference.space.id]);
    });

    it('on a site with sections, searches each section’s default, or its variant in the current language', async () => {
      const org = await t.factories.organization();
      const site = await t.factories.site(org);
      const spaces = {} as Record<'guidesEn' | 'guidesFr' | 'apiEn' | 'apiFr', string>;
      for (const [key, title, language] of [
        ['guidesEn', 'Guides', 'en'],
        ['guidesFr', 'Guides FR', 'fr'],
        ['apiEn', 'API', 'en'],
        ['apiFr', 'API FR', 'fr'],
      ] as const) {
        spaces[key] = (await t.factories.space(org, { title, language })).id;
        await write(org, spaces[key], 'Beacon', `The lighthouse of ${title}.`);
      }
      const guides = await t.factories.siteSection(org, site.id, {
        spaceId: spaces.guidesEn,
        title: 'Guides',
      });
      const guidesFr = await t.factories.siteSpace(org, site.id, {
        spaceId: spaces.guidesFr,
        sectionId: guides.id,
      });
      const api = await t.factories.siteSection(org, site.id, {
        spaceId: spaces.apiEn,
        title: 'API',
      });
      await t.factories.siteSpace(org, site.id, { spaceId: spaces.apiFr, sectionId: api.id });
      const guidesEn = guides.siteSpaces[0];
      const path = searchPath(org, site.id);
      const as = org.owner.client;
      const query = 'lighthouse';
      const cases: [string, object, string[]][] = [
        ['all', { query, mode: 'all' }, Object.values(spaces)],
        ['defaults', { query, scope: { mode: 'default' } }, [spaces.guidesEn, spaces.apiEn]],
        [
          'from guides en',
          { query, scope: { mode: 'default', currentSiteSpace: guidesEn.id } },
          [spaces.guidesEn, spaces.apiEn],
        ],
        [
          'from guides fr',
          { query, scope: { mode: 'default', currentSiteSpace: guidesFr.id } },
          [spaces.guidesFr, spaces.apiFr],
        ],
        [
          'current (deprecated) from guides fr',
          { query, mode: 'current', siteSpaceId: guidesFr.id },
          [spaces.guidesFr, spaces.apiFr],
        ],
        [
          'guides fr only',
          {
            query,
            scope: {
              mode: 'default',
              currentSiteSpace: guidesFr.id,
              restrictTo: 'currentSiteSpace',
            },
          },
          [spaces.guidesFr],
        ],
        [
          'the others of guides fr',
          {
            query,
            scope: {
              mode: 'default',
              currentSiteSpace: guidesFr.id,
              restrictTo: 'otherSiteSpaces',
            },
          },
          [spaces.apiFr],
        ],
        [
          'the variants of guides',
          { query, mode: 'specific', siteSpaceIds: [guidesEn.id, guidesFr.id] },
          [spaces.guidesEn, spaces.guidesFr],
        ],
      ];
      const found: Record<string, string[]> = {};
      const expected: Record<string, string[]> = {};
      for (const [label, body, ids] of cases) {
        found[label] = await spacesFound(as, path, body);
        expected[label] = [...ids].sort();
      }
      expect(found).toEqual(expected);
    });

    it('finds words in every language, with typos, each page held to its space’s language', async () => {
      const org = await t.factories.organization();
      const site = await t.factories.site(org);
      const spaces: Record<string, string> = {};
      for (const [language, title, markdown] of [
        ['fr', 'Paramètres', 'Les paramètres règlent la visibilité de l’espace.'],
        ['ja', '検索', 'サイト内の全文検索を使うと、ページを素早く見つけられます。'],
        ['en', 'Webhooks', 'Webhooks notify your server of changes.'],
      ]) {
        const { id } = await t.factories.space(org, { title: language, language });
        await t.factories.siteSpace(org, site.id, { spaceId: id });
        await write(org, id, title, markdown);
        spaces[language] = id;
      }
      const search = async (query: string) => {
        const res = await org.owner.client
          .post(searchPath(org, site.id), { query, scope: { mode: 'all' } })
          .expect(200);
        expectConforms(res, 'searchSiteContent', GITBOOK_0201);
        return res.body as PageOf<SpaceHit>;
      };
      const accents = await search('parametres');
      expect(accents.items.map((space) => space.id)).toEqual([spaces.fr]);
      // Unmarked: GitBook's renderer highlights the query in the body itself.
      expect(accents.items[0].pages[0].sections[0].body).toBe(
        'Les paramètres règlent la visibilité de l’espace.',
      );
      expect((await search('全文検索')).items.map((space) => space.id)).toEqual([spaces.ja]);
      const typo = await search('webhok');
      expect(typo.items.map((space) => space.id)).toEqual([spaces.en]);
      expect(typo.items[0].pages[0].title).toBe('Webhooks');
    });

    it('pages through spaces with `limit` and `next`, pages keeping their rank among all', async () => {
      const org = await t.factories.organization();
      const site = await t.factories.site(org);
      for (const title of ['One', 'Two', 'Three']) {
        const siteSpace = await t.factories.siteSpace(org, site.id, { spaceTitle: title });
        await write(org, siteSpace.space.id, 'Beacon', `A lighthouse in ${title}.`);
      }
      const path = searchPath(org, site.id);
      const body = { query: 'lighthouse', mode: 'all' };
      const first = await org.owner.client.post(`${path}?limit=2`, body).expect(200);
      expectConforms(first, 'searchSiteContent', GITBOOK_0201);
      expect(first.body.count).toBe(3);
      expect(first.body.items).toHaveLength(2);
      const second = await org.owner.client
        .post(`${path}?limit=2&page=${first.body.next.page}`, body)
        .expect(200);
      expectConforms(second, 'searchSiteContent', GITBOOK_0201);
      expect(second.body.next).toBeUndefined();
      const items = [...first.body.items, ...second.body.items] as SpaceHit[];
      expect(new Set(items.map((item) => item.id)).size).toBe(3);
      expect(items.flatMap((item) => item.pages.map((page) => page.rank))).toEqual([1, 2, 3]);
      const scores = items.map((item) => item.score);
      expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    });

    it('leaves out the spaces in the trash, and accepts fields the schema does not name', async () => {
      const { org, site, reference } = await flatSite();
      const path = searchPath(org, site.id);
      await org.owner.client.delete(`/v1/spaces/${reference.space.id}`).expect(204);
      expect(
        await spacesFound(org.owner.client, path, {
          query: 'quokka',
          mode: 'all',
          asEmbeddable: false,
          cacheBust: 'x1',
        }),
      ).toEqual([]);
      // Its site space is gone from the site as the search sees it.
      const named = await org.owner.client
        .post(path, { query: 'quokka', siteSpaceIds: [reference.id] })
        .expect(400);
      expectError(named, 400, `siteSpaceIds: no site space ${reference.id} in this site.`);
    });

    it('answers 400 for a bad query, scope or page, as {error: {code, message}}', async () => {
      const { org, site, guides } = await flatSite();
      const path = searchPath(org, site.id);
      const cases: [object, string][] = [
        [{ mode: 'all' }, 'query'],
        [{ query: '', mode: 'all' }, 'query must be longer than or equal to 1 characters'],
        [{ query: '   ', mode: 'all' }, 'query must be longer than or equal to 1 characters'],
        [{ query: 'x'.repeat(513), mode: 'all' }, 'query must be shorter than or equal to 512'],
        [{ query: 42, mode: 'all' }, 'query must be a string'],
        [{ query: 'zephyrine' }, 'scope is required'],
        [{ query: 'zephyrine', mode: 'everything' }, 'mode must be one of'],
        [{ query: 'zephyrine', mode: 'current' }, 'siteSpaceId is required'],
        [{ query: 'zephyrine', mode: 'specific' }, 'siteSpaceIds is required'],
        [{ query: 'zephyrine', siteSpaceIds: [] }, 'siteSpaceIds must contain at least 1'],
        [{ query: 'zephyrine', siteSpaceIds: ['nope'] }, 'siteSpaceIds: no site space nope'],
        [{ query: 'zephyrine', scope: null }, 'scope should not be null'],
        [{ query: 'zephyrine', scope: 'all' }, 'scope must be an object'],
        [{ query: 'zephyrine', scope: { mode: 'some' } }, 'scope.mode must be one of'],
        [{ query: 'zephyrine', scope: { mode: 'specific' } }, 'scope.siteSpaceIds is required'],
        [
          { query: 'zephyrine', scope: { mode: 'default', restrictTo: 'currentSiteSpace' } },
          'scope.restrictTo needs scope.currentSiteSpace',
        ],
        [
          {
            query: 'zephyrine',
            scope: { mode: 'default', currentSiteSpace: guides.id, restrictTo: 'elsewhere' },
          },
          'scope.restrictTo must be one of',
        ],
        [
          { query: 'zephyrine', scope: { mode: 'default', currentSiteSpace: 'nope' } },
          'scope.currentSiteSpace: no site space nope in this site.',
        ],
        [{ query: 'zephyrine', scope: { mode: 'all' }, mode: 'all' }, 'not both'],
      ];
      for (const [body, message] of cases) {
        const res = await org.owner.client.post(path, body);
        expectError(res, 400, message);
      }
      expectError(
        await org.owner.client.post(`${path}?page=nope`, { query: 'zephyrine', mode: 'all' }),
        400,
        'page is not a valid page identifier',
      );
      expectError(
        await org.owner.client.post(`${path}?limit=0`, { query: 'zephyrine', mode: 'all' }),
        400,
        'limit must not be less than 1',
      );
    });

    it('answers 404 for an unknown site and to another organization, 403 to a guest', async () => {
      const { org, site } = await flatSite();
      const body = { query: 'zephyrine', mode: 'all' };
      expectError(
        await org.owner.client.post(searchPath(org, 'nope'), body),
        404,
        'Site not found.',
      );
      const stranger = (await t.factories.organization()).owner.client;
      expectError(
        await stranger.post(searchPath(org, site.id), body),
        404,
        'Organization not found.',
      );
      const guest = await t.factories.asMember(org, null);
      expectError(await guest.post(searchPath(org, site.id), body), 403, '');
      const reader = await t.factories.asMember(org, 'read');
      expect(await spacesFound(reader, searchPath(org, site.id), body)).toHaveLength(1);
    });
  });

  describe('site readers (a published site’s token)', () => {
    const SCHEMA = {
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
    };

    /**
     * A published site: `guides` ("zephyrine") and `beta` ("quokka"), which only visitors with
     * the unsigned claim `beta` see.
     */
    async function betaSite(): Promise<{
      org: TestOrganization;
      site: SiteBody;
      guides: SiteSpaceBody;
      beta: SiteSpaceBody;
      url: string;
    }> {
      const org = await t.factories.organization();
      const site = await t.factories.site(org);
      const guides = await t.factories.siteSpace(org, site.id, { spaceTitle: 'Guides' });
      const beta = await t.factories.siteSpace(org, site.id, { spaceTitle: 'Beta' });
      await write(org, guides.space.id, 'Installation', 'Set up the zephyrine engine first.');
      await write(org, beta.space.id, 'Preview', 'The quokka preview.');
      const sitePath = `/v1/orgs/${org.id}/sites/${site.id}`;
      await org.owner.client.put(`${sitePath}/adaptive-schema`, { jsonSchema: SCHEMA }).expect(200);
      await org.owner.client
        .patch(`${sitePath}/site-spaces/${beta.id}`, {
          condition: 'visitor.claims.unsigned.beta === true',
        })
        .expect(200);
      await org.owner.client.post(`${sitePath}/publish`).expect(200);
      return { org, site, guides, beta, url: `https://docs.localhost/${org.id}/${site.id}` };
    }

    async function token(url: string, unsignedClaims: object = {}): Promise<Client> {
      const res = await t.anonymous
        .post('/v1/urls/published', { url, visitor: { unsignedClaims } })
        .expect(200);
      return t.as(res.body.apiToken as string);
    }

    it('never finds what is in a site space hidden from its visitor; finds it with the claim', async () => {
      const { org, site, guides, beta, url } = await betaSite();
      const path = searchPath(org, site.id);
      const plain = await token(url);

      expect(await spacesFound(plain, path, { query: 'zephyrine', mode: 'all' })).toEqual([
        guides.space.id,
      ]);
      const hidden = await plain.post(path, { query: 'quokka', mode: 'all' }).expect(200);
      expectConforms(hidden, 'searchSiteContent', GITBOOK_0201);
      expect(hidden.body).toEqual({ items: [], count: 0 });
      for (const body of [
        { query: 'quokka', scope: { mode: 'all' } },
        { query: 'quokka', mode: 'current', siteSpaceId: guides.id },
        { query: 'quokka', scope: { mode: 'default', currentSiteSpace: guides.id } },
      ]) {
        expect(await spacesFound(plain, path, body)).toEqual([]);
      }
      // Naming it answers what naming a site space that does not exist answers.
      for (const body of [
        { query: 'quokka', mode: 'specific', siteSpaceIds: [beta.id] },
        { query: 'quokka', scope: { mode: 'default', currentSiteSpace: beta.id } },
      ]) {
        const res = await plain.post(path, body);
        expect(res.status).toBe(400);
        expect(JSON.stringify(res.body)).not.toContain(beta.space.id);
      }

      const tester = await token(url, { beta: true });
      expect(await spacesFound(tester, path, { query: 'quokka', mode: 'all' })).toEqual([
        beta.space.id,
      ]);
      expect(await spacesFound(tester, path, { query: 'quokka', siteSpaceIds: [beta.id] })).toEqual(
        [beta.space.id],
      );
      // A member sees every site space, whatever its condition.
      expect(await spacesFound(org.owner.client, path, { query: 'quokka', mode: 'all' })).toEqual([
        beta.space.id,
      ]);
    });

    it('searches only the spaces its token lists, even when the site gains one', async () => {
      const { org, site, url } = await betaSite();
      const path = searchPath(org, site.id);
      const plain = await token(url);
      const later = await t.factories.siteSpace(org, site.id, { spaceTitle: 'Later' });
      await write(org, later.space.id, 'News', 'Zephyrine news.');
      expect(await spacesFound(plain, path, { query: 'zephyrine', mode: 'all' })).toHaveLength(1);
      expect(
        await spacesFound(org.owner.client, path, { query: 'zephyrine', mode: 'all' }),
      ).toHaveLength(2);
    });

    it('answers 404 to the token of another site, and for another organization', async () => {
      const mine = await betaSite();
      const theirs = await betaSite();
      const theirToken = await token(theirs.url);
      const body = { query: 'zephyrine', mode: 'all' };
      expectError(
        await theirToken.post(searchPath(mine.org, mine.site.id), body),
        404,
        'Site not found.',
      );
      const myToken = await token(mine.url);
      expectError(
        await myToken.post(searchPath(theirs.org, mine.site.id), body),
        404,
        'Site not found.',
      );
      expect(await spacesFound(myToken, searchPath(mine.org, mine.site.id), body)).toEqual([
        mine.guides.space.id,
      ]);
    });
  });
});
