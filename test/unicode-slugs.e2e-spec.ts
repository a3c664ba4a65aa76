import { createTestApp, TestApp } from './helpers/app';
import { expectConforms } from './helpers/conformance';
import { insertPage } from './helpers/content';

/**
 * Pages titled in any script get slugs of their own letters (as GitBook's), and a path of them
 * reads back: as text, percent-encoded as browsers send it, and with its letters decomposed.
 */
describe('Unicode slugs (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('slugs a Cyrillic, a Chinese and a German title, and reads each page by its path', async () => {
    const org = await t.factories.organization();
    const space = await t.factories.space(org, { title: 'Руководство' });
    await t.factories.changeRequest(org, space.id, {
      changes: [
        insertPage('Введение', '# Введение\n\nПривет.'),
        insertPage('Установка', '# Установка\n\nШаги.'),
        insertPage('快速开始', '# 快速开始\n\n你好。'),
        insertPage('Größe ändern', '# Größe ändern\n\nHallo.'),
      ],
      merge: true,
    });
    const client = org.owner.client;
    const pages = await client.get(`/v1/spaces/${space.id}/content`).expect(200);
    const slugs = (pages.body.pages as { title: string; slug: string }[]).map((p) => [
      p.title,
      p.slug,
    ]);
    expect(slugs).toEqual(
      expect.arrayContaining([
        ['Установка', 'установка'],
        ['快速开始', '快速开始'],
        ['Größe ändern', 'größe-ändern'],
      ]),
    );

    const byPath = async (path: string) => {
      const res = await client.get(`/v1/spaces/${space.id}/content/path/${path}`);
      expect(res.status).toBe(200);
      expectConforms(res, 'getPageByPath');
      return res.body as { title: string; slug: string };
    };
    // As a browser sends it: /%D1%83%D1%81%D1%82… .
    expect(await byPath(encodeURIComponent('установка'))).toMatchObject({ title: 'Установка' });
    expect(await byPath(encodeURIComponent('快速开始'))).toMatchObject({ title: '快速开始' });
    expect(await byPath(encodeURIComponent('größe-ändern'))).toMatchObject({
      title: 'Größe ändern',
    });
    // Decomposed (a + U+0308), as macOS keeps names: the same page.
    expect(await byPath(encodeURIComponent('gro\u0308ße-a\u0308ndern'))).toMatchObject({
      title: 'Größe ändern',
    });
    const missing = await client.get(
      `/v1/spaces/${space.id}/content/path/${encodeURIComponent('page')}`,
    );
    expect(missing.status).toBe(404);
  });

  it('accepts a Unicode slug a client gives', async () => {
    const org = await t.factories.organization();
    const space = await t.factories.space(org, { title: 'Docs' });
    const ok = await t.factories.changeRequest(org, space.id, {
      changes: [{ ...insertPage('Install', '# Install'), slug: 'установка-сервера' }],
      merge: true,
    });
    expect(ok.id).toBeDefined();
    const client = org.owner.client;
    const page = await client
      .get(`/v1/spaces/${space.id}/content/path/${encodeURIComponent('установка-сервера')}`)
      .expect(200);
    expect(page.body.title).toBe('Install');
  });
});
