import { createTestApp, TEST_PUBLIC_URL, TestApp } from './helpers/app';
import type { TranslationBody } from './helpers/bodies';
import { expectConforms } from './helpers/conformance';
import type { TestOrganization } from './helpers/factories';

/**
 * Translations without a provider: create, list, get, update, delete, and run (409 until a
 * provider is configured); input rules, 404s, other organizations, roles, and conformance with
 * GitBook's schema. Runs with providers: translations-run.e2e-spec.ts.
 */

const paragraph = (text: string) => ({
  object: 'document',
  data: {},
  nodes: [
    {
      object: 'block',
      type: 'paragraph',
      nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }],
    },
  ],
});

describe('Translations', () => {
  let t: TestApp;
  let org: TestOrganization;
  let other: TestOrganization;
  let space: string;

  const path = (id = '') => `/v1/orgs/${org.id}/translations${id ? `/${id}` : ''}`;

  beforeAll(async () => {
    t = await createTestApp();
    org = await t.factories.organization();
    other = await t.factories.organization();
    space = (await t.factories.space(org, { title: 'Space' })).id;
  });
  afterAll(() => t.close());

  describe('createTranslation', () => {
    it('creates a pending translation with empty instructions and zero stats', async () => {
      const created = await t.factories.later.translation(org, { space });
      expect(created).toMatchObject({
        object: 'translation',
        status: 'pending',
        source: { space, language: 'en' },
        language: 'fr',
        instructions: { object: 'document', data: {}, nodes: [] },
        stats: {
          runs: 0,
          totalWords: 0,
          totalPages: 0,
          totalDuration: 0,
          latestRunDuration: 0,
          latestPages: 0,
          latestWords: 0,
        },
        permissions: { view: true, edit: true },
        urls: { location: `${TEST_PUBLIC_URL}/v1/orgs/${org.id}/translations/${created.id}` },
      });
      expect(created).not.toHaveProperty('result');
      const read = await org.owner.client.get(path(created.id)).expect(200);
      expect(read.body).toEqual(created);
    });

    it('keeps the instructions given', async () => {
      const created = await t.factories.later.translation(org, {
        space,
        language: 'de',
        instructions: paragraph('Be formal.'),
      });
      expect(created.instructions).toEqual(paragraph('Be formal.'));
    });

    it.each([
      ['an unknown language', { language: 'xx' }, 'language'],
      ['an unknown source language', { source: { language: 'klingon' } }, 'source.language'],
      ['a source without space', { source: { language: 'en', space: '' } }, 'source.space'],
      ['no source', { source: undefined }, 'source'],
      ['the source language', { language: 'en' }, 'language'],
      ['bad instructions', { instructions: { object: 'nope' } }, 'instructions'],
      ['an unknown field', { extra: true }, 'extra'],
    ])('400 for %s', async (_, override, field) => {
      const body: Record<string, unknown> = {
        source: { space, language: 'en' },
        language: 'fr',
        ...override,
      };
      if ('source' in override && override.source && typeof override.source === 'object') {
        body.source = { space, ...(override.source as object) };
      }
      const res = await org.owner.client.post(path(), body).expect(400);
      expect(res.body).toEqual({ error: { code: 400, message: expect.any(String) } });
      expect(res.body.error.message).toContain(field);
    });

    it('400 for a source space of another organization, or an unknown or deleted one', async () => {
      const { id: foreign } = await t.factories.space(other, { title: 'Space' });
      const { id: deleted } = await t.factories.space(org, { title: 'Space' });
      await org.owner.client.delete(`/v1/spaces/${deleted}`).expect(204);
      for (const source of [foreign, 'nosuchspace', deleted]) {
        const res = await org.owner.client
          .post(path(), { source: { space: source, language: 'en' }, language: 'fr' })
          .expect(400);
        expect(res.body.error.message).toContain('source.space');
      }
      const list = await org.owner.client.get(`${path()}?limit=1000`).expect(200);
      expect((list.body.items as TranslationBody[]).map((i) => i.source.space)).not.toContain(
        foreign,
      );
    });

    it('403 for a member below create; 404 for another organization', async () => {
      const body = { source: { space, language: 'en' }, language: 'fr' };
      for (const role of ['read', 'comment', 'edit', 'review'] as const) {
        const client = await t.factories.asMember(org, role);
        const res = await client.post(path(), body).expect(403);
        expect(res.body.error.code).toBe(403);
      }
      await other.owner.client.post(path(), body).expect(404);
    });
  });

  describe('listTranslations', () => {
    it('lists oldest first, in pages, for any member; 404 for another organization', async () => {
      const fresh = await t.factories.organization();
      const { id: freshSpace } = await t.factories.space(fresh, { title: 'Space' });
      const ids: string[] = [];
      for (const language of ['fr', 'de', 'es']) {
        t.clock.advance(1000);
        const res = await fresh.owner.client
          .post(`/v1/orgs/${fresh.id}/translations`, {
            source: { space: freshSpace, language: 'en' },
            language,
          })
          .expect(201);
        ids.push(res.body.id as string);
      }
      const reader = await t.factories.asMember(fresh, 'read');
      const first = await reader.get(`/v1/orgs/${fresh.id}/translations?limit=2`).expect(200);
      expectConforms(first, 'listTranslations');
      expect(first.body.count).toBe(3);
      expect((first.body.items as TranslationBody[]).map((i) => i.id)).toEqual(ids.slice(0, 2));
      expect(first.body.items[0].permissions).toEqual({ view: true, edit: false });
      const second = await reader
        .get(`/v1/orgs/${fresh.id}/translations?limit=2&page=${first.body.next.page}`)
        .expect(200);
      expectConforms(second, 'listTranslations');
      expect((second.body.items as TranslationBody[]).map((i) => i.id)).toEqual([ids[2]]);
      expect(second.body).not.toHaveProperty('next');

      await other.owner.client.get(`/v1/orgs/${fresh.id}/translations`).expect(404);
      const res = await reader.get(`/v1/orgs/${fresh.id}/translations?limit=0`).expect(400);
      expect(res.body.error.code).toBe(400);
    });
  });

  describe('getTranslation', () => {
    it('404 for an unknown id and for another organization', async () => {
      const created = await t.factories.later.translation(org, { space });
      const res = await org.owner.client.get(path('nosuchtranslation')).expect(404);
      expect(res.body).toEqual({ error: { code: 404, message: expect.any(String) } });
      await other.owner.client.get(path(created.id)).expect(404);
      await other.owner.client.get(`/v1/orgs/${other.id}/translations/${created.id}`).expect(404);
      const reader = await t.factories.asMember(org, 'read');
      const read = await reader.get(path(created.id)).expect(200);
      expectConforms(read, 'getTranslation');
    });
  });

  describe('updateTranslation', () => {
    it('replaces the instructions and moves updatedAt', async () => {
      const created = await t.factories.later.translation(org, { space });
      t.clock.advance(5000);
      const res = await org.owner.client
        .put(path(created.id), { instructions: paragraph('Keep "Bindery" untranslated.') })
        .expect(200);
      expectConforms(res, 'updateTranslation');
      expect(res.body.instructions).toEqual(paragraph('Keep "Bindery" untranslated.'));
      expect(Date.parse(res.body.updatedAt)).toBe(Date.parse(created.updatedAt) + 5000);
      const read = await org.owner.client.get(path(created.id)).expect(200);
      expect(read.body.instructions).toEqual(paragraph('Keep "Bindery" untranslated.'));
    });

    it('400 without instructions or with bad ones; 404 unknown; 403 read; 404 other org', async () => {
      const created = await t.factories.later.translation(org, { space });
      for (const body of [{}, { instructions: 'text' }, { instructions: { object: 'document' } }]) {
        const res = await org.owner.client.put(path(created.id), body).expect(400);
        expect(res.body.error.message).toContain('instructions');
      }
      const instructions = paragraph('x');
      await org.owner.client.put(path('nosuchtranslation'), { instructions }).expect(404);
      const reader = await t.factories.asMember(org, 'read');
      await reader.put(path(created.id), { instructions }).expect(403);
      await other.owner.client.put(path(created.id), { instructions }).expect(404);
      const read = await org.owner.client.get(path(created.id)).expect(200);
      expect(read.body.instructions).toEqual(created.instructions);
    });
  });

  describe('deleteTranslation', () => {
    it('deletes; 204 again when gone; 403 read; 404 other org', async () => {
      const created = await t.factories.later.translation(org, { space });
      const reader = await t.factories.asMember(org, 'read');
      await reader.delete(path(created.id)).expect(403);
      await other.owner.client.delete(path(created.id)).expect(404);
      const res = await org.owner.client.delete(path(created.id)).expect(204);
      expectConforms(res, 'deleteTranslation');
      await org.owner.client.get(path(created.id)).expect(404);
      await org.owner.client.delete(path(created.id)).expect(204);
    });
  });

  describe('runTranslation without a provider', () => {
    it('409 saying how to configure one, and nothing changes', async () => {
      const created = await t.factories.later.translation(org, { space });
      const res = await org.owner.client.post(`${path(created.id)}/run`).expect(409);
      expect(res.body.error.code).toBe(409);
      expect(res.body.error.message).toContain('TRANSLATION_PROVIDER');
      const read = await org.owner.client.get(path(created.id)).expect(200);
      expect(read.body).toEqual(created);
      const spaces = await org.owner.client.get(`/v1/orgs/${org.id}/spaces?limit=1000`).expect(200);
      expect((spaces.body.items as { language?: string }[]).some((s) => s.language === 'fr')).toBe(
        false,
      );
    });

    it('404 for an unknown id and another organization, 403 for read', async () => {
      const created = await t.factories.later.translation(org, { space });
      const reader = await t.factories.asMember(org, 'read');
      await reader.post(`${path(created.id)}/run`).expect(403);
      const unknown = await org.owner.client.post(`${path('nosuchtranslation')}/run`).expect(404);
      expect(unknown.body.error.code).toBe(404);
      await other.owner.client.post(`${path(created.id)}/run`).expect(404);
    });
  });

  it('a collection source is accepted (the result will sit in that collection)', async () => {
    const { id: collection } = await t.factories.collection(org, { title: 'Collection' });
    const { id: inCollection } = await t.factories.space(org, {
      title: 'Space',
      parent: collection,
    });
    const res = await org.owner.client
      .post(path(), { source: { space: inCollection, language: 'fr' }, language: 'en' })
      .expect(201);
    expect(res.body.source).toEqual({ space: inCollection, language: 'fr' });
  });
});

describe('Translations with TRANSLATION_PROVIDER=ai but no AI endpoint', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ TRANSLATION_PROVIDER: 'ai' });
  });
  afterAll(() => t.close());

  it('run answers 409 naming the missing settings; no result space is made', async () => {
    const org = await t.factories.organization();
    const { id: space } = await t.factories.space(org, { title: 'Space' });
    const created = await org.owner.client
      .post(`/v1/orgs/${org.id}/translations`, {
        source: { space, language: 'en' },
        language: 'fr',
      })
      .expect(201);
    const res = await org.owner.client
      .post(`/v1/orgs/${org.id}/translations/${created.body.id}/run`)
      .expect(409);
    expect(res.body.error.message).toMatch(/AI_API_URL.*AI_MODEL/);
    const read = await org.owner.client
      .get(`/v1/orgs/${org.id}/translations/${created.body.id}`)
      .expect(200);
    expect(read.body).toEqual(created.body);
    const spaces = await org.owner.client.get(`/v1/orgs/${org.id}/spaces`).expect(200);
    expect(spaces.body.items).toHaveLength(1);
  });
});
