import { ContentGrant } from '../src/collections/entities/content-grant.entity';
import { ContentEngine } from '../src/content-engine/content-engine';
import type { DocumentBlock, JSONDocument } from '../src/content-engine/documents/document';
import { SearchIndexer } from '../src/content-engine/search/search-indexer';
import { commit, type PageChange } from '../src/content-engine/tree/commit';
import { ContentWriter } from '../src/content-engine/writes/content-writer';
import { newId } from '../src/platform/ids/ids';
import { createTestApp, TestApp } from './helpers/app';
import type { PageOf } from './helpers/bodies';
import { expectConforms } from './helpers/conformance';
import type { TestOrganization } from './helpers/factories';

interface SectionHit {
  id: string;
  title: string;
  path: string;
  body: string;
  urls: { app: string };
}
interface PageHit {
  id: string;
  title: string;
  path: string;
  sections: SectionHit[];
  ancestors: { title: string }[];
  urls: { app: string };
}
interface SpaceHit {
  id: string;
  title: string;
  pages: PageHit[];
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
/** A tree change; an inserted page's document may be given as the document itself. */
type Change =
  | PageChange
  | (Omit<Extract<PageChange, { operation: 'insert_page' }>, 'document'> & {
      document: JSONDocument;
    });

const doc = (...nodes: DocumentBlock[]): JSONDocument => ({ object: 'document', data: {}, nodes });

describe('Search (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const searchPath = (spaceId: string, query: string, extra = '') =>
    `/v1/spaces/${spaceId}/search?query=${encodeURIComponent(query)}${extra}`;
  const orgSearchPath = (org: TestOrganization, query: string, extra = '') =>
    `/v1/orgs/${org.id}/search?query=${encodeURIComponent(query)}${extra}`;

  /**
   * Commits `changes` (documents given as objects) on the space's primary, moves the primary
   * there and re-indexes, as a write would; answers what the indexer did.
   */
  async function publish(spaceId: string, changes: Change[]) {
    return t.dataSource.transaction(async (manager) => {
      const store = t.bindery.app.get(ContentEngine).objectStore(manager);
      const [{ tree }]: { tree: string }[] = await manager.query(
        `SELECT r.tree FROM spaces s JOIN revisions r ON r.id = s.revision_id WHERE s.id = $1`,
        [spaceId],
      );
      const resolved: PageChange[] = [];
      for (const change of changes) {
        resolved.push(
          'document' in change && change.document && typeof change.document === 'object'
            ? { ...change, document: await store.put('document', change.document) }
            : (change as PageChange),
        );
      }
      const next = await commit(store, tree, resolved);
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
      return t.bindery.app.get(SearchIndexer).reindex(manager, spaceId, tree, next);
    });
  }

  async function storedDocument(value: JSONDocument): Promise<string> {
    return t.bindery.app
      .get(ContentEngine)
      .objectStore(t.dataSource.manager)
      .put('document', value);
  }

  function expectError(res: { status: number; body: unknown }, code: number, text: string) {
    expect(res.status).toBe(code);
    expect(res.body).toEqual({ error: { code, message: expect.stringContaining(text) } });
  }

  /** A space with a small handbook: install (nested under a group), configuration, faq. */
  async function handbook(org: TestOrganization, title = 'Handbook') {
    const { id: spaceId } = await t.factories.space(org, { title, empty: true });
    const guide = newId();
    const install = newId();
    const configure = newId();
    const faq = newId();
    await publish(spaceId, [
      {
        operation: 'insert_page',
        id: guide,
        type: 'group',
        meta: { title: 'Guide', slug: 'guide' },
      },
      {
        operation: 'insert_page',
        id: install,
        meta: { title: 'Installation', slug: 'installation' },
        document: doc(
          p('How to set things up.'),
          h2('Requirements'),
          p('You need a database server and some patience.'),
          h2('Upgrading'),
          p('Back up the database before upgrading.'),
        ),
        into: guide,
      },
      {
        operation: 'insert_page',
        id: configure,
        meta: { title: 'Configuration', slug: 'configuration' },
        document: doc(p('Settings live in a file. The database setting matters most.')),
      },
      {
        operation: 'insert_page',
        id: faq,
        meta: { title: 'FAQ', slug: 'faq' },
        document: doc(p('Questions about billing.')),
      },
    ]);
    return { spaceId, guide, install, configure, faq };
  }

  describe('GET /v1/spaces/{spaceId}/search (searchSpaceContent)', () => {
    it('finds pages by their sections, split at headings, with ancestors and links', async () => {
      const org = await t.factories.organization();
      const { spaceId, install } = await handbook(org);
      const res = await org.owner.client.get(searchPath(spaceId, 'patience')).expect(200);
      expectConforms(res, 'searchSpaceContent');
      const body = res.body as PageOf<PageHit>;
      expect(body.count).toBe(1);
      expect(body.next).toBeUndefined();
      const appSpace = `${t.config.appUrl}/o/${org.id}/s/${spaceId}`;
      expect(body.items).toEqual([
        {
          id: install,
          title: 'Installation',
          path: 'guide/installation',
          ancestors: [{ title: 'Guide' }],
          urls: { app: `${appSpace}/guide/installation` },
          sections: [
            {
              id: 'requirements',
              title: 'Requirements',
              path: 'guide/installation#requirements',
              // The passage around the hit, the hit marked.
              body: 'You need a database server and some **patience**.',
              urls: { app: `${appSpace}/guide/installation#requirements` },
            },
          ],
        },
      ]);
    });

    it('ranks a title match above body matches, and groups a page’s matching sections', async () => {
      const org = await t.factories.organization();
      const { spaceId, install, configure } = await handbook(org);
      await publish(spaceId, [
        {
          operation: 'insert_page',
          id: newId(),
          meta: { title: 'Database', slug: 'database' },
          document: doc(p('Which engines are supported.')),
        },
      ]);
      const res = await org.owner.client.get(searchPath(spaceId, 'database')).expect(200);
      expectConforms(res, 'searchSpaceContent');
      const body = res.body as PageOf<PageHit>;
      expect(body.count).toBe(3);
      expect(body.items[0].title).toBe('Database');
      expect(
        body.items
          .map((hit) => hit.id)
          .slice(1)
          .sort(),
      ).toEqual([install, configure].sort());
      const installHit = body.items.find((hit) => hit.id === install)!;
      expect(installHit.sections.map((s) => s.id).sort()).toEqual(['requirements', 'upgrading']);
    });

    it('matches the last word as a prefix, the others as whole (stemmed) words', async () => {
      const org = await t.factories.organization();
      const { spaceId, install, configure } = await handbook(org);
      const prefix = await org.owner.client.get(searchPath(spaceId, 'configur')).expect(200);
      expect((prefix.body as PageOf<PageHit>).items.map((hit) => hit.id)).toEqual([configure]);
      const short = await org.owner.client.get(searchPath(spaceId, 'upgr')).expect(200);
      expect((short.body as PageOf<PageHit>).items.map((hit) => hit.id)).toEqual([install]);
      const words = await org.owner.client.get(searchPath(spaceId, 'backing upgr')).expect(200);
      expect((words.body as PageOf<PageHit>).items.map((hit) => hit.id)).toEqual([install]);
      const none = await org.owner.client.get(searchPath(spaceId, 'billing upgr')).expect(200);
      expect(none.body).toEqual({ items: [], count: 0 });
    });

    it('matches a page with every word somewhere on it, showing the sections with any', async () => {
      const org = await t.factories.organization();
      const { spaceId, install } = await handbook(org);
      // "patience" is under Requirements, "upgrading" under Upgrading: no section has both.
      const apart = await org.owner.client
        .get(searchPath(spaceId, 'patience upgrading'))
        .expect(200);
      expectConforms(apart, 'searchSpaceContent');
      const body = apart.body as PageOf<PageHit>;
      expect(body.count).toBe(1);
      expect(body.items.map((hit) => hit.id)).toEqual([install]);
      expect(body.items[0].sections.map((s) => s.id).sort()).toEqual(['requirements', 'upgrading']);
    });

    it('ranks pages by their vector, ties by page id, across pages of results', async () => {
      const org = await t.factories.organization();
      const { id: spaceId } = await t.factories.space(org, { title: 'Docs', empty: true });
      const ids = Array.from({ length: 5 }, () => newId());
      await publish(
        spaceId,
        ids.map((id, i) => ({
          operation: 'insert_page' as const,
          id,
          meta: { title: `Page ${i}`, slug: `page-${i}` },
          document: doc(p('Tokens expire.')),
        })),
      );
      const seen: string[] = [];
      let next: string | undefined;
      do {
        const res = await org.owner.client
          .get(searchPath(spaceId, 'tokens', `&limit=2${next ? `&page=${next}` : ''}`))
          .expect(200);
        const body = res.body as PageOf<PageHit>;
        expect(body.count).toBe(5);
        seen.push(...body.items.map((hit) => hit.id));
        next = body.next?.page;
      } while (next);
      expect(seen).toEqual([...ids].sort().reverse());
    });

    it('treats tsquery syntax in the query as plain separators', async () => {
      const org = await t.factories.organization();
      const { spaceId, faq } = await handbook(org);
      const res = await org.owner.client.get(searchPath(spaceId, "billing & !' | (:*")).expect(200);
      expect((res.body as PageOf<PageHit>).items.map((hit) => hit.id)).toEqual([faq]);
      const symbols = await org.owner.client.get(searchPath(spaceId, '&&& :*')).expect(200);
      expect(symbols.body).toEqual({ items: [], count: 0 });
    });

    it('pages through the hits with `limit` and `next`', async () => {
      const org = await t.factories.organization();
      const { spaceId } = await handbook(org);
      const first = await org.owner.client
        .get(searchPath(spaceId, 'database', '&limit=1'))
        .expect(200);
      expectConforms(first, 'searchSpaceContent');
      const one = first.body as PageOf<PageHit>;
      expect(one.items).toHaveLength(1);
      expect(one.count).toBe(2);
      const second = await org.owner.client
        .get(searchPath(spaceId, 'database', `&limit=1&page=${one.next!.page}`))
        .expect(200);
      const two = second.body as PageOf<PageHit>;
      expect(two.items).toHaveLength(1);
      expect(two.next).toBeUndefined();
      expect(two.items[0].id).not.toBe(one.items[0].id);
    });

    it('answers 400 for a missing, empty or too long query, or a bad page', async () => {
      const org = await t.factories.organization();
      const { id: spaceId } = await t.factories.space(org, { title: 'Docs', empty: true });
      const missing = await org.owner.client.get(`/v1/spaces/${spaceId}/search`);
      expectError(missing, 400, 'query');
      const empty = await org.owner.client.get(searchPath(spaceId, '   '));
      expectError(empty, 400, 'query');
      const long = await org.owner.client.get(searchPath(spaceId, 'a'.repeat(513)));
      expectError(long, 400, 'query');
      expect((await org.owner.client.get(searchPath(spaceId, 'a'.repeat(512)))).status).toBe(200);
      const badPage = await org.owner.client.get(searchPath(spaceId, 'x', '&page=nope'));
      expectError(badPage, 400, 'page');
    });

    it('answers 404 for an unknown space and a space of another organization', async () => {
      const org = await t.factories.organization();
      const other = await t.factories.organization();
      const { id: theirs } = await t.factories.space(other, { title: 'Docs', empty: true });
      expectError(await org.owner.client.get(searchPath(newId(), 'x')), 404, '');
      expectError(await org.owner.client.get(searchPath(theirs, 'x')), 404, '');
    });

    it('lets a guest search a space granted to it, and only that one', async () => {
      const org = await t.factories.organization();
      const { spaceId } = await handbook(org);
      const { id: hidden } = await t.factories.space(org, { title: 'Hidden', empty: true });
      const guest = await t.factories.member(org, null);
      await grant(org, spaceId, guest.id);
      const res = await guest.client.get(searchPath(spaceId, 'billing')).expect(200);
      expect((res.body as PageOf<PageHit>).count).toBe(1);
      expectError(await guest.client.get(searchPath(hidden, 'billing')), 404, '');
    });

    it('re-indexes only the pages that changed, and drops deleted pages', async () => {
      const org = await t.factories.organization();
      const { spaceId, install, configure, faq } = await handbook(org);
      const indexedAt = async () => {
        const rows: { page_id: string; at: Date; n: number }[] = await t.dataSource.query(
          `SELECT page_id, max(indexed_at) AS at, count(*)::int AS n FROM page_sections
            WHERE space_id = $1 GROUP BY page_id`,
          [spaceId],
        );
        return new Map(rows.map((row) => [row.page_id, row]));
      };
      const rankedPages = async () => {
        const rows: { page_id: string }[] = await t.dataSource.query(
          'SELECT page_id FROM page_search WHERE space_id = $1',
          [spaceId],
        );
        return rows.map((row) => row.page_id).sort();
      };
      const before = await indexedAt();
      expect([...before.keys()].sort()).toEqual([install, configure, faq].sort());
      expect(await rankedPages()).toEqual([install, configure, faq].sort());
      expect(before.get(install)!.n).toBe(3);

      t.clock.advance(60_000);
      const result = await publish(spaceId, [
        {
          operation: 'set_document',
          page: faq,
          document: await storedDocument(doc(p('Refunds.'))),
        },
        { operation: 'delete_page', page: configure },
      ]);
      expect(result).toEqual({ indexed: 1, removed: 1 });
      const after = await indexedAt();
      expect([...after.keys()].sort()).toEqual([install, faq].sort());
      expect(await rankedPages()).toEqual([install, faq].sort());
      expect(after.get(install)!.at).toEqual(before.get(install)!.at);
      expect(after.get(faq)!.at.getTime()).toBeGreaterThanOrEqual(
        before.get(faq)!.at.getTime() + 60_000,
      );

      const refunds = await org.owner.client.get(searchPath(spaceId, 'refunds')).expect(200);
      expect((refunds.body as PageOf<PageHit>).items.map((hit) => hit.id)).toEqual([faq]);
      const billing = await org.owner.client.get(searchPath(spaceId, 'billing')).expect(200);
      expect(billing.body).toEqual({ items: [], count: 0 });
    });

    it('follows the primary when the content writer commits (PrimaryMovedListeners)', async () => {
      const org = await t.factories.organization();
      const { spaceId, faq } = await handbook(org);
      const [{ revision_id: current }]: { revision_id: string }[] = await t.dataSource.query(
        'SELECT revision_id FROM spaces WHERE id = $1',
        [spaceId],
      );
      await t.dataSource.transaction((manager) =>
        t.bindery.app.get(ContentWriter).commitOnPrimary(manager, {
          spaceId,
          expectedRevisionId: current,
          authorId: org.owner.id,
          type: 'edits',
          changes: [{ operation: 'set_document', page: faq, document: doc(p('Shipping times.')) }],
        }),
      );
      const res = await org.owner.client.get(searchPath(spaceId, 'shipping')).expect(200);
      expect((res.body as PageOf<PageHit>).items.map((hit) => hit.id)).toEqual([faq]);
      const billing = await org.owner.client.get(searchPath(spaceId, 'billing')).expect(200);
      expect((billing.body as PageOf<PageHit>).count).toBe(0);
    });

    it('indexes a new space from a template, and its duplicate, as they are created', async () => {
      const org = await t.factories.organization();
      const created = await org.owner.client
        .post(`/v1/orgs/${org.id}/spaces`, { title: 'Product', template: { id: 'product-docs' } })
        .expect(201);
      const spaceId = (created.body as { id: string }).id;
      const found = await org.owner.client.get(searchPath(spaceId, 'faq')).expect(200);
      expect((found.body as PageOf<PageHit>).items.map((hit) => hit.title)).toEqual(['FAQ']);
      const copy = await org.owner.client.post(`/v1/spaces/${spaceId}/duplicate`).expect(200);
      const copyId = (copy.body as { id: string }).id;
      const inCopy = await org.owner.client.get(searchPath(copyId, 'faq')).expect(200);
      expect((inCopy.body as PageOf<PageHit>).items.map((hit) => hit.title)).toEqual(['FAQ']);
    });

    it('re-indexes the pages below a renamed group (their path and ancestors changed)', async () => {
      const org = await t.factories.organization();
      const { spaceId, guide, install } = await handbook(org);
      const result = await publish(spaceId, [
        { operation: 'update_page', page: guide, meta: { title: 'Manual', slug: 'manual' } },
      ]);
      expect(result).toEqual({ indexed: 1, removed: 0 });
      const res = await org.owner.client.get(searchPath(spaceId, 'patience')).expect(200);
      const [hit] = (res.body as PageOf<PageHit>).items;
      expect(hit).toMatchObject({
        id: install,
        path: 'manual/installation',
        ancestors: [{ title: 'Manual' }],
      });
    });
  });

  async function grant(org: TestOrganization, spaceId: string, userId: string): Promise<void> {
    await t.dataSource.getRepository(ContentGrant).insert({
      id: newId(),
      organizationId: org.id,
      resourceType: 'space',
      resourceId: spaceId,
      userId,
      teamId: null,
      role: 'read',
      createdAt: new Date(),
    });
  }

  describe('GET /v1/orgs/{organizationId}/search (searchOrganizationContent)', () => {
    it('searches every live space of the organization, grouped by space, best first', async () => {
      const org = await t.factories.organization();
      const a = await handbook(org, 'Alpha');
      const b = await handbook(org, 'Beta');
      await publish(b.spaceId, [
        {
          operation: 'insert_page',
          id: newId(),
          meta: { title: 'Billing', slug: 'billing' },
          document: doc(p('Invoices.')),
        },
      ]);
      const trashed = await handbook(org, 'Trashed');
      await org.owner.client.delete(`/v1/spaces/${trashed.spaceId}`).expect(204);
      const reader = await t.factories.member(org, 'read');
      const res = await reader.client.get(orgSearchPath(org, 'billing')).expect(200);
      expectConforms(res, 'searchOrganizationContent');
      const body = res.body as PageOf<SpaceHit>;
      expect(body.count).toBe(2);
      expect(body.items.map((s) => [s.id, s.title])).toEqual([
        [b.spaceId, 'Beta'],
        [a.spaceId, 'Alpha'],
      ]);
      expect(body.items[0].pages.map((page) => page.title)).toEqual(['Billing', 'FAQ']);
      expect(body.items[1].pages).toEqual([
        expect.objectContaining({ id: a.faq, path: 'faq', ancestors: [] }),
      ]);
    });

    it('shows a guest only the spaces granted to it', async () => {
      const org = await t.factories.organization();
      const granted = await handbook(org, 'Granted');
      await handbook(org, 'Not granted');
      const guest = await t.factories.member(org, null);
      await grant(org, granted.spaceId, guest.id);
      const res = await guest.client.get(orgSearchPath(org, 'billing')).expect(200);
      expectConforms(res, 'searchOrganizationContent');
      expect((res.body as PageOf<SpaceHit>).items.map((s) => s.id)).toEqual([granted.spaceId]);
    });

    it('pages through spaces with `limit` and `next`', async () => {
      const org = await t.factories.organization();
      await handbook(org, 'One');
      await handbook(org, 'Two');
      const first = await org.owner.client
        .get(orgSearchPath(org, 'billing', '&limit=1'))
        .expect(200);
      const one = first.body as PageOf<SpaceHit>;
      expect(one).toMatchObject({ count: 2, next: { page: expect.any(String) } });
      const second = await org.owner.client
        .get(orgSearchPath(org, 'billing', `&limit=1&page=${one.next!.page}`))
        .expect(200);
      const two = second.body as PageOf<SpaceHit>;
      expect(two.next).toBeUndefined();
      expect(two.items.map((s) => s.title)).not.toEqual(one.items.map((s) => s.title));
    });

    it('answers 400 for a missing or too long query, 404 for an unknown or foreign organization', async () => {
      const org = await t.factories.organization();
      const other = await t.factories.organization();
      expectError(await org.owner.client.get(`/v1/orgs/${org.id}/search`), 400, 'query');
      expectError(await org.owner.client.get(orgSearchPath(org, 'x'.repeat(513))), 400, 'query');
      expectError(await org.owner.client.get(orgSearchPath(other, 'x')), 404, '');
      expectError(await org.owner.client.get(`/v1/orgs/${newId()}/search?query=x`), 404, '');
    });
  });
});
