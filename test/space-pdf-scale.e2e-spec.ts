import type { Response } from 'superagent';
import { ContentEngine } from '../src/content-engine/content-engine';
import { markdownToDocument } from '../src/content-engine/documents/markdown';
import type { PageChange } from '../src/content-engine/tree/commit';
import { createTestApp, TEST_PUBLIC_URL, TestApp } from './helpers/app';
import { commitOnSpace } from './helpers/content';

/**
 * The PDF of a 500-page space, printed once as the space (getSpacePDF) and once as a change
 * request on it (getChangeRequestPDF, same content): both print every page. The time each
 * download takes is logged for the record (bench/README.md), not asserted.
 */
const PAGES = 500;

const PAGE_MARKDOWN = [
  '## Overview',
  'This page describes one part of the system in **some** detail, with *emphasis*, `code` and a ' +
    'link to [the documentation](https://example.com/docs). '.repeat(3),
  '日本語の説明もあります。中文说明也在这里。한국어 설명도 있습니다.',
  '- First point\n- Second point\n- Third point',
  '```ts\nconst answer = compute(42);\nconsole.log(answer);\n```',
  'Closing paragraph with Привет and a last sentence.',
].join('\n\n');

function bytes(res: Response, done: (error: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => done(null, Buffer.concat(chunks)));
}

describe('PDF of a 500-page space', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('prints every page, as the space and as a change request', async () => {
    const engine = t.bindery.app.get(ContentEngine);
    const org = await t.factories.organization();
    const { id: spaceId } = await t.factories.space(org, { title: 'Big', empty: true });
    const document = await engine.put(
      t.dataSource.manager,
      'document',
      await markdownToDocument(PAGE_MARKDOWN),
    );
    const changes: PageChange[] = Array.from({ length: PAGES }, (_, i) => ({
      operation: 'insert_page',
      id: `pg${i}`,
      meta: { title: `Page ${i + 1}` },
      document,
    }));
    await commitOnSpace(t, spaceId, changes);
    const changeRequest = await t.factories.changeRequest(org, spaceId, { subject: 'Big' });
    const client = org.owner.client;

    const timed = async (path: string) => {
      const started = performance.now();
      const { url } = (await client.get(path).expect(200)).body as { url: string };
      const res = await t.anonymous
        .get(url.slice(TEST_PUBLIC_URL.length))
        .buffer(true)
        .parse(bytes)
        .expect(200);
      const body = res.body as Buffer;
      return { ms: Math.round(performance.now() - started), body };
    };
    // The first PDF of the process also loads the fonts: each is printed twice, in turn.
    const spacePath = `/v1/spaces/${spaceId}/pdf`;
    const crPath = `/v1/spaces/${spaceId}/change-requests/${changeRequest.id}/pdf`;
    const first = await timed(spacePath);
    const firstCr = await timed(crPath);
    const space = await timed(spacePath);
    const cr = await timed(crPath);

    for (const { body } of [first, firstCr, space, cr]) {
      const sheets = body.toString('latin1').match(/\/Type \/Page\n/g)?.length ?? 0;
      expect(sheets).toBeGreaterThanOrEqual(PAGES);
      expect(body.toString('latin1')).toContain(`/Title (Page ${PAGES})`);
    }
    console.log(
      `PDF of ${PAGES} pages (URL and download): getSpacePDF ${first.ms} ms, then ${space.ms} ms ` +
        `(${space.body.length} bytes); getChangeRequestPDF ${firstCr.ms} ms, then ${cr.ms} ms ` +
        `(${cr.body.length} bytes)`,
    );
  }, 600_000);
});
