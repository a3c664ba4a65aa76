import type { DocumentBlock, JSONDocument } from '../src/content-engine/documents/document';
import { ContentEngine } from '../src/content-engine/content-engine';
import { SearchIndexer } from '../src/content-engine/search/search-indexer';
import { commit, type PageChange } from '../src/content-engine/tree/commit';
import { newId } from '../src/platform/ids/ids';
import { createTestApp, TestApp } from './helpers/app';
import type { PageOf } from './helpers/bodies';
import { expectConforms } from './helpers/conformance';

interface PageHit {
  id: string;
  title: string;
  sections: { title: string; body: string }[];
}

const text = (value: string) => ({
  object: 'text' as const,
  leaves: [{ object: 'leaf' as const, text: value, marks: [] }],
});
const p = (value: string): DocumentBlock => ({
  object: 'block',
  type: 'paragraph',
  nodes: [text(value)],
});
const h2 = (value: string): DocumentBlock => ({
  object: 'block',
  type: 'heading-2',
  nodes: [text(value)],
});
const doc = (...nodes: DocumentBlock[]): JSONDocument => ({ object: 'document', data: {}, nodes });

/** Pages a search ranks exactly, lowered so that a few pages make a large match set. */
const RANK_LIMIT = 4;

/**
 * Search when a query matches more pages than SEARCH_EXACT_RANK_LIMIT: a bounded set of
 * candidates is ranked (pages with the terms in their title first), `count` is
 * their number, and paging goes through them.
 */
describe('Search over a large match set (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ SEARCH_EXACT_RANK_LIMIT: String(RANK_LIMIT) });
  });
  afterAll(() => t.close());

  const searchPath = (spaceId: string, query: string, extra = '') =>
    `/v1/spaces/${spaceId}/search?query=${encodeURIComponent(query)}${extra}`;

  /** A space whose primary holds `pages` (title and document), indexed as a write would. */
  async function space(pages: { title: string; document: JSONDocument }[]) {
    const org = await t.factories.organization();
    const { id: spaceId } = await t.factories.space(org, { title: 'Handbook', empty: true });
    const ids = pages.map(() => newId());
    await t.dataSource.transaction(async (manager) => {
      const store = t.bindery.app.get(ContentEngine).objectStore(manager);
      const [{ tree }]: { tree: string }[] = await manager.query(
        `SELECT r.tree FROM spaces s JOIN revisions r ON r.id = s.revision_id WHERE s.id = $1`,
        [spaceId],
      );
      const changes: PageChange[] = [];
      for (const [i, page] of pages.entries()) {
        changes.push({
          operation: 'insert_page',
          id: ids[i],
          meta: { title: page.title, slug: `page-${i}` },
          document: await store.put('document', page.document),
        });
      }
      const next = await commit(store, tree, changes);
      const revisionId = newId();
      await manager.query(
        `INSERT INTO revisions (id, space_id, parents, type, tree, author_id, git, created_at)
         VALUES ($1, $2, '{}', 'edits', $3, NULL, NULL, now())`,
        [revisionId, spaceId, next],
      );
      await manager.query('UPDATE spaces SET revision_id = $1 WHERE id = $2', [
        revisionId,
        spaceId,
      ]);
      await t.bindery.app.get(SearchIndexer).reindex(manager, spaceId, tree, next);
    });
    return { org, spaceId, ids };
  }

  /** Every page of results, following `next`, with `limit` per page. */
  async function allPages(client: TestApp['admin'], spaceId: string, query: string, limit: number) {
    const pages: PageOf<PageHit>[] = [];
    let next: string | undefined;
    do {
      const res = await client
        .get(searchPath(spaceId, query, `&limit=${limit}${next ? `&page=${next}` : ''}`))
        .expect(200);
      expectConforms(res, 'searchSpaceContent');
      const body = res.body as PageOf<PageHit>;
      pages.push(body);
      next = body.next?.page;
    } while (next && pages.length < 20);
    return pages;
  }

  it('ranks the pages with the terms in their title first, and counts the candidates', async () => {
    const { org, spaceId, ids } = await space([
      ...Array.from({ length: 6 }, (_, i) => ({
        title: `Notes ${i}`,
        document: doc(p(`Rotate the widget keys every month (note ${i}).`)),
      })),
      { title: 'Widget keys', document: doc(p('How to rotate them.')) },
      { title: 'Widget rotation', document: doc(h2('Operations'), p('Keys expire.')) },
    ]);
    const res = await org.owner.client.get(searchPath(spaceId, 'widget')).expect(200);
    expectConforms(res, 'searchSpaceContent');
    const body = res.body as PageOf<PageHit>;
    // Eight pages match, more than the limit: that many candidates are ranked and counted.
    expect(body.count).toBe(RANK_LIMIT);
    expect(body.items).toHaveLength(RANK_LIMIT);
    expect(body.items.slice(0, 2).map((hit) => hit.id)).toEqual(
      expect.arrayContaining([ids[6], ids[7]]),
    );
    expect(body.items.slice(2).every((hit) => ids.slice(0, 6).includes(hit.id))).toBe(true);
  });

  it('takes every candidate from the titles when enough pages have the terms there', async () => {
    const { org, spaceId, ids } = await space([
      ...Array.from({ length: 5 }, (_, i) => ({
        title: `Gadget setup ${i}`,
        document: doc(p(`Plug the gadget in (step ${i}).`)),
      })),
      ...Array.from({ length: 3 }, (_, i) => ({
        title: `Appendix ${i}`,
        document: doc(p(`A gadget is mentioned here (appendix ${i}).`)),
      })),
    ]);
    const body = (await org.owner.client.get(searchPath(spaceId, 'gadget')).expect(200))
      .body as PageOf<PageHit>;
    expect(body.count).toBe(RANK_LIMIT);
    for (const hit of body.items) expect(ids.slice(0, 5)).toContain(hit.id);
  });

  it('pages through the candidates with `next`, each once, in rank order', async () => {
    const { org, spaceId } = await space(
      Array.from({ length: 9 }, (_, i) => ({
        title: i % 3 === 0 ? `Sprocket guide ${i}` : `Chapter ${i}`,
        document: doc(p(`The sprocket turns ${i + 1} times.`), h2('More'), p('Nothing else.')),
      })),
    );
    const whole = (await org.owner.client.get(searchPath(spaceId, 'sprocket')).expect(200))
      .body as PageOf<PageHit>;
    const pages = await allPages(org.owner.client, spaceId, 'sprocket', 1);
    expect(pages).toHaveLength(RANK_LIMIT);
    expect(pages.every((page) => page.count === RANK_LIMIT)).toBe(true);
    expect(pages.flatMap((page) => page.items.map((hit) => hit.id))).toEqual(
      whole.items.map((hit) => hit.id),
    );
    expect(pages.at(-1)!.next).toBeUndefined();
    // The three title matches are candidates, and rank first.
    expect(whole.items.slice(0, 3).every((hit) => hit.title.startsWith('Sprocket guide'))).toBe(
      true,
    );
  });

  it('ranks and counts every match exactly when they are no more than the limit', async () => {
    const { org, spaceId, ids } = await space([
      { title: 'Flange', document: doc(p('The flange holds.')) },
      { title: 'Bolts', document: doc(p('A bolt through the flange.')) },
      { title: 'Nuts', document: doc(p('Nothing to see.')) },
    ]);
    const body = (await org.owner.client.get(searchPath(spaceId, 'flange')).expect(200))
      .body as PageOf<PageHit>;
    expect(body.count).toBe(2);
    expect(body.items.map((hit) => hit.id)).toEqual([ids[0], ids[1]]);
  });
});
