import { SearchIndexRepository } from '../src/content-engine/search/search-index.repository';
import { SearchIndexUpgrade } from '../src/content-engine/search/search-index-upgrade';
import { SEARCH_ANALYZER } from '../src/content-engine/search/search-indexer';
import { newId } from '../src/platform/ids/ids';
import { createTestApp, TestApp } from './helpers/app';
import type { PageOf } from './helpers/bodies';
import { expectConforms } from './helpers/conformance';
import { insertPage } from './helpers/content';
import type { TestOrganization } from './helpers/factories';

/**
 * Search in every language (`searchSpaceContent`, `searchOrganizationContent`): folding,
 * stemming by the space's language, CJK in sentences, typo tolerance below exact hits,
 * excerpts around the hit, and organization search paging into one space.
 */

interface SectionHit {
  id: string;
  title: string;
  body: string;
}
interface PageHit {
  id: string;
  title: string;
  sections: SectionHit[];
}
interface SpaceHit {
  id: string;
  title: string;
  pages: PageHit[];
}

describe('search in every language (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** A space in `language` with pages (title → markdown), written through a merge. */
  async function space(
    org: TestOrganization,
    language: string | undefined,
    pages: Record<string, string>,
  ): Promise<string> {
    const { id } = await t.factories.space(org, {
      title: `Docs ${language}`,
      language,
      empty: true,
    });
    await t.factories.changeRequest(org, id, {
      changes: Object.entries(pages).map(([title, markdown]) => insertPage(title, markdown)),
      merge: true,
    });
    return id;
  }

  async function search(org: TestOrganization, spaceId: string, query: string, extra = '') {
    const res = await org.owner.client
      .get(`/v1/spaces/${spaceId}/search?query=${encodeURIComponent(query)}${extra}`)
      .expect(200);
    expectConforms(res, 'searchSpaceContent');
    return res.body as PageOf<PageHit>;
  }

  const titles = (page: PageOf<PageHit>) => page.items.map((hit) => hit.title);

  it('folds case and accents, and ß to ss, in the space’s language', async () => {
    const org = await t.factories.organization();
    const fr = await space(org, 'fr', {
      Paramètres: 'Les paramètres de l’espace règlent sa visibilité.',
      Facturation: 'Vos factures mensuelles.',
    });
    expect(titles(await search(org, fr, 'parametres'))).toEqual(['Paramètres']);
    expect(titles(await search(org, fr, 'VISIBILITE'))).toEqual(['Paramètres']);
    const de = await space(org, 'de', {
      Bilder: '## Größenänderung\n\nDie Größenänderung behält das Seitenverhältnis.',
      Adresse: 'Die Straße und die Hausnummer.',
    });
    expect(titles(await search(org, de, 'Grossenanderung'))).toEqual(['Bilder']);
    expect(titles(await search(org, de, 'groessenaenderung'))).toEqual(['Bilder']);
    expect(titles(await search(org, de, 'strasse'))).toEqual(['Adresse']);
    const [hit] = (await search(org, de, 'strasse')).items;
    expect(hit.sections[0].body).toBe('Die **Straße** und die Hausnummer.');
  });

  it('stems in the space’s language, and re-indexes when the language changes', async () => {
    const org = await t.factories.organization();
    const spaceId = await space(org, 'en', { Steuern: 'Die Steuer auf Größenänderungen.' });
    const lexicon = async () => {
      const rows: { word: string }[] = await t.dataSource.query(
        `SELECT word FROM search_lexicon WHERE space_id = $1 AND pages > 0 ORDER BY word`,
        [spaceId],
      );
      return rows.map((row) => row.word);
    };
    // English: folded, not stemmed as German, "ue" kept.
    expect(await lexicon()).toEqual(expect.arrayContaining(['steuer', 'grossenanderungen']));
    await org.owner.client.patch(`/v1/spaces/${spaceId}`, { language: 'de' }).expect(200);
    const german = await lexicon();
    // German: "ue" read as ü and folded, and stemmed.
    expect(german).toEqual(expect.arrayContaining(['steur', 'grossenander']));
    expect(german).not.toContain('steuer');
    expect(titles(await search(org, spaceId, 'Steuer Grössenänderung'))).toEqual(['Steuern']);
    const [state]: { language: string }[] = await t.dataSource.query(
      `SELECT language FROM search_index_state WHERE space_id = $1`,
      [spaceId],
    );
    expect(state.language).toBe('de');
  });

  it('keeps the index’s page count as pages are added, changed, deleted and rebuilt', async () => {
    const org = await t.factories.organization();
    const spaceId = await space(org, 'en', { One: 'First.', Two: 'Second.', Three: 'Third.' });
    const counts = async () => {
      const [row]: { kept: number; indexed: number }[] = await t.dataSource.query(
        `SELECT st.pages AS kept,
                (SELECT count(*)::int FROM page_search p WHERE p.space_id = st.space_id) AS indexed
           FROM search_index_state st WHERE st.space_id = $1`,
        [spaceId],
      );
      return row;
    };
    expect(await counts()).toEqual({ kept: 3, indexed: 3 });
    const [one, two] = (await search(org, spaceId, 'first')).items.concat(
      (await search(org, spaceId, 'second')).items,
    );
    await t.factories.changeRequest(org, spaceId, {
      changes: [
        {
          operation: 'update_page',
          page: one.id,
          title: 'One, renamed',
          document: { markdown: 'First, changed.' },
        },
        { operation: 'delete_page', page: two.id },
        insertPage('Four', 'Fourth.'),
        insertPage('Five', 'Fifth.'),
      ],
      merge: true,
    });
    expect(await counts()).toEqual({ kept: 4, indexed: 4 });
    // Another language: the index is rebuilt whole.
    await org.owner.client.patch(`/v1/spaces/${spaceId}`, { language: 'fr' }).expect(200);
    expect(await counts()).toEqual({ kept: 4, indexed: 4 });
  });

  it('analyzes the index’s tables once they grew past what the planner last counted, and empties its GIN indexes’ pending lists', async () => {
    const index = t.bindery.app.get(SearchIndexRepository);
    await index.analyzeIfStale(); // what the tests before left
    const counts = async () => {
      const [row]: { estimated: number; pages: number }[] = await t.dataSource.query(
        `SELECT (SELECT reltuples FROM pg_class WHERE oid = 'page_search'::regclass)::float8
                  AS estimated,
                (SELECT sum(pages) FROM search_index_state)::float8 AS pages`,
      );
      return row;
    };
    const org = await t.factories.organization();
    for (const part of [1, 2]) {
      await space(
        org,
        'en',
        Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`Page ${i}`, `Text ${part}.`])),
      );
    }
    const before = await counts();
    expect(before.pages - Math.max(0, before.estimated)).toBeGreaterThanOrEqual(80);
    expect(await index.analyzeIfStale()).toBe(true);
    const after = await counts();
    expect(after.estimated).toBe(after.pages);
    // Up to date: nothing to do.
    expect(await index.analyzeIfStale()).toBe(false);
    // What the inserts left pending in the GIN indexes goes into them, once.
    expect(await index.cleanPendingLists()).toBeGreaterThan(0);
    expect(await index.cleanPendingLists()).toBe(0);
  });

  it('finds Chinese, Japanese and Korean words inside sentences', async () => {
    const org = await t.factories.organization();
    const ja = await space(org, 'ja', {
      検索の使い方: 'サイト内の全文検索を使うと、目的のページを素早く見つけられます。',
      招待: '管理者はメールアドレスを入力してメンバーを招待できます。',
    });
    expect(titles(await search(org, ja, '全文検索'))).toEqual(['検索の使い方']);
    expect(titles(await search(org, ja, 'メールアドレス'))).toEqual(['招待']);
    const [hit] = (await search(org, ja, '全文検索')).items;
    expect(hit.sections[0].body).toContain('**全文検索**');
    const zh = await space(org, 'zh', { 发布站点: '添加一条记录，把自己的域名指向站点。' });
    expect(titles(await search(org, zh, '域名'))).toEqual(['发布站点']);
    // A two-character word is counted in the lexicon as any other (a question's words are
    // weighed from it).
    expect(
      await t.dataSource.query(
        `SELECT pages FROM search_lexicon WHERE space_id = $1 AND word = '域名'`,
        [zh],
      ),
    ).toEqual([{ pages: 1 }]);
    const ko = await space(org, 'ko', {
      팀원: '관리자는 이메일 주소를 입력하여 새 팀원을 초대할 수 있습니다.',
    });
    expect(titles(await search(org, ko, '주소 입력'))).toEqual(['팀원']);
  });

  it('finds a word with a typo, ranked below the pages with the exact word', async () => {
    const org = await t.factories.organization();
    const spaceId = await space(org, 'en', {
      Webhooks: 'Webhooks notify your server of changes.',
      Glossary: 'A webhok is what some people write for a webhook.',
      Notes: 'The webhok endpoint is deprecated.',
      Tokens: 'Tokens authenticate requests.',
    });
    // Two pages have the word as typed: few, so its near words are searched too.
    const typo = await search(org, spaceId, 'webhok');
    expect(titles(typo)).toHaveLength(3);
    expect(titles(typo).slice(0, 2).sort()).toEqual(['Glossary', 'Notes']);
    expect(titles(typo)[2]).toBe('Webhooks');
    expect(typo.count).toBe(3);
    const only = await search(org, spaceId, 'autenticate');
    expect(titles(only)).toEqual(['Tokens']);
    expect(only.items[0].sections[0].body).toBe('Tokens **authenticate** requests.');
    // Too far from every word: nothing.
    expect(titles(await search(org, spaceId, 'wbhkx'))).toEqual([]);
    // Pages of a corrected search continue it.
    const first = await search(org, spaceId, 'webhok', '&limit=2');
    const second = await search(org, spaceId, 'webhok', `&limit=2&page=${first.next!.page}`);
    expect([...titles(first), ...titles(second)]).toEqual(titles(typo));
  });

  it('keeps the typo lexicon with the pages: a deleted page’s words are no correction', async () => {
    const org = await t.factories.organization();
    const spaceId = await space(org, 'en', { Zanzibar: 'Zanzibar is an island.', Other: 'Text.' });
    const [zanzibar] = (await search(org, spaceId, 'zanzibr')).items;
    expect(zanzibar.title).toBe('Zanzibar');
    const cr = await t.factories.changeRequest(org, spaceId, {
      changes: [{ operation: 'delete_page', page: zanzibar.id }],
      merge: true,
    });
    expect(cr.status).toBe('merged');
    const words: { word: string; pages: number }[] = await t.dataSource.query(
      `SELECT word, pages FROM search_lexicon WHERE space_id = $1 AND word = 'zanzibar'`,
      [spaceId],
    );
    expect(words).toEqual([{ word: 'zanzibar', pages: 0 }]);
    expect(titles(await search(org, spaceId, 'zanzibr'))).toEqual([]);
  });

  it('shows the passage around the hit, and a title-only hit’s opening text', async () => {
    const org = await t.factories.organization();
    const filler = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(12);
    const spaceId = await space(org, 'en', {
      Long: `${filler}The quasar setting lives here. ${filler}`,
      Quasar: `## Overview\n\n${filler}`,
    });
    const res = await search(org, spaceId, 'quasar');
    const long = res.items.find((hit) => hit.title === 'Long')!;
    const body = long.sections[0].body;
    expect(body.startsWith('…')).toBe(true);
    expect(body.endsWith('…')).toBe(true);
    expect(body).toContain('The **quasar** setting lives here.');
    expect(body.replace(/\*\*/g, '').length).toBeLessThanOrEqual(302);
    const titleOnly = res.items.find((hit) => hit.title === 'Quasar')!;
    // The page title matched (its lead section, which has no text): the title, never "".
    expect(titleOnly.sections.map((s) => s.body)).toEqual(['Quasar']);
    const overview = await search(org, spaceId, 'overview');
    const [section] = overview.items[0].sections;
    expect(section.title).toBe('Overview');
    expect(section.body.startsWith('Lorem ipsum dolor sit amet')).toBe(true);
    expect(section.body.endsWith('…')).toBe(true);
  });

  it('rebuilds the spaces an older analyzer indexed (the upgrade job)', async () => {
    const org = await t.factories.organization();
    const spaceId = await space(org, 'fr', { Paramètres: 'Les paramètres.' });
    await t.dataSource.query(`UPDATE search_index_state SET analyzer = $2 WHERE space_id = $1`, [
      spaceId,
      SEARCH_ANALYZER - 1,
    ]);
    await t.dataSource.query(`DELETE FROM search_lexicon WHERE space_id = $1`, [spaceId]);
    expect(await t.bindery.app.get(SearchIndexUpgrade).upgrade()).toBeGreaterThanOrEqual(1);
    const [state]: { analyzer: number; language: string }[] = await t.dataSource.query(
      `SELECT analyzer, language FROM search_index_state WHERE space_id = $1`,
      [spaceId],
    );
    expect(state).toEqual({ analyzer: SEARCH_ANALYZER, language: 'fr' });
    expect(titles(await search(org, spaceId, 'parametrs'))).toEqual(['Paramètres']);
  });

  describe('searchOrganizationContent', () => {
    const orgSearch = async (org: TestOrganization, query: string, extra = '') => {
      const res = await org.owner.client
        .get(`/v1/orgs/${org.id}/search?query=${encodeURIComponent(query)}${extra}`)
        .expect(200);
      expectConforms(res, 'searchOrganizationContent');
      return res.body as PageOf<SpaceHit>;
    };

    it('pages into one space’s hits with `spaceId`', async () => {
      const org = await t.factories.organization();
      const pages = Object.fromEntries(
        Array.from({ length: 13 }, (_, i) => [`Lighthouse ${i}`, 'A lighthouse keeper.']),
      );
      const big = await space(org, 'en', pages);
      await space(org, 'en', { Other: 'Another lighthouse.' });
      const all = await orgSearch(org, 'lighthouse');
      expect(all.count).toBe(2);
      expect(all.items.find((s) => s.id === big)!.pages).toHaveLength(10);
      const seen: string[] = [];
      let next: string | undefined;
      do {
        const body = await orgSearch(
          org,
          'lighthouse',
          `&spaceId=${big}&limit=5${next ? `&page=${next}` : ''}`,
        );
        expect(body.count).toBe(13);
        expect(body.items.map((s) => s.id)).toEqual([big]);
        seen.push(...body.items[0].pages.map((p) => p.title));
        next = body.next?.page;
      } while (next);
      expect(seen.sort()).toEqual(Object.keys(pages).sort());
    });

    it('answers no hit for a space the caller may not read, and 400 for a bad spaceId or page', async () => {
      const org = await t.factories.organization();
      const other = await t.factories.organization();
      const theirs = await space(other, 'en', { Lighthouse: 'A lighthouse.' });
      const mine = await space(org, 'en', { Lighthouse: 'A lighthouse.' });
      expect(await orgSearch(org, 'lighthouse', `&spaceId=${theirs}`)).toEqual({
        items: [],
        count: 0,
      });
      expect(await orgSearch(org, 'lighthouse', `&spaceId=${newId()}`)).toEqual({
        items: [],
        count: 0,
      });
      const guest = await t.factories.member(org, null);
      const hidden = await guest.client
        .get(`/v1/orgs/${org.id}/search?query=lighthouse&spaceId=${mine}`)
        .expect(200);
      expect(hidden.body).toEqual({ items: [], count: 0 });
      const long = await org.owner.client.get(
        `/v1/orgs/${org.id}/search?query=x&spaceId=${'a'.repeat(65)}`,
      );
      expect(long.status).toBe(400);
      expect(long.body).toEqual({
        error: { code: 400, message: expect.stringContaining('spaceId') },
      });
      const spacesCursor = (await orgSearch(org, 'lighthouse', '&limit=1')).next;
      expect(spacesCursor).toBeUndefined();
      const bad = await org.owner.client.get(
        `/v1/orgs/${org.id}/search?query=lighthouse&spaceId=${mine}&page=nope`,
      );
      expect(bad.status).toBe(400);
    });

    it('ranks spaces by their best hit across languages, exact above corrected', async () => {
      const org = await t.factories.organization();
      const titled = await space(org, 'en', { Webhooks: 'How to receive events.' });
      const mentioned = await space(org, 'fr', {
        Intégrations: 'Les webhooks envoient des événements.',
      });
      const first = await orgSearch(org, 'webhooks');
      expect(first.items.map((s) => s.id)).toEqual([titled, mentioned]);
      const accents = await orgSearch(org, 'evenements');
      expect(accents.items.map((s) => s.id)).toEqual([mentioned]);
      const typo = await orgSearch(org, 'webhoks');
      expect(typo.items.map((s) => s.id)).toEqual([titled, mentioned]);
    });
  });
});
