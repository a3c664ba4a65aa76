import { createTestApp, TEST_PUBLIC_URL, TestApp } from './helpers/app';
import type {
  PageOf,
  SiteSectionBody,
  SiteSectionGroupBody,
  SiteSpaceBody,
  SiteStructureBody,
} from './helpers/bodies';
import { expectConforms } from './helpers/conformance';
import type { TestOrganization } from './helpers/factories';

/**
 * Sections, section groups and the structure sort: the sections of a site and their variants,
 * groups (nested too), the deprecated moves, `structure/sort`, and who may do what.
 */

describe('site sections, section groups and structure sort', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const sitePath = (org: TestOrganization, siteId: string) => `/v1/orgs/${org.id}/sites/${siteId}`;
  const sectionsPath = (org: TestOrganization, siteId: string) =>
    `${sitePath(org, siteId)}/sections`;
  const groupsPath = (org: TestOrganization, siteId: string) =>
    `${sitePath(org, siteId)}/section-groups`;
  const sortPath = (org: TestOrganization, siteId: string) =>
    `${sitePath(org, siteId)}/structure/sort`;

  /** Publishes the site on a custom hostname, its DNS pointing at Bindery (so it is live). */
  async function publish(org: TestOrganization, siteId: string, hostname: string): Promise<void> {
    t.dns.cname(hostname, new URL(TEST_PUBLIC_URL).hostname);
    await org.owner.client.patch(sitePath(org, siteId), { hostname }).expect(200);
    await org.owner.client.post(`${sitePath(org, siteId)}/publish`).expect(200);
  }

  async function addGroup(
    org: TestOrganization,
    siteId: string,
    body: { title: string; sections?: string[]; parent?: string; icon?: string | null },
  ): Promise<SiteSectionGroupBody> {
    t.clock.advance(1000);
    const res = await org.owner.client.post(groupsPath(org, siteId), body).expect(201);
    expectConforms(res, 'addSectionGroupToSite');
    return res.body as SiteSectionGroupBody;
  }

  async function structure(org: TestOrganization, siteId: string): Promise<SiteStructureBody> {
    const res = await org.owner.client.get(`${sitePath(org, siteId)}/structure`).expect(200);
    expectConforms(res, 'getSiteStructure');
    return res.body as SiteStructureBody;
  }

  /**
   * The structure as text: a section is `path[variant paths]` (`*` marks defaults), a group
   * `title{children}`.
   */
  async function outline(org: TestOrganization, siteId: string): Promise<string> {
    const body = await structure(org, siteId);
    const mark = (item: { default: boolean }) => (item.default ? '*' : '');
    const render = (item: SiteSectionBody | SiteSectionGroupBody | SiteSpaceBody): string => {
      if (item.object === 'site-space') return `${mark(item)}${item.path}`;
      if (item.object === 'site-section') {
        return `${mark(item)}${item.path}[${item.siteSpaces.map(render).join(' ')}]`;
      }
      return `${item.title}{${item.children.map(render).join(' ')}}`;
    };
    return `${body.type}: ${body.structure.map(render).join(' ')}`;
  }

  /** Sections a (default), b, c at the root, each with one variant. */
  async function siteWithSections(org: TestOrganization) {
    const { id: siteId } = await t.factories.later.site(org, { title: 'Acme Docs' });
    const a = await t.factories.later.siteSection(org, siteId, { spaceTitle: 'Guides' });
    const b = await t.factories.later.siteSection(org, siteId, { spaceTitle: 'API' });
    const c = await t.factories.later.siteSection(org, siteId, { spaceTitle: 'Changelog' });
    return { siteId, a, b, c };
  }

  describe('addSectionToSite', () => {
    it('makes the first section of an empty site its default section', async () => {
      const org = await t.factories.organization();
      const { id: siteId } = await t.factories.later.site(org, { title: 'Acme Docs' });
      const { id: spaceId } = await t.factories.space(org, { title: 'User Guide' });
      const res = await org.owner.client
        .post(sectionsPath(org, siteId), { spaceId, icon: 'book' })
        .expect(201);
      expectConforms(res, 'addSectionToSite');
      const section = res.body as SiteSectionBody;
      expect(section).toMatchObject({
        object: 'site-section',
        title: 'User Guide',
        path: 'user-guide',
        default: true,
        icon: 'book',
        urls: {},
        siteSpaces: [{ path: 'user-guide', default: true, title: 'User Guide' }],
      });
      expect(section.siteSpaces[0].section).toBe(section.id);
      expect(section.sectionGroup).toBeUndefined();
      expect(res.headers.location).toBe(
        `${TEST_PUBLIC_URL}/v1/orgs/${org.id}/sites/${siteId}/sections/${section.id}`,
      );

      const second = await t.factories.later.siteSection(org, siteId, {
        spaceTitle: 'API Reference',
        title: 'API',
        icon: null,
      });
      expect(second).toMatchObject({ title: 'API', path: 'api', default: false });
      expect(second.icon).toBeUndefined();
      // Paths are unique among the sections of the site.
      const third = await t.factories.later.siteSection(org, siteId, {
        spaceTitle: 'Other',
        title: 'API',
      });
      expect(third.path).toBe('api-2');
      expect(await outline(org, siteId)).toBe(
        'sections: *user-guide[*user-guide] api[*api-reference] api-2[*other]',
      );
    });

    it("turns a site's root site spaces into its first section (as GitBook does)", async () => {
      const org = await t.factories.organization();
      const { id: siteId } = await t.factories.later.site(org, { title: 'Acme Docs' });
      const v1 = await t.factories.later.siteSpace(org, siteId, { spaceTitle: 'Version 1' });
      const v2 = await t.factories.later.siteSpace(org, siteId, { spaceTitle: 'Version 2' });
      // The second is the default variant: it stays the default in the section.
      await org.owner.client.patch(sitePath(org, siteId), { defaultSiteSpace: v2.id }).expect(200);
      expect(await outline(org, siteId)).toBe('siteSpaces: version-1 *version-2');

      const api = await t.factories.later.siteSection(org, siteId, {
        spaceTitle: 'API',
        title: 'API',
      });
      expect(api).toMatchObject({ default: false, path: 'api' });
      expect(await outline(org, siteId)).toBe(
        'sections: *acme-docs[version-1 *version-2] api[*api]',
      );
      const sections = await org.owner.client.get(sectionsPath(org, siteId)).expect(200);
      expectConforms(sections, 'listSiteSections');
      const [first] = (sections.body as PageOf<SiteSectionBody>).items;
      expect(first).toMatchObject({ title: 'Acme Docs', default: true });
      expect(first.siteSpaces.map((s) => [s.id, s.section])).toEqual([
        [v1.id, first.id],
        [v2.id, first.id],
      ]);

      // A site space added without a section goes to the default section.
      const v3 = await t.factories.later.siteSpace(org, siteId, { spaceTitle: 'Version 3' });
      expect(v3).toMatchObject({ section: first.id, default: false, path: 'version-3' });
      const inApi = await t.factories.later.siteSpace(org, siteId, {
        spaceTitle: 'Version 3',
        sectionId: api.id,
      });
      expect(inApi).toMatchObject({ section: api.id, default: false, path: 'version-3' });
      expect(await outline(org, siteId)).toBe(
        'sections: *acme-docs[version-1 *version-2 version-3] api[*api version-3]',
      );
    });

    it('refuses bad input (400) and answers 404 for another organization', async () => {
      const org = await t.factories.organization();
      const other = await t.factories.organization();
      const { id: siteId } = await t.factories.later.site(org, { title: 'Acme Docs' });
      const { id: spaceId } = await t.factories.space(org, { title: 'Fine' });
      const { id: foreign } = await t.factories.space(other, { title: 'Foreign' });
      const post = (body: object) => org.owner.client.post(sectionsPath(org, siteId), body);
      await post({}).expect(400);
      const res = await post({ spaceId: foreign }).expect(400);
      expect(res.body.error.message).toBe(`spaceId: no space ${foreign} in this organization.`);
      const short = await post({ spaceId, title: 'A' }).expect(400);
      expect(short.body.error.message).toBe('title must be longer than or equal to 2 characters');
      await post({ spaceId, title: 'A'.repeat(129) }).expect(400);
      await post({ spaceId, icon: 'i'.repeat(51) }).expect(400);
      await post({ spaceId, path: 'nope' }).expect(400);
      expect(await outline(org, siteId)).toBe('siteSpaces: ');

      const { id: theirSite } = await t.factories.later.site(other, { title: 'Acme Docs' });
      await org.owner.client.post(sectionsPath(org, theirSite), { spaceId }).expect(404);
      await org.owner.client.post(sectionsPath(other, theirSite), { spaceId }).expect(404);
      await org.owner.client.get(sectionsPath(other, theirSite)).expect(404);
    });
  });

  describe('listSiteSections', () => {
    it('lists every section, grouped or not, in the order a reader meets them, by pages', async () => {
      const org = await t.factories.organization();
      const { siteId, a, b, c } = await siteWithSections(org);
      await addGroup(org, siteId, { title: 'Reference', sections: [c.id, b.id] });
      const first = await org.owner.client
        .get(`${sectionsPath(org, siteId)}?limit=2&shareKey=k`)
        .expect(200);
      expectConforms(first, 'listSiteSections');
      const page = first.body as PageOf<SiteSectionBody>;
      // a at the root, then the group's sections in the group's order: c, b.
      expect(page.items.map((s) => s.id)).toEqual([a.id, c.id]);
      expect(page.count).toBe(3);
      const second = await org.owner.client
        .get(`${sectionsPath(org, siteId)}?limit=2&page=${page.next?.page}`)
        .expect(200);
      expectConforms(second, 'listSiteSections');
      expect(second.body.items.map((s: SiteSectionBody) => [s.id, s.sectionGroup])).toEqual([
        [b.id, expect.any(String)],
      ]);
    });
  });

  describe('the order that moves set', () => {
    it('is the order of listSiteSections, listSiteSectionGroups, listSiteSpaces and the published structure', async () => {
      const org = await t.factories.organization();
      const { siteId, a, b, c } = await siteWithSections(org);
      const first = await addGroup(org, siteId, { title: 'First' });
      const second = await addGroup(org, siteId, { title: 'Second' });
      const extra = await t.factories.later.siteSpace(org, siteId, {
        spaceTitle: 'Guides v2',
        sectionId: a.id,
      });

      // c to the front, the second group before the first, the new variant of a before its first.
      await org.owner.client
        .post(`${sectionsPath(org, siteId)}/${c.id}/move`, {
          position: { before: { type: 'site-section', siteSection: a.id } },
        })
        .expect(200);
      await org.owner.client
        .post(`${groupsPath(org, siteId)}/${second.id}/move`, {
          position: { before: { type: 'site-section-group', id: first.id } },
        })
        .expect(200);
      await org.owner.client
        .post(`${sitePath(org, siteId)}/site-spaces/${extra.id}/move`, {
          position: { before: { type: 'site-space', siteSpace: a.siteSpaces[0].id } },
        })
        .expect(200);

      const sections = await org.owner.client.get(sectionsPath(org, siteId)).expect(200);
      expectConforms(sections, 'listSiteSections');
      expect(sections.body.items.map((item: SiteSectionBody) => item.id)).toEqual([
        c.id,
        a.id,
        b.id,
      ]);

      const groups = await org.owner.client.get(groupsPath(org, siteId)).expect(200);
      expectConforms(groups, 'listSiteSectionGroups');
      expect(groups.body.items.map((item: SiteSectionGroupBody) => item.id)).toEqual([
        second.id,
        first.id,
      ]);

      const siteSpaces = await org.owner.client
        .get(`${sitePath(org, siteId)}/site-spaces`)
        .expect(200);
      expectConforms(siteSpaces, 'listSiteSpaces');
      expect(siteSpaces.body.items.map((item: SiteSpaceBody) => item.id)).toEqual([
        c.siteSpaces[0].id,
        extra.id,
        a.siteSpaces[0].id,
        b.siteSpaces[0].id,
      ]);

      const published = await org.owner.client
        .get(`${sitePath(org, siteId)}/published`)
        .expect(200);
      expectConforms(published, 'getPublishedContentSite');
      const structure = published.body.structure as {
        structure: { id: string; siteSpaces?: { id: string }[] }[];
      };
      expect(structure.structure.map((item) => item.id)).toEqual([
        c.id,
        a.id,
        b.id,
        second.id,
        first.id,
      ]);
      expect(structure.structure[1].siteSpaces?.map((item) => item.id)).toEqual([
        extra.id,
        a.siteSpaces[0].id,
      ]);
    });
  });

  describe('updateSiteSectionById', () => {
    it('updates the title, path, default site space, condition, icon and description', async () => {
      const org = await t.factories.organization();
      const { siteId, b } = await siteWithSections(org);
      const extra = await t.factories.later.siteSpace(org, siteId, {
        spaceTitle: 'API v2',
        sectionId: b.id,
      });
      const url = `${sectionsPath(org, siteId)}/${b.id}`;
      const res = await org.owner.client
        .patch(url, {
          title: 'API Reference',
          path: 'reference',
          defaultSiteSpace: extra.id,
          condition: 'visitor.claims.role === "developer"',
          icon: 'code',
          description: 'Every endpoint.',
        })
        .expect(200);
      expectConforms(res, 'updateSiteSectionById');
      expect(res.body).toMatchObject({
        id: b.id,
        title: 'API Reference',
        path: 'reference',
        condition: 'visitor.claims.role === "developer"',
        icon: 'code',
        description: 'Every endpoint.',
        default: false,
      });
      expect((res.body as SiteSectionBody).siteSpaces.map((s) => [s.path, s.default])).toEqual([
        ['api', false],
        ['api-v2', true],
      ]);
      // Absent: unchanged; null removes the condition, icon and description.
      const cleared = await org.owner.client
        .patch(url, { condition: null, icon: null, description: null })
        .expect(200);
      expectConforms(cleared, 'updateSiteSectionById');
      expect(cleared.body).toMatchObject({ title: 'API Reference', path: 'reference' });
      for (const key of ['condition', 'icon', 'description']) {
        expect(cleared.body[key]).toBeUndefined();
      }
      expect(await outline(org, siteId)).toBe(
        'sections: *guides[*guides] reference[api *api-v2] changelog[*changelog]',
      );
    });

    it('refuses a path of another section (409) and bad values (400)', async () => {
      const org = await t.factories.organization();
      const { siteId, a, b } = await siteWithSections(org);
      const url = `${sectionsPath(org, siteId)}/${b.id}`;
      const clash = await org.owner.client.patch(url, { path: 'guides' }).expect(409);
      expect(clash.body).toEqual({
        error: {
          code: 409,
          message: 'path: "guides" is already the path of another section of this site.',
        },
      });
      await org.owner.client.patch(url, { path: 'api' }).expect(200);

      await org.owner.client.patch(url, { path: 'p'.repeat(101) }).expect(400);
      await org.owner.client.patch(url, { title: 'x' }).expect(400);
      await org.owner.client.patch(url, { title: null }).expect(400);
      await org.owner.client.patch(url, { description: 'd'.repeat(257) }).expect(400);
      await org.owner.client.patch(url, { condition: 'c'.repeat(1025) }).expect(400);
      const syntax = await org.owner.client
        .patch(url, { condition: 'visitor.claims.(' })
        .expect(400);
      expect(syntax.body.error.message).toMatch(/^condition: /);
      const otherSection = await org.owner.client
        .patch(url, { defaultSiteSpace: a.siteSpaces[0].id })
        .expect(400);
      expect(otherSection.body.error.message).toBe(
        `defaultSiteSpace: no site space ${a.siteSpaces[0].id} in this section.`,
      );
      await org.owner.client
        .patch(`${sectionsPath(org, siteId)}/nope`, { title: 'Fine' })
        .expect(404);
      expect(await outline(org, siteId)).toBe(
        'sections: *guides[*guides] api[*api] changelog[*changelog]',
      );
    });
  });

  describe('deleteSiteSectionById', () => {
    it('deletes a section with its site spaces; the next section becomes the default', async () => {
      const org = await t.factories.organization();
      const { siteId, a, b, c } = await siteWithSections(org);
      await addGroup(org, siteId, { title: 'Group', sections: [c.id] });
      await org.owner.client
        .patch(sortPath(org, siteId), {
          item: { type: 'site-section', id: b.id },
          position: {},
        })
        .expect(200);
      expect(await outline(org, siteId)).toBe(
        'sections: *guides[*guides] Group{changelog[*changelog]} api[*api]',
      );
      await org.owner.client.delete(`${sectionsPath(org, siteId)}/${a.id}`).expect(204);
      // The next in reading order: the first section of the group.
      expect(await outline(org, siteId)).toBe('sections: Group{*changelog[*changelog]} api[*api]');
      const siteSpaces = await org.owner.client
        .get(`${sitePath(org, siteId)}/site-spaces`)
        .expect(200);
      expect(siteSpaces.body.count).toBe(2);

      await org.owner.client.delete(`${sectionsPath(org, siteId)}/${a.id}`).expect(204);
      await org.owner.client.delete(`${sectionsPath(org, siteId)}/nope`).expect(204);
      await org.owner.client.delete(`${sectionsPath(org, siteId)}/${c.id}`).expect(204);
      await org.owner.client.delete(`${sectionsPath(org, siteId)}/${b.id}`).expect(204);
      // Without sections, the site publishes its (no) root site spaces again, and has no groups.
      expect(await outline(org, siteId)).toBe('siteSpaces: ');
      const groups = await org.owner.client.get(groupsPath(org, siteId)).expect(200);
      expect(groups.body).toEqual({ items: [], count: 0 });
    });

    it('promotes the next variant when the default site space of a section goes', async () => {
      const org = await t.factories.organization();
      const { siteId, a } = await siteWithSections(org);
      const second = await t.factories.later.siteSpace(org, siteId, {
        spaceTitle: 'Guides v2',
        sectionId: a.id,
      });
      await org.owner.client
        .delete(`${sitePath(org, siteId)}/site-spaces/${a.siteSpaces[0].id}`)
        .expect(204);
      const res = await org.owner.client
        .get(`${sitePath(org, siteId)}/site-spaces?default=true`)
        .expect(200);
      expect(res.body.items.map((s: SiteSpaceBody) => s.id)).toContain(second.id);
      expect(await outline(org, siteId)).toBe(
        'sections: *guides[*guides-v2] api[*api] changelog[*changelog]',
      );
    });
  });

  describe('moveSiteSection (deprecated)', () => {
    it('moves among the sections of its parent', async () => {
      const org = await t.factories.organization();
      const { siteId, a, b, c } = await siteWithSections(org);
      const move = (id: string, body: object) =>
        org.owner.client.post(`${sectionsPath(org, siteId)}/${id}/move`, body);
      const res = await move(c.id, {
        position: { before: { type: 'site-section', siteSection: a.id } },
      }).expect(200);
      expectConforms(res, 'moveSiteSection');
      expect(res.body).toMatchObject({ id: c.id, default: false });
      expect(await outline(org, siteId)).toBe(
        'sections: changelog[*changelog] *guides[*guides] api[*api]',
      );
      await move(c.id, {}).expect(200);
      expect(await outline(org, siteId)).toBe(
        'sections: *guides[*guides] api[*api] changelog[*changelog]',
      );

      const group = await addGroup(org, siteId, { title: 'Group', sections: [b.id] });
      const notSibling = await move(c.id, {
        position: { after: { type: 'site-section', siteSection: b.id } },
      }).expect(400);
      expect(notSibling.body.error.message).toBe(
        `position.after: site-section ${b.id} is not a sibling of the moved site-section (same group).`,
      );
      await move(c.id, {
        position: { after: { type: 'site-section-group', siteSection: group.id } },
      }).expect(400);
      // The seed: a target that does not exist is an invalid position (400), not a 404.
      const unknown = await move(c.id, {
        position: { after: { type: 'site-section', siteSection: 'nope' } },
      }).expect(400);
      expect(unknown.body).toEqual({
        error: { code: 400, message: 'position.after: no site-section nope in this site.' },
      });
      expectConforms(unknown, 'moveSiteSection');
      await move('nope', {}).expect(404);
    });
  });

  describe('section groups', () => {
    it('creates groups (nested too) with their sections, and lists them', async () => {
      const org = await t.factories.organization();
      const { siteId, a, b, c } = await siteWithSections(org);
      const res = await org.owner.client
        .post(groupsPath(org, siteId), { title: 'Reference', icon: 'book', sections: [c.id, b.id] })
        .expect(201);
      expectConforms(res, 'addSectionGroupToSite');
      const group = res.body as SiteSectionGroupBody;
      expect(group).toMatchObject({
        object: 'site-section-group',
        title: 'Reference',
        icon: 'book',
      });
      expect(group.sectionGroup).toBeUndefined();
      expect(group.sections.map((s) => [s.id, s.sectionGroup])).toEqual([
        [c.id, group.id],
        [b.id, group.id],
      ]);
      expect(group.children.map((s) => s.id)).toEqual([c.id, b.id]);
      expect(res.headers.location).toBe(
        `${TEST_PUBLIC_URL}/v1/orgs/${org.id}/sites/${siteId}/section-groups/${group.id}`,
      );

      const nested = await addGroup(org, siteId, {
        title: 'Legacy',
        parent: group.id,
        sections: [b.id],
      });
      expect(nested).toMatchObject({ sectionGroup: group.id, sections: [{ id: b.id }] });
      const empty = await addGroup(org, siteId, { title: 'Empty' });
      expect(empty).toMatchObject({ sections: [], children: [] });
      expect(await outline(org, siteId)).toBe(
        'sections: *guides[*guides] Reference{changelog[*changelog] Legacy{api[*api]}} Empty{}',
      );

      const list = await org.owner.client.get(groupsPath(org, siteId)).expect(200);
      expectConforms(list, 'listSiteSectionGroups');
      const groups = list.body as PageOf<SiteSectionGroupBody>;
      expect(groups.count).toBe(3);
      expect(groups.items.map((g) => g.id)).toEqual([group.id, nested.id, empty.id]);
      // `sections`: the sections directly in it; `children`: sections and groups, in order.
      expect(groups.items[0].sections.map((s) => s.id)).toEqual([c.id]);
      expect(groups.items[0].children.map((x) => [x.object, x.id])).toEqual([
        ['site-section', c.id],
        ['site-section-group', nested.id],
      ]);
      const page = await org.owner.client.get(`${groupsPath(org, siteId)}?limit=2`).expect(200);
      const next = await org.owner.client
        .get(`${groupsPath(org, siteId)}?limit=2&page=${page.body.next.page}`)
        .expect(200);
      expectConforms(next, 'listSiteSectionGroups');
      expect(next.body.items.map((g: SiteSectionGroupBody) => g.id)).toEqual([empty.id]);

      expect(a.default).toBe(true);
    });

    it('refuses bad input (400)', async () => {
      const org = await t.factories.organization();
      const { siteId, a } = await siteWithSections(org);
      const post = (body: object) => org.owner.client.post(groupsPath(org, siteId), body);
      await post({}).expect(400);
      await post({ title: '' }).expect(400);
      await post({ title: 't'.repeat(101) }).expect(400);
      const parent = await post({ title: 'G', parent: 'nope' }).expect(400);
      expect(parent.body.error.message).toBe('parent: no section group nope in this site.');
      const sections = await post({ title: 'G', sections: [a.id, 'nope'] }).expect(400);
      expect(sections.body.error.message).toBe('sections: no section nope in this site.');
      await post({ title: 'G', sections: 'nope' }).expect(400);
      const { id: withoutSections } = await t.factories.later.site(org, { title: 'Acme Docs' });
      const none = await org.owner.client
        .post(groupsPath(org, withoutSections), { title: 'G' })
        .expect(400);
      expect(none.body.error.message).toBe(
        'This site has no sections to group: add a section first.',
      );
      expect(await outline(org, siteId)).toBe(
        'sections: *guides[*guides] api[*api] changelog[*changelog]',
      );
    });

    it('updates the title and icon', async () => {
      const org = await t.factories.organization();
      const { siteId } = await siteWithSections(org);
      const group = await addGroup(org, siteId, { title: 'Group', icon: 'star' });
      const url = `${groupsPath(org, siteId)}/${group.id}`;
      const res = await org.owner.client.patch(url, { title: 'Renamed' }).expect(200);
      expectConforms(res, 'updateSiteSectionGroupById');
      expect(res.body).toMatchObject({ title: 'Renamed', icon: 'star' });
      const cleared = await org.owner.client.patch(url, { icon: null }).expect(200);
      expect(cleared.body.icon).toBeUndefined();
      await org.owner.client.patch(url, { title: '' }).expect(400);
      await org.owner.client.patch(url, { title: null }).expect(400);
      await org.owner.client.patch(`${groupsPath(org, siteId)}/nope`, { title: 'X' }).expect(404);
    });

    it('adds a section to a group and removes it (204 also when not in it)', async () => {
      const org = await t.factories.organization();
      const { siteId, a, b, c } = await siteWithSections(org);
      const group = await addGroup(org, siteId, { title: 'Group', sections: [b.id] });
      const inner = await addGroup(org, siteId, { title: 'Inner', parent: group.id });
      const add = (groupId: string, sectionId: string) =>
        org.owner.client.post(`${groupsPath(org, siteId)}/${groupId}/sections`, { sectionId });
      const res = await add(group.id, c.id).expect(201);
      expectConforms(res, 'addSectionToGroup');
      expect(res.headers.location).toBe(
        `${TEST_PUBLIC_URL}/v1/orgs/${org.id}/sites/${siteId}/section-groups/${group.id}`,
      );
      expect((res.body as SiteSectionGroupBody).children.map((x) => x.id)).toEqual([
        b.id,
        inner.id,
        c.id,
      ]);
      // Already in it: unchanged.
      await add(group.id, c.id).expect(201);
      // From one group into another.
      await add(inner.id, b.id).expect(201);
      expect(await outline(org, siteId)).toBe(
        'sections: *guides[*guides] Group{Inner{api[*api]} changelog[*changelog]}',
      );
      await add(group.id, 'nope').expect(400);
      await add('nope', a.id).expect(404);

      // Out of the group: right after it.
      const remove = (groupId: string, sectionId: string) =>
        org.owner.client.delete(`${groupsPath(org, siteId)}/${groupId}/sections/${sectionId}`);
      await remove(inner.id, b.id).expect(204);
      expect(await outline(org, siteId)).toBe(
        'sections: *guides[*guides] Group{Inner{} api[*api] changelog[*changelog]}',
      );
      await remove(group.id, c.id).expect(204);
      expect(await outline(org, siteId)).toBe(
        'sections: *guides[*guides] Group{Inner{} api[*api]} changelog[*changelog]',
      );
      await remove(group.id, c.id).expect(204);
      await remove(group.id, 'nope').expect(204);
      await remove('nope', c.id).expect(404);
      expect(await outline(org, siteId)).toBe(
        'sections: *guides[*guides] Group{Inner{} api[*api]} changelog[*changelog]',
      );
    });

    it('deletes a group; its sections and groups take its place', async () => {
      const org = await t.factories.organization();
      const { siteId, b, c } = await siteWithSections(org);
      const group = await addGroup(org, siteId, { title: 'Group', sections: [b.id] });
      await addGroup(org, siteId, { title: 'Inner', parent: group.id });
      await org.owner.client
        .patch(sortPath(org, siteId), {
          item: { type: 'site-section', id: c.id },
          position: {},
        })
        .expect(200);
      expect(await outline(org, siteId)).toBe(
        'sections: *guides[*guides] Group{api[*api] Inner{}} changelog[*changelog]',
      );
      await org.owner.client.delete(`${groupsPath(org, siteId)}/${group.id}`).expect(204);
      expect(await outline(org, siteId)).toBe(
        'sections: *guides[*guides] api[*api] Inner{} changelog[*changelog]',
      );
      const sections = await org.owner.client.get(sectionsPath(org, siteId)).expect(200);
      expect(sections.body.items.every((s: SiteSectionBody) => s.sectionGroup === undefined)).toBe(
        true,
      );
      await org.owner.client.delete(`${groupsPath(org, siteId)}/${group.id}`).expect(204);
      await org.owner.client.delete(`${groupsPath(org, siteId)}/nope`).expect(204);
    });

    it('moves a group among its siblings (deprecated)', async () => {
      const org = await t.factories.organization();
      const { siteId, a, b } = await siteWithSections(org);
      const group = await addGroup(org, siteId, { title: 'Group' });
      const move = (body: object) =>
        org.owner.client.post(`${groupsPath(org, siteId)}/${group.id}/move`, body);
      const res = await move({
        position: { after: { type: 'site-section', id: a.id } },
      }).expect(200);
      expectConforms(res, 'moveSiteSectionGroup');
      expect(await outline(org, siteId)).toBe(
        'sections: *guides[*guides] Group{} api[*api] changelog[*changelog]',
      );
      const other = await addGroup(org, siteId, { title: 'Other' });
      await move({ position: { after: { type: 'site-section-group', id: other.id } } }).expect(200);
      expect(await outline(org, siteId)).toBe(
        'sections: *guides[*guides] api[*api] changelog[*changelog] Other{} Group{}',
      );
      await move({
        position: {
          after: { type: 'site-section', id: a.id },
          before: { type: 'site-section', id: b.id },
        },
      }).expect(200);
      expect(await outline(org, siteId)).toBe(
        'sections: *guides[*guides] Group{} api[*api] changelog[*changelog] Other{}',
      );
      // The seed: a target that does not exist is an invalid position (400), not a 404.
      const unknownSection = await move({
        position: { before: { type: 'site-section', id: 'nope' } },
      }).expect(400);
      expect(unknownSection.body).toEqual({
        error: { code: 400, message: 'position.before: no site-section nope in this site.' },
      });
      expectConforms(unknownSection, 'moveSiteSectionGroup');
      const unknownGroup = await move({
        position: { before: { type: 'site-section-group', id: 'nope' } },
      }).expect(400);
      expect(unknownGroup.body.error.message).toBe(
        'position.before: no site-section-group nope in this site.',
      );
      await move({ position: { before: { type: 'site-space', id: a.siteSpaces[0].id } } }).expect(
        400,
      );
      await move({
        position: {
          after: { type: 'site-section', id: a.id },
          before: { type: 'site-section-group', id: other.id },
        },
      }).expect(400);
      await org.owner.client.post(`${groupsPath(org, siteId)}/nope/move`, {}).expect(404);
    });
  });

  describe('sortSiteStructure', () => {
    it('reorders a site space, a section or a group among its siblings', async () => {
      const org = await t.factories.organization();
      const { siteId, a, b, c } = await siteWithSections(org);
      const a2 = await t.factories.later.siteSpace(org, siteId, {
        spaceTitle: 'Guides v2',
        sectionId: a.id,
      });
      const group = await addGroup(org, siteId, { title: 'Group', sections: [c.id] });
      const inGroup = await t.factories.later.siteSection(org, siteId, { spaceTitle: 'Extra' });
      await org.owner.client
        .post(`${groupsPath(org, siteId)}/${group.id}/sections`, { sectionId: inGroup.id })
        .expect(201);
      const sort = (body: object) => org.owner.client.patch(sortPath(org, siteId), body);

      const space = await sort({
        item: { type: 'site-space', id: a2.id },
        position: { before: { type: 'site-space', id: a.siteSpaces[0].id } },
      }).expect(200);
      expectConforms(space, 'sortSiteStructure');
      expect(space.body).toMatchObject({ object: 'site-space', id: a2.id, default: false });

      const section = await sort({
        item: { type: 'site-section', id: b.id },
        position: { after: { type: 'site-section-group', id: group.id } },
      }).expect(200);
      expectConforms(section, 'sortSiteStructure');
      expect(section.body).toMatchObject({ object: 'site-section', id: b.id });

      const moved = await sort({
        item: { type: 'site-section-group', id: group.id },
        position: { before: { type: 'site-section', id: a.id } },
      }).expect(200);
      expectConforms(moved, 'sortSiteStructure');
      expect(moved.body).toMatchObject({ object: 'site-section-group', id: group.id });

      // Within a group; `{}`: to the end.
      await sort({ item: { type: 'site-section', id: c.id }, position: {} }).expect(200);
      expect(await outline(org, siteId)).toBe(
        'sections: Group{extra[*extra] changelog[*changelog]} *guides[guides-v2 *guides] api[*api]',
      );
    });

    it('refuses items and positions that are not in the site or not siblings (400)', async () => {
      const org = await t.factories.organization();
      const { siteId, a, b, c } = await siteWithSections(org);
      const elsewhere = await siteWithSections(org);
      const group = await addGroup(org, siteId, { title: 'Group', sections: [c.id] });
      const sort = (body: object) => org.owner.client.patch(sortPath(org, siteId), body);
      const expect400 = async (body: object, message?: string) => {
        const res = await sort(body).expect(400);
        expectConforms(res, 'sortSiteStructure');
        if (message) expect(res.body.error.message).toBe(message);
      };

      await expect400(
        { item: { type: 'site-section', id: 'nope' }, position: {} },
        'item: no site-section nope in this site.',
      );
      await expect400({ item: { type: 'site-section', id: elsewhere.a.id }, position: {} });
      // The right id with the wrong type.
      await expect400({ item: { type: 'site-section-group', id: a.id }, position: {} });
      await expect400(
        {
          item: { type: 'site-section', id: a.id },
          position: { before: { type: 'site-section', id: 'nope' } },
        },
        'position.before: no site-section nope in this site.',
      );
      await expect400(
        {
          item: { type: 'site-section', id: a.id },
          position: { after: { type: 'site-section', id: c.id } },
        },
        `position.after: site-section ${c.id} is not a sibling of the moved site-section (same group).`,
      );
      await expect400({
        item: { type: 'site-section', id: a.id },
        position: { after: { type: 'site-space', id: b.siteSpaces[0].id } },
      });
      await expect400({
        item: { type: 'site-space', id: a.siteSpaces[0].id },
        position: { after: { type: 'site-space', id: b.siteSpaces[0].id } },
      });
      await expect400(
        {
          item: { type: 'site-section', id: a.id },
          position: {
            after: { type: 'site-section', id: b.id },
            before: { type: 'site-section', id: b.id },
          },
        },
        'position: before and after are not next to each other.',
      );
      await expect400({ item: { type: 'site-section', id: a.id } });
      await expect400({ item: { type: 'page', id: a.id }, position: {} });
      await expect400({ item: { type: 'site-section' }, position: {} });
      await expect400({ position: {} });
      expect(await outline(org, siteId)).toBe(
        'sections: *guides[*guides] api[*api] Group{changelog[*changelog]}',
      );
      expect(group.id).toBeTruthy();

      const other = await t.factories.organization();
      await other.owner.client
        .patch(sortPath(org, siteId), { item: { type: 'site-section', id: a.id }, position: {} })
        .expect(404);
    });
  });

  describe('structure', () => {
    it('gives published URLs: the default section and variant at the site URL', async () => {
      const org = await t.factories.organization();
      const { siteId, b } = await siteWithSections(org);
      await t.factories.later.siteSpace(org, siteId, { spaceTitle: 'API v2', sectionId: b.id });
      await publish(org, siteId, 'docs.acme.test');
      const body = await structure(org, siteId);
      const [guides, api] = body.structure as SiteSectionBody[];
      expect(guides.urls.published).toBe('https://docs.acme.test');
      expect(guides.siteSpaces[0].urls.published).toBe('https://docs.acme.test');
      expect(api.urls.published).toBe('https://docs.acme.test/api');
      expect(api.siteSpaces.map((s) => s.urls.published)).toEqual([
        'https://docs.acme.test/api',
        'https://docs.acme.test/api/api-v2',
      ]);
    });
  });

  describe('access', () => {
    it('lets a read member read and refuses it every change (403)', async () => {
      const org = await t.factories.organization();
      const { siteId, a, b } = await siteWithSections(org);
      const group = await addGroup(org, siteId, { title: 'Group', sections: [b.id] });
      const reader = await t.factories.asMember(org, 'read');
      const { id: spaceId } = await t.factories.space(org, { title: 'New' });

      for (const path of [sectionsPath(org, siteId), groupsPath(org, siteId)]) {
        await reader.get(path).expect(200);
      }
      const structureRes = await reader.get(`${sitePath(org, siteId)}/structure`).expect(200);
      expectConforms(structureRes, 'getSiteStructure');

      const section = `${sectionsPath(org, siteId)}/${a.id}`;
      const groupUrl = `${groupsPath(org, siteId)}/${group.id}`;
      await reader.post(sectionsPath(org, siteId), { spaceId }).expect(403);
      await reader.patch(section, { title: 'Nope' }).expect(403);
      await reader.delete(section).expect(403);
      await reader.post(`${section}/move`, {}).expect(403);
      await reader.post(groupsPath(org, siteId), { title: 'Nope' }).expect(403);
      await reader.patch(groupUrl, { title: 'Nope' }).expect(403);
      await reader.delete(groupUrl).expect(403);
      await reader.post(`${groupUrl}/sections`, { sectionId: a.id }).expect(403);
      await reader.delete(`${groupUrl}/sections/${b.id}`).expect(403);
      await reader.post(`${groupUrl}/move`, {}).expect(403);
      await reader
        .patch(sortPath(org, siteId), { item: { type: 'site-section', id: a.id }, position: {} })
        .expect(403);
      expect(await outline(org, siteId)).toBe(
        'sections: *guides[*guides] changelog[*changelog] Group{api[*api]}',
      );

      const stranger = await t.factories.user();
      await stranger.client.get(sectionsPath(org, siteId)).expect(404);
      await stranger.client.get(`${sitePath(org, siteId)}/structure`).expect(404);
    });
  });
});
