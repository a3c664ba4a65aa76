import { SpaceLifecycle } from '../src/spaces/space-lifecycle.service';
import { createTestApp, TEST_PUBLIC_URL, TestApp } from './helpers/app';
import type { PageOf, SiteSpaceBody, SiteStructureBody } from './helpers/bodies';
import { expectConforms } from './helpers/conformance';
import type { TestOrganization } from './helpers/factories';

/**
 * Site spaces of a site without sections (at its root): add, list, update, delete, the
 * deprecated move, the structure they make, published URLs, and who may do what.
 */

describe('site spaces', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const sitePath = (org: TestOrganization, siteId: string) => `/v1/orgs/${org.id}/sites/${siteId}`;
  const siteSpacesPath = (org: TestOrganization, siteId: string) =>
    `${sitePath(org, siteId)}/site-spaces`;

  /** A site of the organization, without sections or site spaces. */
  /** Publishes the site on a custom hostname, its DNS pointing at Bindery (so it is live). */
  async function publish(org: TestOrganization, siteId: string, hostname: string): Promise<void> {
    t.dns.cname(hostname, new URL(TEST_PUBLIC_URL).hostname);
    await org.owner.client.patch(sitePath(org, siteId), { hostname }).expect(200);
    await org.owner.client.post(`${sitePath(org, siteId)}/publish`).expect(200);
  }

  async function structure(
    org: TestOrganization,
    siteId: string,
  ): Promise<SiteStructureBody<SiteSpaceBody>> {
    const res = await org.owner.client.get(`${sitePath(org, siteId)}/structure`).expect(200);
    expectConforms(res, 'getSiteStructure');
    return res.body as SiteStructureBody<SiteSpaceBody>;
  }

  /** The root site spaces in order, as `path` (`*path` for the default). */
  async function outline(org: TestOrganization, siteId: string): Promise<string[]> {
    const body = await structure(org, siteId);
    expect(body.type).toBe('siteSpaces');
    return body.structure.map((s) => (s.default ? `*${s.path}` : s.path));
  }

  /** A site with three root site spaces: a (default), b, c. */
  async function siteWithThree(org: TestOrganization) {
    const { id: siteId } = await t.factories.later.site(org);
    const a = await t.factories.later.siteSpace(org, siteId, { spaceTitle: 'Alpha' });
    const b = await t.factories.later.siteSpace(org, siteId, { spaceTitle: 'Beta' });
    const c = await t.factories.later.siteSpace(org, siteId, { spaceTitle: 'Gamma' });
    return { siteId, a, b, c };
  }

  describe('addSpaceToSite', () => {
    it('adds spaces at the root of a site without sections; the first is the default', async () => {
      const org = await t.factories.organization();
      const { id: siteId } = await t.factories.later.site(org);
      expect(await structure(org, siteId)).toEqual({ type: 'siteSpaces', structure: [] });

      const { id: spaceId } = await t.factories.space(org, { title: 'Getting Started!' });
      t.clock.advance(1000);
      const res = await org.owner.client.post(siteSpacesPath(org, siteId), { spaceId }).expect(201);
      expectConforms(res, 'addSpaceToSite');
      const first = res.body as SiteSpaceBody;
      expect(first).toMatchObject({
        object: 'site-space',
        path: 'getting-started',
        title: 'Getting Started!',
        default: true,
        urls: {},
      });
      expect(first.section).toBeUndefined();
      expect(first.condition).toBeUndefined();
      expect(first.space).toMatchObject({ id: spaceId, title: 'Getting Started!' });
      expect(first.space.permissions.edit).toBe(true);
      expect(res.headers.location).toBe(
        `${TEST_PUBLIC_URL}/v1/orgs/${org.id}/sites/${siteId}/site-spaces/${first.id}`,
      );

      // The same space again, and another of the same title: unique paths among siblings.
      const again = await t.factories.later.siteSpace(org, siteId, { spaceId });
      const sameTitle = await t.factories.later.siteSpace(org, siteId, {
        spaceTitle: 'Getting started',
      });
      expect([again.path, sameTitle.path]).toEqual(['getting-started-2', 'getting-started-3']);
      expect([again.default, sameTitle.default]).toEqual([false, false]);
      expect(await outline(org, siteId)).toEqual([
        '*getting-started',
        'getting-started-2',
        'getting-started-3',
      ]);
    });

    it('keeps paths unique and one default under concurrent additions', async () => {
      const org = await t.factories.organization();
      const { id: siteId } = await t.factories.later.site(org);
      const spaceIds: string[] = [];
      for (let i = 0; i < 6; i++)
        spaceIds.push((await t.factories.space(org, { title: 'Same title' })).id);
      const responses = await Promise.all(
        spaceIds.map((spaceId) => org.owner.client.post(siteSpacesPath(org, siteId), { spaceId })),
      );
      expect(responses.map((res) => res.status)).toEqual(spaceIds.map(() => 201));
      const body = await structure(org, siteId);
      const paths = body.structure.map((s) => s.path);
      expect(new Set(paths).size).toBe(6);
      expect(paths.every((path) => /^same-title(-[2-6])?$/.test(path))).toBe(true);
      expect(body.structure.filter((s) => s.default)).toHaveLength(1);
      const positions: { position: number }[] = await t.dataSource.query(
        'SELECT position FROM site_spaces WHERE site_id = $1 ORDER BY position',
        [siteId],
      );
      expect(positions.map((row) => row.position)).toEqual([0, 1, 2, 3, 4, 5]);
    });

    it('gives a title without letters a generic path', async () => {
      const org = await t.factories.organization();
      const { id: siteId } = await t.factories.later.site(org);
      const siteSpace = await t.factories.later.siteSpace(org, siteId, { spaceTitle: '🚀' });
      expect(siteSpace.path).toBe('space');
    });

    it('refuses a space that is not a live space of the organization (400)', async () => {
      const org = await t.factories.organization();
      const other = await t.factories.organization();
      const { id: siteId } = await t.factories.later.site(org);
      const { id: foreign } = await t.factories.space(other, { title: 'Foreign' });
      const { id: trashed } = await t.factories.space(org, { title: 'Trashed' });
      await org.owner.client.delete(`/v1/spaces/${trashed}`).expect(204);

      for (const spaceId of ['nope', foreign, trashed]) {
        const res = await org.owner.client
          .post(siteSpacesPath(org, siteId), { spaceId })
          .expect(400);
        expect(res.body).toEqual({
          error: { code: 400, message: `spaceId: no space ${spaceId} in this organization.` },
        });
      }
      await org.owner.client.post(siteSpacesPath(org, siteId), {}).expect(400);
      await org.owner.client
        .post(siteSpacesPath(org, siteId), { spaceId: foreign, extra: true })
        .expect(400);
      const res = await org.owner.client
        .post(siteSpacesPath(org, siteId), {
          spaceId: (await t.factories.space(org, { title: 'Fine' })).id,
          sectionId: 'nope',
        })
        .expect(400);
      expect(res.body.error.message).toBe('sectionId: no section nope in this site.');
      expect(await outline(org, siteId)).toEqual([]);
    });

    it('answers 404 for an unknown site or a site of another organization', async () => {
      const org = await t.factories.organization();
      const other = await t.factories.organization();
      const { id: theirSite } = await t.factories.later.site(other);
      const { id: spaceId } = await t.factories.space(org, { title: 'Mine' });
      await org.owner.client.post(siteSpacesPath(org, 'nope'), { spaceId }).expect(404);
      // Their site under my organization, and under theirs (where I am not a member).
      const res = await org.owner.client
        .post(siteSpacesPath(org, theirSite), { spaceId })
        .expect(404);
      expect(res.body).toEqual({ error: { code: 404, message: 'Site not found.' } });
      await org.owner.client.post(siteSpacesPath(other, theirSite), { spaceId }).expect(404);
      await org.owner.client.get(siteSpacesPath(other, theirSite)).expect(404);
      await org.owner.client.get(`${sitePath(org, theirSite)}/structure`).expect(404);
    });
  });

  describe('listSiteSpaces', () => {
    it('lists in the structure order that moves set, filters on default, and pages', async () => {
      const org = await t.factories.organization();
      const { siteId, a, b, c } = await siteWithThree(org);
      // The list follows the move (the default stays the one the site names).
      await org.owner.client
        .post(`${siteSpacesPath(org, siteId)}/${c.id}/move`, {
          position: { before: { type: 'site-space', siteSpace: a.id } },
        })
        .expect(200);

      const all = await org.owner.client.get(siteSpacesPath(org, siteId)).expect(200);
      expectConforms(all, 'listSiteSpaces');
      const body = all.body as PageOf<SiteSpaceBody>;
      expect(body.items.map((s) => s.id)).toEqual([c.id, a.id, b.id]);
      expect(body.count).toBe(3);
      expect(body.next).toBeUndefined();

      const defaults = await org.owner.client
        .get(`${siteSpacesPath(org, siteId)}?default=true&shareKey=whatever`)
        .expect(200);
      expectConforms(defaults, 'listSiteSpaces');
      expect(defaults.body).toMatchObject({ count: 1, items: [{ id: a.id, default: true }] });

      const others = await org.owner.client
        .get(`${siteSpacesPath(org, siteId)}?default=false`)
        .expect(200);
      expect((others.body as PageOf<SiteSpaceBody>).items.map((s) => s.id)).toEqual([c.id, b.id]);

      const first = await org.owner.client
        .get(`${siteSpacesPath(org, siteId)}?limit=2`)
        .expect(200);
      const firstPage = first.body as PageOf<SiteSpaceBody>;
      expect(firstPage.items.map((s) => s.id)).toEqual([c.id, a.id]);
      expect(firstPage.count).toBe(3);
      const second = await org.owner.client
        .get(`${siteSpacesPath(org, siteId)}?limit=2&page=${firstPage.next?.page}`)
        .expect(200);
      expectConforms(second, 'listSiteSpaces');
      expect(second.body).toMatchObject({ count: 3, items: [{ id: b.id }] });
      expect((second.body as PageOf<SiteSpaceBody>).next).toBeUndefined();

      await org.owner.client.get(`${siteSpacesPath(org, siteId)}?default=maybe`).expect(400);
      await org.owner.client.get(`${siteSpacesPath(org, siteId)}?page=garbage`).expect(400);
      await org.owner.client.get(`${siteSpacesPath(org, siteId)}?limit=0`).expect(400);
    });
  });

  describe('updateSiteSpaceById', () => {
    it('changes the path, unique among its siblings (409 on a clash)', async () => {
      const org = await t.factories.organization();
      const { siteId, a, b } = await siteWithThree(org);
      const res = await org.owner.client
        .patch(`${siteSpacesPath(org, siteId)}/${b.id}`, { path: 'v2' })
        .expect(200);
      expectConforms(res, 'updateSiteSpaceById');
      expect(res.body).toMatchObject({ id: b.id, path: 'v2', default: false });

      const clash = await org.owner.client
        .patch(`${siteSpacesPath(org, siteId)}/${a.id}`, { path: 'v2' })
        .expect(409);
      expect(clash.body).toEqual({
        error: {
          code: 409,
          message: 'path: "v2" is already the path of another site space at the root of this site.',
        },
      });
      // Its own path again is no clash.
      await org.owner.client
        .patch(`${siteSpacesPath(org, siteId)}/${b.id}`, { path: 'v2' })
        .expect(200);
      expect(await outline(org, siteId)).toEqual(['*alpha', 'v2', 'gamma']);
    });

    it('refuses a path of 0 or 101 characters, or null (400)', async () => {
      const org = await t.factories.organization();
      const { siteId, a } = await siteWithThree(org);
      const url = `${siteSpacesPath(org, siteId)}/${a.id}`;
      const long = await org.owner.client.patch(url, { path: 'p'.repeat(101) }).expect(400);
      expect(long.body.error.message).toBe('path must be shorter than or equal to 100 characters');
      await org.owner.client.patch(url, { path: 'p'.repeat(100) }).expect(200);
      await org.owner.client.patch(url, { path: '' }).expect(400);
      await org.owner.client.patch(url, { path: null }).expect(400);
      await org.owner.client.patch(url, { path: 42 }).expect(400);
    });

    it('sets, keeps and removes the condition', async () => {
      const org = await t.factories.organization();
      const { siteId, a } = await siteWithThree(org);
      const url = `${siteSpacesPath(org, siteId)}/${a.id}`;
      const condition = 'visitor.claims.isBeta === true && visitor.claims.unsigned.plan !== "free"';
      const set = await org.owner.client.patch(url, { condition }).expect(200);
      expectConforms(set, 'updateSiteSpaceById');
      expect(set.body.condition).toBe(condition);

      // Absent: unchanged.
      const kept = await org.owner.client.patch(url, { path: 'alpha-1' }).expect(200);
      expect(kept.body).toMatchObject({ path: 'alpha-1', condition });
      const afterEmpty = await org.owner.client.patch(url, {}).expect(200);
      expect(afterEmpty.body.condition).toBe(condition);

      const removed = await org.owner.client.patch(url, { condition: null }).expect(200);
      expectConforms(removed, 'updateSiteSpaceById');
      expect(removed.body.condition).toBeUndefined();
      expect((await structure(org, siteId)).structure[0].condition).toBeUndefined();
    });

    it('refuses a condition of 1025 characters or with a syntax error (400)', async () => {
      const org = await t.factories.organization();
      const { siteId, a } = await siteWithThree(org);
      const url = `${siteSpacesPath(org, siteId)}/${a.id}`;
      const base = 'visitor.claims.plan === ';
      const fits = `${base}"${'x'.repeat(1024 - base.length - 2)}"`;
      expect(fits).toHaveLength(1024);
      await org.owner.client.patch(url, { condition: fits }).expect(200);

      const tooLong = `${base}"${'x'.repeat(1025 - base.length - 2)}"`;
      const long = await org.owner.client.patch(url, { condition: tooLong }).expect(400);
      expect(long.body.error.message).toBe(
        'condition must be shorter than or equal to 1024 characters',
      );

      const syntax = await org.owner.client
        .patch(url, { condition: 'visitor.claims.isBeta ===' })
        .expect(400);
      expect(syntax.body.error.message).toMatch(
        /^condition: The condition is not a valid expression/,
      );
      const unknownRoot = await org.owner.client
        .patch(url, { condition: 'process.exit(1)' })
        .expect(400);
      expect(unknownRoot.body.error.message).toMatch(/^condition: /);
      await org.owner.client.patch(url, { condition: '' }).expect(400);
      await org.owner.client.patch(url, { condition: 12 }).expect(400);
      // Nothing of the refused writes stuck.
      expect((await structure(org, siteId)).structure[0].condition).toBe(fits);
    });

    it('points the site space at another space of the organization', async () => {
      const org = await t.factories.organization();
      const other = await t.factories.organization();
      const { siteId, a } = await siteWithThree(org);
      const url = `${siteSpacesPath(org, siteId)}/${a.id}`;
      const { id: spaceId } = await t.factories.space(org, { title: 'Replacement' });
      const res = await org.owner.client.patch(url, { spaceId }).expect(200);
      expectConforms(res, 'updateSiteSpaceById');
      expect(res.body).toMatchObject({
        id: a.id,
        path: 'alpha',
        title: 'Replacement',
        default: true,
        space: { id: spaceId },
      });
      const { id: foreign } = await t.factories.space(other, { title: 'Foreign' });
      const bad = await org.owner.client.patch(url, { spaceId: foreign }).expect(400);
      expect(bad.body.error.message).toBe(`spaceId: no space ${foreign} in this organization.`);
      await org.owner.client.patch(url, { spaceId: null }).expect(400);
    });

    it('answers 404 for an unknown site space or one of another site', async () => {
      const org = await t.factories.organization();
      const { siteId } = await siteWithThree(org);
      const { a: elsewhere } = await siteWithThree(org);
      const res = await org.owner.client
        .patch(`${siteSpacesPath(org, siteId)}/nope`, { path: 'x' })
        .expect(404);
      expect(res.body).toEqual({ error: { code: 404, message: 'Site space not found.' } });
      await org.owner.client
        .patch(`${siteSpacesPath(org, siteId)}/${elsewhere.id}`, { path: 'x' })
        .expect(404);
    });
  });

  describe('deleteSiteSpaceById', () => {
    it('deletes; deleting the default makes the next one the default', async () => {
      const org = await t.factories.organization();
      const { siteId, a, b, c } = await siteWithThree(org);
      await org.owner.client.delete(`${siteSpacesPath(org, siteId)}/${b.id}`).expect(204);
      expect(await outline(org, siteId)).toEqual(['*alpha', 'gamma']);

      await org.owner.client.delete(`${siteSpacesPath(org, siteId)}/${a.id}`).expect(204);
      expect(await outline(org, siteId)).toEqual(['*gamma']);
      const defaults = await org.owner.client
        .get(`${siteSpacesPath(org, siteId)}?default=true`)
        .expect(200);
      expect(defaults.body).toMatchObject({ count: 1, items: [{ id: c.id }] });

      // Gone already, or never there: 204 all the same.
      await org.owner.client.delete(`${siteSpacesPath(org, siteId)}/${a.id}`).expect(204);
      await org.owner.client.delete(`${siteSpacesPath(org, siteId)}/nope`).expect(204);

      await org.owner.client.delete(`${siteSpacesPath(org, siteId)}/${c.id}`).expect(204);
      expect(await outline(org, siteId)).toEqual([]);
      // The next one added is the default again.
      const next = await t.factories.later.siteSpace(org, siteId, { spaceTitle: 'Delta' });
      expect(next.default).toBe(true);
    });

    it('answers 404 for a site of another organization', async () => {
      const org = await t.factories.organization();
      const other = await t.factories.organization();
      const { siteId, a } = await siteWithThree(other);
      await org.owner.client.delete(`${siteSpacesPath(org, siteId)}/${a.id}`).expect(404);
      await org.owner.client.delete(`${siteSpacesPath(other, siteId)}/${a.id}`).expect(404);
      expect(await outline(other, siteId)).toEqual(['*alpha', 'beta', 'gamma']);
    });
  });

  describe('moveSiteSpace (deprecated)', () => {
    it('moves before or after a sibling, or to the end', async () => {
      const org = await t.factories.organization();
      const { siteId, a, b, c } = await siteWithThree(org);
      const move = (id: string, body: object) =>
        org.owner.client.post(`${siteSpacesPath(org, siteId)}/${id}/move`, body);

      const res = await move(c.id, {
        position: { before: { type: 'site-space', siteSpace: a.id } },
      }).expect(200);
      expectConforms(res, 'moveSiteSpace');
      expect(res.body).toMatchObject({ id: c.id, path: 'gamma', default: false });
      expect(await outline(org, siteId)).toEqual(['gamma', '*alpha', 'beta']);

      await move(c.id, { position: { after: { type: 'site-space', siteSpace: b.id } } }).expect(
        200,
      );
      expect(await outline(org, siteId)).toEqual(['*alpha', 'beta', 'gamma']);

      await move(a.id, {
        position: {
          after: { type: 'site-space', siteSpace: b.id },
          before: { type: 'site-space', siteSpace: c.id },
        },
      }).expect(200);
      expect(await outline(org, siteId)).toEqual(['beta', '*alpha', 'gamma']);

      await move(b.id, {}).expect(200);
      expect(await outline(org, siteId)).toEqual(['*alpha', 'gamma', 'beta']);
    });

    it('refuses invalid positions (400) and unknown targets (404)', async () => {
      const org = await t.factories.organization();
      const { siteId, a, b, c } = await siteWithThree(org);
      const { a: elsewhere } = await siteWithThree(org);
      const move = (id: string, body: object) =>
        org.owner.client.post(`${siteSpacesPath(org, siteId)}/${id}/move`, body);

      const notAdjacent = await move(b.id, {
        position: {
          after: { type: 'site-space', siteSpace: c.id },
          before: { type: 'site-space', siteSpace: a.id },
        },
      }).expect(400);
      expect(notAdjacent.body.error.message).toBe(
        'position: before and after are not next to each other.',
      );
      const itself = await move(b.id, {
        position: { before: { type: 'site-space', siteSpace: b.id } },
      }).expect(400);
      expect(itself.body.error.message).toMatch(/^position\.before: site-space/);
      await move(b.id, { position: { before: { type: 'site-section', siteSpace: a.id } } }).expect(
        400,
      );
      await move(b.id, { position: { before: { type: 'site-space' } } }).expect(400);
      await move(b.id, { position: 'first' }).expect(400);

      const unknown = await move(b.id, {
        position: { after: { type: 'site-space', siteSpace: 'nope' } },
      }).expect(404);
      expect(unknown.body).toEqual({ error: { code: 404, message: 'Site space not found.' } });
      // A site space of another site is unknown here.
      await move(b.id, {
        position: { after: { type: 'site-space', siteSpace: elsewhere.id } },
      }).expect(404);
      await move('nope', {}).expect(404);
      expect(await outline(org, siteId)).toEqual(['*alpha', 'beta', 'gamma']);
    });
  });

  describe('published URLs', () => {
    it('are given while the site is published: the default at the site URL', async () => {
      const org = await t.factories.organization();
      const { siteId, a, b } = await siteWithThree(org);
      expect((await structure(org, siteId)).structure.map((s) => s.urls)).toEqual([{}, {}, {}]);

      await publish(org, siteId, 'docs.example.test');
      const body = await structure(org, siteId);
      expect(body.structure.map((s) => s.urls.published)).toEqual([
        'https://docs.example.test',
        'https://docs.example.test/beta',
        'https://docs.example.test/gamma',
      ]);
      const res = await org.owner.client
        .patch(`${siteSpacesPath(org, siteId)}/${b.id}`, { path: 'v2' })
        .expect(200);
      expectConforms(res, 'updateSiteSpaceById');
      expect(res.body.urls).toEqual({ published: 'https://docs.example.test/v2' });
      const list = await org.owner.client.get(siteSpacesPath(org, siteId)).expect(200);
      expectConforms(list, 'listSiteSpaces');
      expect((list.body as PageOf<SiteSpaceBody>).items[0]).toMatchObject({
        id: a.id,
        urls: { published: 'https://docs.example.test' },
      });
    });
  });

  describe("with the site's own operations", () => {
    it('creates a site with its spaces as root site spaces, the first the default', async () => {
      const org = await t.factories.organization();
      const { id: one } = await t.factories.space(org, { title: 'One' });
      const { id: two } = await t.factories.space(org, { title: 'Two' });
      const res = await org.owner.client
        .post(`/v1/orgs/${org.id}/sites`, { title: 'With spaces', spaces: [one, two] })
        .expect(201);
      const siteId = (res.body as { id: string }).id;
      expect(res.body.siteSpaces).toBe(2);
      expect(await outline(org, siteId)).toEqual(['*one', 'two']);

      await t.factories.later.siteSpace(org, siteId, { spaceTitle: 'Three' });
      expect((await org.owner.client.get(sitePath(org, siteId)).expect(200)).body.siteSpaces).toBe(
        3,
      );

      const { id: foreign } = await t.factories.space(await t.factories.organization(), {
        title: 'Foreign',
      });
      const bad = await org.owner.client
        .post(`/v1/orgs/${org.id}/sites`, { title: 'Bad', spaces: [one, foreign] })
        .expect(400);
      expect(bad.body.error.message).toBe(`spaces: no space ${foreign} in this organization.`);
    });

    it("sets the default site space through the site's defaultSiteSpace (400 when unknown)", async () => {
      const org = await t.factories.organization();
      const { siteId, c } = await siteWithThree(org);
      await org.owner.client.patch(sitePath(org, siteId), { defaultSiteSpace: c.id }).expect(200);
      expect(await outline(org, siteId)).toEqual(['alpha', 'beta', '*gamma']);
      await org.owner.client.patch(sitePath(org, siteId), { defaultSiteSpace: 'nope' }).expect(400);
      expect(await outline(org, siteId)).toEqual(['alpha', 'beta', '*gamma']);
    });

    it("titles a variant after its customization's title", async () => {
      const org = await t.factories.organization();
      const { siteId, b } = await siteWithThree(org);
      await org.owner.client
        .patch(`${siteSpacesPath(org, siteId)}/${b.id}/customization`, { title: 'Beta docs' })
        .expect(200);
      const body = await structure(org, siteId);
      expect(body.structure.map((s) => s.title)).toEqual(['Alpha', 'Beta docs', 'Gamma']);
    });

    it('goes with its site', async () => {
      const org = await t.factories.organization();
      const { siteId } = await siteWithThree(org);
      await org.owner.client.delete(sitePath(org, siteId)).expect(204);
      await org.owner.client.get(`${sitePath(org, siteId)}/structure`).expect(404);
      await org.owner.client.get(siteSpacesPath(org, siteId)).expect(404);
      expect(
        await t.dataSource.query(`SELECT id FROM site_spaces WHERE site_id = $1`, [siteId]),
      ).toEqual([]);
    });

    it('keeps a trashed space and drops a purged one, promoting the next default', async () => {
      const org = await t.factories.organization();
      const { id: siteId } = await t.factories.later.site(org);
      const { id: doomed } = await t.factories.space(org, { title: 'Doomed' });
      await t.factories.later.siteSpace(org, siteId, { spaceId: doomed });
      const kept = await t.factories.later.siteSpace(org, siteId, { spaceTitle: 'Kept' });
      await org.owner.client.delete(`/v1/spaces/${doomed}`).expect(204);
      // In the trash: still published by the site, and shown as deleted.
      const trashed = await structure(org, siteId);
      expect(trashed.structure.map((s) => s.path)).toEqual(['doomed', 'kept']);
      expect((trashed.structure[0].space as { deletedAt?: string }).deletedAt).toBeDefined();

      t.clock.advance(8 * 24 * 60 * 60 * 1000);
      expect(await t.bindery.app.get(SpaceLifecycle).purge()).toBeGreaterThan(0);
      expect(await outline(org, siteId)).toEqual(['*kept']);
      const defaults = await org.owner.client
        .get(`${siteSpacesPath(org, siteId)}?default=true`)
        .expect(200);
      expect(defaults.body).toMatchObject({ count: 1, items: [{ id: kept.id }] });
    });
  });

  describe('access', () => {
    it('lets a read member read and refuses it every change (403)', async () => {
      const org = await t.factories.organization();
      const { siteId, a, b } = await siteWithThree(org);
      const reader = await t.factories.asMember(org, 'read');
      const { id: spaceId } = await t.factories.space(org, { title: 'New' });

      const list = await reader.get(siteSpacesPath(org, siteId)).expect(200);
      expectConforms(list, 'listSiteSpaces');
      // The space is presented with the reader's own permissions on it.
      expect((list.body as PageOf<SiteSpaceBody>).items[0].space.permissions.edit).toBe(false);
      await reader.get(`${sitePath(org, siteId)}/structure`).expect(200);

      const url = `${siteSpacesPath(org, siteId)}/${b.id}`;
      const refused = await reader.post(siteSpacesPath(org, siteId), { spaceId }).expect(403);
      expect(refused.body.error.code).toBe(403);
      await reader.patch(url, { path: 'x' }).expect(403);
      await reader.delete(url).expect(403);
      await reader
        .post(`${url}/move`, { position: { before: { type: 'site-space', siteSpace: a.id } } })
        .expect(403);
      await reader
        .patch(`${sitePath(org, siteId)}/structure/sort`, {
          item: { type: 'site-space', id: b.id },
          position: {},
        })
        .expect(403);

      // An editor may not either; a member with the create role may.
      const editor = await t.factories.asMember(org, 'edit');
      await editor.patch(url, { path: 'x' }).expect(403);
      const creator = await t.factories.asMember(org, 'create');
      await creator.patch(url, { path: 'x' }).expect(200);
      await t.factories.later.siteSpace(org, siteId, { spaceId, by: creator });
      expect(await outline(org, siteId)).toEqual(['*alpha', 'x', 'gamma', 'new']);
    });

    it('answers 404 to non-members and 401 without a token', async () => {
      const org = await t.factories.organization();
      const { siteId, b } = await siteWithThree(org);
      const stranger = await t.factories.user();
      await stranger.client.get(siteSpacesPath(org, siteId)).expect(404);
      await stranger.client
        .patch(`${siteSpacesPath(org, siteId)}/${b.id}`, { path: 'x' })
        .expect(404);
      await t.anonymous.get(siteSpacesPath(org, siteId)).expect(401);
    });
  });
});
