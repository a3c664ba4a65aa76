import { Revalidation } from '../src/platform/revalidation/revalidation.service';
import { createTestApp, TestApp } from './helpers/app';
import { expectConforms, GITBOOK_0202 } from './helpers/conformance';
import type { TestOrganization } from './helpers/factories';

/**
 * External links of a site's navigation (addExternalLinkToSite, updateSiteExternalLinkById,
 * deleteSiteExternalLinkById): in the site's structure among its sections and groups, sorted
 * with them, and in the published site (drafts and unmet conditions left out), with the
 * renderer's cache of the site revalidated on every write.
 */

const SITES = 'http://docs.localhost/{organization}';

interface LinkBody {
  object: 'site-external-link';
  id: string;
  title: string;
  url: string;
  draft: boolean;
  sectionGroup?: string;
  [key: string]: unknown;
}

type Item = { object: string; id: string; children?: Item[] };

describe('site external links', () => {
  let t: TestApp;
  const revalidated: string[] = [];
  beforeAll(async () => {
    t = await createTestApp({ SITES_URL: SITES });
    t.bindery.app.get(Revalidation).onChange((tags) => revalidated.push(...tags));
  });
  afterAll(() => t.close());

  const sitePath = (org: TestOrganization, siteId: string) => `/v1/orgs/${org.id}/sites/${siteId}`;
  const linksPath = (org: TestOrganization, siteId: string) =>
    `${sitePath(org, siteId)}/external-links`;
  const error = (code: number, message: string) => ({ error: { code, message } });

  /** A site with sections Guides (default) and API, API in the group Reference. */
  async function siteWithSections(org: TestOrganization) {
    const site = await t.factories.site(org, { title: 'Acme Docs' });
    const guides = await t.factories.siteSection(org, site.id, { spaceTitle: 'Guides' });
    const api = await t.factories.siteSection(org, site.id, { spaceTitle: 'API' });
    const group = await org.owner.client
      .post(`${sitePath(org, site.id)}/section-groups`, { title: 'Reference', sections: [api.id] })
      .expect(201);
    return { siteId: site.id, guides, api, groupId: group.body.id as string };
  }

  async function addLink(org: TestOrganization, siteId: string, body: object): Promise<LinkBody> {
    t.clock.advance(1000);
    const res = await org.owner.client.post(linksPath(org, siteId), body).expect(201);
    expectConforms(res, 'addExternalLinkToSite', GITBOOK_0202);
    return res.body as LinkBody;
  }

  /** The structure as `object:id` (a group with its children in braces). */
  function outline(items: Item[]): string[] {
    return items.map((item) =>
      item.children
        ? `${item.object}:${item.id}{${outline(item.children).join(' ')}}`
        : `${item.object}:${item.id}`,
    );
  }

  async function structure(org: TestOrganization, siteId: string): Promise<string[]> {
    const res = await org.owner.client.get(`${sitePath(org, siteId)}/structure`).expect(200);
    expectConforms(res, 'getSiteStructure', GITBOOK_0202);
    return outline(res.body.structure as Item[]);
  }

  describe('POST …/external-links (addExternalLinkToSite)', () => {
    it('adds a link at the end of the root or of a group, in the structure, and revalidates the site', async () => {
      const org = await t.factories.organization();
      const { siteId, guides, api, groupId } = await siteWithSections(org);
      revalidated.length = 0;
      const res = await org.owner.client
        .post(linksPath(org, siteId), {
          title: '  Status  ',
          url: 'https://status.example.com/now',
          icon: 'signal',
          description: 'Service status',
          localizedTitle: { fr: 'Statut' },
          condition: 'visitor.claims.unsigned.beta === true',
        })
        .expect(201);
      expectConforms(res, 'addExternalLinkToSite', GITBOOK_0202);
      const root = res.body as LinkBody;
      expect(root).toEqual({
        object: 'site-external-link',
        id: expect.any(String),
        title: 'Status',
        localizedTitle: { fr: 'Statut' },
        description: 'Service status',
        icon: 'signal',
        url: 'https://status.example.com/now',
        draft: false,
        condition: 'visitor.claims.unsigned.beta === true',
      });
      expect(res.headers.location).toMatch(new RegExp(`/external-links/${root.id}$`));
      expect(revalidated).toEqual([`site:${siteId}`]);

      const grouped = await addLink(org, siteId, {
        title: 'Forum',
        url: 'http://forum.example.com',
        parent: groupId,
        draft: true,
      });
      expect(grouped).toMatchObject({ sectionGroup: groupId, draft: true });

      expect(await structure(org, siteId)).toEqual([
        `site-section:${guides.id}`,
        `site-section-group:${groupId}{site-section:${api.id} site-external-link:${grouped.id}}`,
        `site-external-link:${root.id}`,
      ]);
    });

    it('answers 400 for a site without sections, a parent that is not a group, and bad fields', async () => {
      const org = await t.factories.organization();
      const { siteId, guides } = await siteWithSections(org);
      const client = org.owner.client;
      const flat = await t.factories.site(org, { title: 'Flat' });
      await t.factories.siteSpace(org, flat.id, { spaceTitle: 'Only' });
      const simple = await client
        .post(linksPath(org, flat.id), { title: 'Status', url: 'https://status.example.com' })
        .expect(400);
      expect(simple.body).toEqual(
        error(400, 'This site has a simple structure (no sections): external links need sections.'),
      );
      const inSection = await client
        .post(linksPath(org, siteId), { title: 'X1', url: 'https://x.example', parent: guides.id })
        .expect(400);
      expect(inSection.body.error.message).toBe(
        `parent: ${guides.id} is a section; a link goes at the site root or in a section group.`,
      );
      const unknown = await client
        .post(linksPath(org, siteId), { title: 'X1', url: 'https://x.example', parent: 'nope' })
        .expect(400);
      expect(unknown.body.error.message).toBe('parent: no section group nope in this site.');
      for (const body of [
        { title: 'Status' },
        { url: 'https://x.example' },
        { title: 'S', url: 'https://x.example' },
        { title: 'Status', url: 'ftp://x.example' },
        { title: 'Status', url: '/relative' },
        { title: 'Status', url: `https://x.example/${'a'.repeat(2048)}` },
        { title: 'Status', url: 'https://x.example', localizedTitle: { xx: 'Nope' } },
        { title: 'Status', url: 'https://x.example', localizedTitle: { fr: 'a'.repeat(129) } },
        { title: 'Status', url: 'https://x.example', draft: 'yes' },
        { title: 'Status', url: 'https://x.example', condition: 'process.exit()' },
      ]) {
        const res = await client.post(linksPath(org, siteId), body).expect(400);
        expect(res.body.error).toEqual({ code: 400, message: expect.any(String) });
      }
      // Nothing was added.
      expect((await structure(org, siteId)).join(' ')).not.toContain('site-external-link');
    });

    it('is 404 for an unknown site or another organization, 403 below the create role', async () => {
      const org = await t.factories.organization();
      const { siteId } = await siteWithSections(org);
      const body = { title: 'Status', url: 'https://status.example.com' };
      const missing = await org.owner.client.post(linksPath(org, 'nosuchsite'), body).expect(404);
      expect(missing.body).toEqual(error(404, 'Site not found.'));
      const stranger = (await t.factories.organization()).owner.client;
      await stranger.post(linksPath(org, siteId), body).expect(404);
      const editor = await t.factories.asMember(org, 'edit');
      const denied = await editor.post(linksPath(org, siteId), body).expect(403);
      expect(denied.body.error.code).toBe(403);
      const creator = await t.factories.asMember(org, 'create');
      await creator.post(linksPath(org, siteId), body).expect(201);
    });
  });

  describe('PATCH …/external-links/{siteExternalLinkId} (updateSiteExternalLinkById)', () => {
    it('changes fields, removes with null, moves between the root and a group', async () => {
      const org = await t.factories.organization();
      const { siteId, guides, api, groupId } = await siteWithSections(org);
      const link = await addLink(org, siteId, {
        title: 'Status',
        url: 'https://status.example.com',
        icon: 'signal',
        description: 'Up or down',
      });
      revalidated.length = 0;
      const res = await org.owner.client
        .patch(`${linksPath(org, siteId)}/${link.id}`, {
          title: 'Service status',
          url: 'https://status.example.org',
          icon: null,
          description: null,
          localizedDescription: { de: 'Betriebsstatus' },
          draft: true,
          parent: groupId,
        })
        .expect(200);
      expectConforms(res, 'updateSiteExternalLinkById', GITBOOK_0202);
      expect(res.body).toEqual({
        object: 'site-external-link',
        id: link.id,
        title: 'Service status',
        localizedDescription: { de: 'Betriebsstatus' },
        url: 'https://status.example.org',
        sectionGroup: groupId,
        draft: true,
      });
      expect(revalidated).toEqual([`site:${siteId}`]);
      expect(await structure(org, siteId)).toEqual([
        `site-section:${guides.id}`,
        `site-section-group:${groupId}{site-section:${api.id} site-external-link:${link.id}}`,
      ]);

      // Back to the root, answered without a body.
      const minimal = await org.owner.client
        .patch(`${linksPath(org, siteId)}/${link.id}`, { parent: null })
        .set('Prefer', 'return=minimal')
        .expect(204);
      expectConforms(minimal, 'updateSiteExternalLinkById', GITBOOK_0202);
      expect(minimal.headers['preference-applied']).toBe('return=minimal');
      expect(await structure(org, siteId)).toEqual([
        `site-section:${guides.id}`,
        `site-section-group:${groupId}{site-section:${api.id}}`,
        `site-external-link:${link.id}`,
      ]);
    });

    it('is sorted with the structure, and deleting its group moves it up', async () => {
      const org = await t.factories.organization();
      const { siteId, guides, api, groupId } = await siteWithSections(org);
      const link = await addLink(org, siteId, { title: 'Status', url: 'https://s.example' });
      const sorted = await org.owner.client
        .patch(`${sitePath(org, siteId)}/structure/sort`, {
          item: { type: 'site-external-link', id: link.id },
          position: { before: { type: 'site-section', id: guides.id } },
        })
        .expect(200);
      expectConforms(sorted, 'sortSiteStructure', GITBOOK_0202);
      expect(sorted.body).toMatchObject({ object: 'site-external-link', id: link.id });
      const inGroup = await addLink(org, siteId, {
        title: 'Forum',
        url: 'https://f.example',
        parent: groupId,
      });
      await org.owner.client
        .delete(`${sitePath(org, siteId)}/section-groups/${groupId}`)
        .expect(204);
      expect(await structure(org, siteId)).toEqual([
        `site-external-link:${link.id}`,
        `site-section:${guides.id}`,
        `site-section:${api.id}`,
        `site-external-link:${inGroup.id}`,
      ]);
      // The last sections go: the site has a simple structure, without links.
      for (const section of [guides, api]) {
        await org.owner.client
          .delete(`${sitePath(org, siteId)}/sections/${section.id}`)
          .expect(204);
      }
      await org.owner.client
        .patch(`${linksPath(org, siteId)}/${link.id}`, { title: 'Status' })
        .expect(404);
    });

    it('answers 400 for bad input, 404 for an unknown link or another organization, 403 below create', async () => {
      const org = await t.factories.organization();
      const { siteId, guides } = await siteWithSections(org);
      const link = await addLink(org, siteId, { title: 'Status', url: 'https://s.example' });
      const path = `${linksPath(org, siteId)}/${link.id}`;
      const client = org.owner.client;
      for (const body of [
        { title: null },
        { url: null },
        { url: 'mailto:ops@example.com' },
        { draft: null },
        { parent: guides.id },
        { parent: 'nope' },
        { localizedTitle: ['fr'] },
      ]) {
        const res = await client.patch(path, body).expect(400);
        expect(res.body.error).toEqual({ code: 400, message: expect.any(String) });
      }
      const missing = await client
        .patch(`${linksPath(org, siteId)}/nosuchlink`, { title: 'Status' })
        .expect(404);
      expect(missing.body).toEqual(error(404, 'Site external link not found.'));
      const stranger = (await t.factories.organization()).owner.client;
      await stranger.patch(path, { title: 'Mine' }).expect(404);
      const editor = await t.factories.asMember(org, 'edit');
      await editor.patch(path, { title: 'Mine' }).expect(403);
      const res = await client.get(`${sitePath(org, siteId)}/structure`).expect(200);
      expect(JSON.stringify(res.body)).toContain('"title":"Status"');
    });
  });

  describe('DELETE …/external-links/{siteExternalLinkId} (deleteSiteExternalLinkById)', () => {
    it('answers 205 when it deleted the link, 204 when there was none', async () => {
      const org = await t.factories.organization();
      const { siteId } = await siteWithSections(org);
      const link = await addLink(org, siteId, { title: 'Status', url: 'https://s.example' });
      revalidated.length = 0;
      const res = await org.owner.client.delete(`${linksPath(org, siteId)}/${link.id}`).expect(205);
      expectConforms(res, 'deleteSiteExternalLinkById', GITBOOK_0202);
      expect(revalidated).toEqual([`site:${siteId}`]);
      expect((await structure(org, siteId)).join(' ')).not.toContain(link.id);
      const again = await org.owner.client
        .delete(`${linksPath(org, siteId)}/${link.id}`)
        .expect(204);
      expectConforms(again, 'deleteSiteExternalLinkById', GITBOOK_0202);
    });

    it('is 404 for an unknown site or another organization, 403 below create', async () => {
      const org = await t.factories.organization();
      const { siteId } = await siteWithSections(org);
      const link = await addLink(org, siteId, { title: 'Status', url: 'https://s.example' });
      const missing = await org.owner.client
        .delete(`${linksPath(org, 'nosuchsite')}/${link.id}`)
        .expect(404);
      expect(missing.body).toEqual(error(404, 'Site not found.'));
      const stranger = (await t.factories.organization()).owner.client;
      await stranger.delete(`${linksPath(org, siteId)}/${link.id}`).expect(404);
      const editor = await t.factories.asMember(org, 'edit');
      await editor.delete(`${linksPath(org, siteId)}/${link.id}`).expect(403);
      expect((await structure(org, siteId)).join(' ')).toContain(link.id);
    });
  });

  describe('the published site (getPublishedContentSite)', () => {
    it('shows the renderer live links whose condition the visitor meets, never drafts', async () => {
      const org = await t.factories.organization();
      const { siteId, guides, api, groupId } = await siteWithSections(org);
      const path = sitePath(org, siteId);
      await org.owner.client
        .put(`${path}/adaptive-schema`, {
          jsonSchema: {
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
          },
        })
        .expect(200);
      const live = await addLink(org, siteId, { title: 'Status', url: 'https://s.example' });
      const draft = await addLink(org, siteId, {
        title: 'Draft',
        url: 'https://d.example',
        draft: true,
      });
      const beta = await addLink(org, siteId, {
        title: 'Beta',
        url: 'https://b.example',
        parent: groupId,
        condition: 'visitor.claims.unsigned.beta === true',
      });
      await org.owner.client.post(`${path}/publish`).expect(200);

      // A member reads the published profile: the draft is left out.
      const member = await org.owner.client.get(`${path}/published`).expect(200);
      expectConforms(member, 'getPublishedContentSite', GITBOOK_0202);
      expect(outline(member.body.structure.structure)).toEqual([
        `site-section:${guides.id}`,
        `site-section-group:${groupId}{site-section:${api.id} site-external-link:${beta.id}}`,
        `site-external-link:${live.id}`,
      ]);
      expect(JSON.stringify(member.body)).not.toContain(draft.id);

      // The renderer, through the lookup's site token: without the claim, no beta link.
      const url = `https://docs.localhost/${org.id}/${siteId}`;
      const plain = await t.anonymous
        .post('/v1/urls/published', { url, visitor: { unsignedClaims: {} } })
        .expect(200);
      const reader = await t.as(plain.body.apiToken).get(`${path}/published`).expect(200);
      expectConforms(reader, 'getPublishedContentSite', GITBOOK_0202);
      expect(outline(reader.body.structure.structure)).toEqual([
        `site-section:${guides.id}`,
        `site-section-group:${groupId}{site-section:${api.id}}`,
        `site-external-link:${live.id}`,
      ]);
      const tester = await t.anonymous
        .post('/v1/urls/published', { url, visitor: { unsignedClaims: { beta: true } } })
        .expect(200);
      const testerView = await t.as(tester.body.apiToken).get(`${path}/published`).expect(200);
      expect(outline(testerView.body.structure.structure)).toEqual(
        outline(member.body.structure.structure),
      );
      const shown = testerView.body.structure.structure[2];
      expect(shown).toEqual({
        object: 'site-external-link',
        id: live.id,
        title: 'Status',
        url: 'https://s.example',
        draft: false,
      });

      // Published as soon as it is no longer a draft.
      await org.owner.client
        .patch(`${linksPath(org, siteId)}/${draft.id}`, { draft: false })
        .expect(200);
      const after = await t.as(plain.body.apiToken).get(`${path}/published`).expect(200);
      expect(JSON.stringify(after.body)).toContain(draft.id);
    });
  });
});
