import { createTestApp, TestApp } from './helpers/app';
import type { SiteSectionBody, SiteSpaceBody } from './helpers/bodies';
import { expectConforms, GITBOOK_0202 } from './helpers/conformance';
import { insertPage } from './helpers/content';
import type { TestOrganization } from './helpers/factories';

/**
 * duplicateSiteSpace: a copy of a site space's space (its content too), placed in the site as a
 * new variant after the source, or as a new section after a section whose only variant it was.
 */
describe('POST …/site-spaces/{siteSpaceId}/duplicate (duplicateSiteSpace)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const sitePath = (org: TestOrganization, siteId: string) => `/v1/orgs/${org.id}/sites/${siteId}`;
  const duplicatePath = (org: TestOrganization, siteId: string, siteSpaceId: string) =>
    `${sitePath(org, siteId)}/site-spaces/${siteSpaceId}/duplicate`;
  const error = (code: number, message: string) => ({ error: { code, message } });

  type Item = { object: string; id: string; title: string; siteSpaces?: Item[] };
  /** The structure as `title[variant titles]` for sections, `title` for root site spaces. */
  async function outline(org: TestOrganization, siteId: string): Promise<string[]> {
    const res = await org.owner.client.get(`${sitePath(org, siteId)}/structure`).expect(200);
    return (res.body.structure as Item[]).map((item) =>
      item.siteSpaces
        ? `${item.title}[${item.siteSpaces.map((siteSpace) => siteSpace.title).join(', ')}]`
        : item.title,
    );
  }

  async function pageTitles(org: TestOrganization, spaceId: string): Promise<string[]> {
    const res = await org.owner.client.get(`/v1/spaces/${spaceId}/content/pages`).expect(200);
    return (res.body.pages as { title: string }[]).map((page) => page.title);
  }

  it("copies the only variant of a section, with its space's content, into a new section after it", async () => {
    const org = await t.factories.organization();
    const site = await t.factories.site(org, { title: 'Acme' });
    const space = await t.factories.space(org, { title: 'Guides' });
    await t.factories.changeRequest(org, space.id, {
      changes: [insertPage('Install', 'Run the installer.')],
      merge: true,
    });
    const guides = await t.factories.siteSection(org, site.id, { spaceId: space.id });
    const api = await t.factories.siteSection(org, site.id, { spaceTitle: 'API' });
    await org.owner.client
      .patch(`${sitePath(org, site.id)}/site-spaces/${guides.siteSpaces[0].id}`, {
        condition: 'visitor.claims.staff === true',
      })
      .expect(200);

    const res = await org.owner.client
      .post(duplicatePath(org, site.id, guides.siteSpaces[0].id))
      .expect(201);
    expectConforms(res, 'duplicateSiteSpace', GITBOOK_0202);
    const copy = res.body as SiteSpaceBody;
    expect(copy).toMatchObject({
      object: 'site-space',
      title: 'Guides (copy)',
      path: guides.siteSpaces[0].path,
      default: true,
      condition: 'visitor.claims.staff === true',
      space: { title: 'Guides (copy)' },
    });
    expect(copy.space.id).not.toBe(space.id);
    expect(copy.section).not.toBe(guides.id);
    expect(res.headers.location).toMatch(new RegExp(`/site-spaces/${copy.id}$`));
    expect(await outline(org, site.id)).toEqual([
      'Guides[Guides]',
      'Guides (copy)[Guides (copy)]',
      'API[API]',
    ]);
    expect(await pageTitles(org, copy.space.id)).toEqual(await pageTitles(org, space.id));
    expect(await pageTitles(org, copy.space.id)).toContain('Install');
    const section = await org.owner.client
      .get(`${sitePath(org, site.id)}/sections?limit=10`)
      .expect(200);
    const sections = section.body.items as SiteSectionBody[];
    expect(sections.map((s) => s.id)).toEqual([guides.id, copy.section, api.id]);
    expect(sections[1].path).not.toBe(guides.path);
  });

  it('adds a copy of one variant among several as a variant after it; a root site space at the root', async () => {
    const org = await t.factories.organization();
    const site = await t.factories.site(org, { title: 'Acme' });
    const section = await t.factories.siteSection(org, site.id, { spaceTitle: 'V1' });
    await t.factories.siteSpace(org, site.id, { spaceTitle: 'V2', sectionId: section.id });
    const res = await org.owner.client
      .post(duplicatePath(org, site.id, section.siteSpaces[0].id), { draft: false })
      .expect(201);
    expectConforms(res, 'duplicateSiteSpace', GITBOOK_0202);
    expect(res.body).toMatchObject({ section: section.id, title: 'V1 (copy)', default: false });
    expect(await outline(org, site.id)).toEqual(['V1[V1, V1 (copy), V2]']);

    const flat = await t.factories.site(org, { title: 'Flat' });
    const only = await t.factories.siteSpace(org, flat.id, { spaceTitle: 'Only' });
    const rootCopy = await org.owner.client.post(duplicatePath(org, flat.id, only.id)).expect(201);
    expectConforms(rootCopy, 'duplicateSiteSpace', GITBOOK_0202);
    expect(rootCopy.body.section).toBeUndefined();
    expect(rootCopy.body.path).not.toBe(only.path);
    expect(await outline(org, flat.id)).toEqual(['Only', 'Only (copy)']);
  });

  it('answers 400 for draft: true or a bad body, and copies nothing', async () => {
    const org = await t.factories.organization();
    const site = await t.factories.site(org, { title: 'Acme' });
    const section = await t.factories.siteSection(org, site.id, { spaceTitle: 'Guides' });
    const path = duplicatePath(org, site.id, section.siteSpaces[0].id);
    const draft = await org.owner.client.post(path, { draft: true }).expect(400);
    expect(draft.body).toEqual(
      error(400, 'draft: Bindery has no draft site spaces or sections; send false.'),
    );
    const bad = await org.owner.client.post(path, { draft: 'yes' }).expect(400);
    expect(bad.body.error.code).toBe(400);
    expect(await outline(org, site.id)).toEqual(['Guides[Guides]']);
  });

  it('is 404 for an unknown site space or another organization, 403 below create', async () => {
    const org = await t.factories.organization();
    const site = await t.factories.site(org, { title: 'Acme' });
    const section = await t.factories.siteSection(org, site.id, { spaceTitle: 'Guides' });
    const missing = await org.owner.client
      .post(duplicatePath(org, site.id, 'nosuchsitespace'))
      .expect(404);
    expect(missing.body).toEqual(error(404, 'Site space not found.'));
    const stranger = (await t.factories.organization()).owner.client;
    await stranger.post(duplicatePath(org, site.id, section.siteSpaces[0].id)).expect(404);
    const editor = await t.factories.asMember(org, 'edit');
    await editor.post(duplicatePath(org, site.id, section.siteSpaces[0].id)).expect(403);
    expect(await outline(org, site.id)).toEqual(['Guides[Guides]']);
  });
});
