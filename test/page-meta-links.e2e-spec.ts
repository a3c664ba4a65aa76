import { createTestApp, TestApp } from './helpers/app';
import { commitOnSpace, insertGrant } from './helpers/content';
import { expectConforms, GITBOOK_0201 } from './helpers/conformance';
import { expectError } from './helpers/content-grants';
import type { TestOrganization } from './helpers/factories';

/**
 * A page's meta links on the space's primary content (`listSpacePageMetaLinks`) and on a
 * change request's (`listChangeRequestPageMetaLinks`), GitBook 0.201.0 operations answered as
 * `listRevisionPageMetaLinks` is (test/published-reads.e2e-spec.ts): alternates are the same
 * page in the translations of the space that the caller may see.
 */

const SITES = 'http://docs.localhost/{organization}';

describe('page meta links', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ SITES_URL: SITES });
  });
  afterAll(() => t.close());

  const spaceMetaLinks = (spaceId: string, pageId: string) =>
    `/v1/spaces/${spaceId}/content/page/${pageId}/meta-links`;
  const changeRequestMetaLinks = (spaceId: string, changeRequest: string, pageId: string) =>
    `/v1/spaces/${spaceId}/change-requests/${changeRequest}/content/page/${pageId}/meta-links`;
  const page = (space: string) => ({ kind: 'page', page: 'pgUpgrade', space });

  /** A space with the pages Upgrade and Other. */
  async function guide(org: TestOrganization): Promise<string> {
    const { id } = await t.factories.later.space(org, { empty: true });
    await commitOnSpace(t, id, [
      { operation: 'insert_page', id: 'pgUpgrade', meta: { title: 'Upgrade', slug: 'upgrade' } },
      { operation: 'insert_page', id: 'pgOther', meta: { title: 'Other', slug: 'other' } },
    ]);
    return id;
  }

  /** A translation of `sourceId` into `language` whose result space has `pages` (by id). */
  async function translated(
    org: TestOrganization,
    sourceId: string,
    language: string,
    pages: string[],
  ): Promise<string> {
    const translation = await t.factories.translation(org, { space: sourceId, language });
    const result = await t.factories.later.space(org, { empty: true, language });
    await commitOnSpace(
      t,
      result.id,
      pages.map((id) => ({ operation: 'insert_page', id, meta: { title: `${id} (${language})` } })),
    );
    // What a run does first: make the result space (runs need a translation provider).
    await t.dataSource.query('UPDATE translations SET result_space_id = $1 WHERE id = $2', [
      result.id,
      translation.id,
    ]);
    return result.id;
  }

  describe('GET /v1/spaces/:spaceId/content/page/:pageId/meta-links (listSpacePageMetaLinks)', () => {
    it('lists the page in the translations that have it, the page itself first', async () => {
      const org = await t.factories.organization();
      const spaceId = await guide(org);
      const french = await translated(org, spaceId, 'fr', ['pgUpgrade']);
      await translated(org, spaceId, 'de', ['pgOther']);
      const reader = await t.factories.asMember(org, 'read');

      const res = await reader.get(spaceMetaLinks(spaceId, 'pgUpgrade')).expect(200);
      expectConforms(res, 'listSpacePageMetaLinks', GITBOOK_0201);
      expect(res.body).toEqual({ alternates: [page(spaceId), page(french)] });

      // From the French space: the page itself, then its source.
      const fromFrench = await reader.get(spaceMetaLinks(french, 'pgUpgrade')).expect(200);
      expectConforms(fromFrench, 'listSpacePageMetaLinks', GITBOOK_0201);
      expect(fromFrench.body).toEqual({ alternates: [page(french), page(spaceId)] });
    });

    it('reads the primary content: {} without translations, 404 for a deleted page', async () => {
      const org = await t.factories.organization();
      const spaceId = await guide(org);
      const res = await org.owner.client.get(spaceMetaLinks(spaceId, 'pgOther')).expect(200);
      expectConforms(res, 'listSpacePageMetaLinks', GITBOOK_0201);
      expect(res.body).toEqual({});
      await commitOnSpace(t, spaceId, [{ operation: 'delete_page', page: 'pgOther' }]);
      expectError(
        await org.owner.client.get(spaceMetaLinks(spaceId, 'pgOther')),
        404,
        'Page not found',
      );
    });

    it('names only the spaces the caller may see', async () => {
      const org = await t.factories.organization();
      const spaceId = await guide(org);
      const french = await translated(org, spaceId, 'fr', ['pgUpgrade']);
      const spanish = await translated(org, spaceId, 'es', ['pgUpgrade']);
      const guest = await t.factories.member(org, null);
      await insertGrant(t, org, { space: spaceId }, { userId: guest.id });
      await insertGrant(t, org, { space: spanish }, { userId: guest.id });
      const res = await guest.client.get(spaceMetaLinks(spaceId, 'pgUpgrade')).expect(200);
      expectConforms(res, 'listSpacePageMetaLinks', GITBOOK_0201);
      expect(res.body).toEqual({ alternates: [page(spaceId), page(spanish)] });
      expect(JSON.stringify(res.body)).not.toContain(french);
    });

    it("admits a reader of a published site showing the space, as the revision's route does", async () => {
      const org = await t.factories.organization();
      const site = await t.factories.site(org);
      const shown = await t.factories.siteSpace(org, site.id, { spaceTitle: 'Shown' });
      await commitOnSpace(t, shown.space.id, [
        { operation: 'insert_page', id: 'pgUpgrade', meta: { title: 'Upgrade', slug: 'upgrade' } },
      ]);
      await org.owner.client.post(`/v1/orgs/${org.id}/sites/${site.id}/publish`).expect(200);
      const lookup = await t.anonymous
        .post('/v1/urls/published', { url: `http://docs.localhost/${org.id}/${site.id}` })
        .expect(200);
      const reader = t.as(lookup.body.apiToken as string);
      const res = await reader.get(spaceMetaLinks(shown.space.id, 'pgUpgrade')).expect(200);
      expectConforms(res, 'listSpacePageMetaLinks', GITBOOK_0201);
      expect(res.body).toEqual({});
      // A change request is not published content.
      const changeRequest = await t.factories.changeRequest(org, shown.space.id);
      expectError(
        await reader.get(changeRequestMetaLinks(shown.space.id, changeRequest.id, 'pgUpgrade')),
        403,
        '',
      );
      // Nor is a space the site does not show.
      const other = await guide(org);
      expectError(await reader.get(spaceMetaLinks(other, 'pgUpgrade')), 404, 'not found');
    });

    it('answers 400 for bad input; 404 for an unknown page or space, another organization and a guest', async () => {
      const org = await t.factories.organization();
      const spaceId = await guide(org);
      const client = org.owner.client;
      // Text PostgreSQL cannot store, anywhere in the request, is bad input.
      expectError(await client.get(spaceMetaLinks(spaceId, 'pg%00')), 400, 'U+0000');
      expectError(await client.get(spaceMetaLinks(spaceId, 'nope')), 404, 'Page not found');
      expectError(await client.get(spaceMetaLinks('nope', 'pgUpgrade')), 404, 'Space not found');
      const stranger = await t.factories.organization();
      expectError(
        await stranger.owner.client.get(spaceMetaLinks(spaceId, 'pgUpgrade')),
        404,
        'Space not found',
      );
      const guest = await t.factories.asMember(org, null);
      expectError(await guest.get(spaceMetaLinks(spaceId, 'pgUpgrade')), 404, 'Space not found');
    });
  });

  describe('GET .../change-requests/:changeRequestId/content/page/:pageId/meta-links (listChangeRequestPageMetaLinks)', () => {
    it("reads the change request's content: its pages, with their translations", async () => {
      const org = await t.factories.organization();
      const spaceId = await guide(org);
      const french = await translated(org, spaceId, 'fr', ['pgUpgrade']);
      // The change request deletes Other; the primary keeps it.
      const changeRequest = await t.factories.changeRequest(org, spaceId, {
        changes: [{ operation: 'delete_page', page: 'pgOther' }],
      });
      const reader = await t.factories.asMember(org, 'read');

      const res = await reader
        .get(changeRequestMetaLinks(spaceId, changeRequest.id, 'pgUpgrade'))
        .expect(200);
      expectConforms(res, 'listChangeRequestPageMetaLinks', GITBOOK_0201);
      expect(res.body).toEqual({ alternates: [page(spaceId), page(french)] });
      // By number too.
      const byNumber = await reader
        .get(changeRequestMetaLinks(spaceId, String(changeRequest.number), 'pgUpgrade'))
        .expect(200);
      expect(byNumber.body).toEqual(res.body);

      expectError(
        await reader.get(changeRequestMetaLinks(spaceId, changeRequest.id, 'pgOther')),
        404,
        'Page not found',
      );
      const primary = await reader.get(spaceMetaLinks(spaceId, 'pgOther')).expect(200);
      expect(primary.body).toEqual({});
    });

    it('answers 400 for bad input; 404 for an unknown page, change request or space, another organization and a guest', async () => {
      const org = await t.factories.organization();
      const spaceId = await guide(org);
      const { id } = await t.factories.changeRequest(org, spaceId);
      const client = org.owner.client;
      expectError(await client.get(changeRequestMetaLinks(spaceId, id, 'pg%00')), 400, 'U+0000');
      expectError(
        await client.get(changeRequestMetaLinks(spaceId, id, 'nope')),
        404,
        'Page not found',
      );
      expectError(
        await client.get(changeRequestMetaLinks(spaceId, 'nope', 'pgUpgrade')),
        404,
        'Change request not found',
      );
      expectError(
        await client.get(changeRequestMetaLinks('nope', id, 'pgUpgrade')),
        404,
        'Space not found',
      );
      const stranger = await t.factories.organization();
      expectError(
        await stranger.owner.client.get(changeRequestMetaLinks(spaceId, id, 'pgUpgrade')),
        404,
        'Space not found',
      );
      const guest = await t.factories.asMember(org, null);
      expectError(
        await guest.get(changeRequestMetaLinks(spaceId, id, 'pgUpgrade')),
        404,
        'Space not found',
      );
    });
  });
});
