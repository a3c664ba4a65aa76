import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deflateSync, inflateSync } from 'node:zlib';
import { GifWriter } from 'omggif';
import type { Response } from 'superagent';
import { extractText, getDocumentProxy } from 'unpdf';
import { ContentEngine } from '../src/content-engine/content-engine';
import type { DocumentBlock, JSONDocument } from '../src/content-engine/documents/document';
import { markdownToDocument } from '../src/content-engine/documents/markdown';
import { ContentWriter } from '../src/content-engine/writes/content-writer';
import { createTestApp, TEST_PUBLIC_URL, TestApp } from './helpers/app';
import type { Client } from './helpers/client';
import { expectConforms, GITBOOK_0201 } from './helpers/conformance';
import { commitOnSpace } from './helpers/content';
import { expectError } from './helpers/content-grants';
import type { TestOrganization } from './helpers/factories';

/** A 16×8 RGBA PNG. */
function png(): Buffer {
  const chunk = (type: string, body: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(body.length);
    return Buffer.concat([length, Buffer.from(type, 'latin1'), body, Buffer.alloc(4)]);
  };
  const ihdr = Buffer.from([0, 0, 0, 16, 0, 0, 0, 8, 8, 6, 0, 0, 0]);
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(64, 0x90)]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.concat(Array.from({ length: 8 }, () => row)))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A two-frame 4×4 GIF. */
function gif(): Buffer {
  const out = Buffer.alloc(1024);
  const writer = new GifWriter(out, 4, 4, { palette: [0xff0000, 0x00ff00], loop: 0 });
  writer.addFrame(
    0,
    0,
    4,
    4,
    Array.from({ length: 16 }, (_, i) => i % 2),
  );
  writer.addFrame(
    0,
    0,
    4,
    4,
    Array.from({ length: 16 }, () => 1),
  );
  return out.subarray(0, writer.end());
}

/** A 40×20 SVG: a rectangle of a colour nothing else in the PDF uses (#123456). */
const SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20" viewBox="0 0 40 20">' +
  '<rect x="0" y="0" width="40" height="20" fill="#123456"/></svg>';

/** One heading and one paragraph per script. */
const SCRIPTS: [heading: string, paragraph: string][] = [
  ['日本語の見出し', 'これは日本語の段落です。漢字とかなを含みます。'],
  ['中文标题', '这是一个中文段落，我们用它来测试字体。'],
  ['한국어 제목', '이것은 한국어 문단입니다. 글꼴을 시험합니다.'],
  ['Русский заголовок', 'Это абзац на русском языке с буквами ёжик.'],
  ['عنوان عربي', 'هذه فقرة باللغة العربية لاختبار الخطوط والاتجاه'],
  ['כותרת בעברית', 'זוהי פסקה בעברית לבדיקת הגופנים והכיוון'],
  ['Emoji 🚀', 'Launch 🚀 and celebrate 🎉 with 👍'],
];

/** Reads a response body as raw bytes, whatever its content type. */
function bytes(res: Response, done: (error: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => done(null, Buffer.concat(chunks)));
}

/** The text of a PDF as a PDF reader extracts it, whitespace collapsed. */
async function extracted(pdf: Buffer): Promise<string> {
  const document = await getDocumentProxy(new Uint8Array(pdf));
  const { text } = await extractText(document, { mergePages: true });
  return text.replace(/\s+/g, ' ');
}

/** The page content streams of a PDF, inflated. */
function contents(pdf: Buffer): string {
  return [...pdf.toString('latin1').matchAll(/stream\n([\s\S]*?)\nendstream/g)]
    .map(([, data]) => {
      try {
        return inflateSync(Buffer.from(data, 'latin1')).toString('latin1');
      } catch {
        return '';
      }
    })
    .join('\n');
}

const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();

interface Library {
  org: TestOrganization;
  spaceId: string;
}

describe('space PDF', () => {
  let t: TestApp;
  let engine: ContentEngine;
  let writer: ContentWriter;
  let images: Server;
  let imagesOrigin: string;
  let counter = 0;

  beforeAll(async () => {
    t = await createTestApp();
    engine = t.bindery.app.get(ContentEngine);
    writer = t.bindery.app.get(ContentWriter);
    images = createServer((request, response) => {
      if (request.url === '/photo.png') {
        response.writeHead(200, { 'content-type': 'image/png' });
        response.end(png());
      } else {
        response.writeHead(404);
        response.end();
      }
    });
    await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
    imagesOrigin = `http://127.0.0.1:${(images.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => images.close(resolve));
    await t.close();
  });
  beforeEach(() => t.clock.set('2025-03-01T12:00:00Z'));

  const putDocument = (document: JSONDocument) =>
    engine.put(t.dataSource.manager, 'document', document);

  const image = (ref: object, alt: string): DocumentBlock => ({
    object: 'block',
    type: 'images',
    nodes: [{ object: 'block', type: 'image', isVoid: true, data: { ref, alt } }],
  });

  /**
   * A space with: Scripts (a heading and a paragraph per script) > Figures (math, an SVG, a GIF,
   * a web image and one that cannot be fetched); then Plain.
   */
  async function library(): Promise<Library> {
    const org = await t.factories.organization();
    const { id: spaceId } = await t.factories.space(org, { title: 'Library', empty: true });
    const n = ++counter;
    const [svg, animated] = await t.dataSource.transaction(async (manager) => [
      await writer.storeFile(manager, { id: `svg${n}`, name: 'box.svg', data: Buffer.from(SVG) }),
      await writer.storeFile(manager, { id: `gif${n}`, name: 'anim.gif', data: gif() }),
    ]);
    const scripts = await markdownToDocument(
      SCRIPTS.map(([heading, paragraph]) => `## ${heading}\n\n${paragraph}`).join('\n\n'),
    );
    const figures = await markdownToDocument('Figures follow.');
    figures.nodes.push(
      {
        object: 'block',
        type: 'math',
        isVoid: true,
        data: { formula: 'E = mc^2 + \\frac{a}{b} + \\sqrt{x}' },
      },
      {
        object: 'block',
        type: 'paragraph',
        nodes: [
          { object: 'text', leaves: [{ object: 'leaf', text: 'Inline ', marks: [] }] },
          {
            object: 'inline',
            type: 'inline-math',
            isVoid: true,
            data: { formula: '\\alpha^2' },
            nodes: [],
          },
          { object: 'text', leaves: [{ object: 'leaf', text: ' formula.', marks: [] }] },
        ],
      } as DocumentBlock,
      image({ kind: 'file', file: `svg${n}` }, 'A vector box'),
      image({ kind: 'file', file: `gif${n}` }, 'An animation'),
      image({ kind: 'url', url: `${imagesOrigin}/photo.png` }, 'A web photo'),
      image({ kind: 'url', url: `${imagesOrigin}/missing.png` }, 'A missing photo'),
    );
    await commitOnSpace(t, spaceId, [
      { operation: 'insert_file', file: svg.hash },
      { operation: 'insert_file', file: animated.hash },
      {
        operation: 'insert_page',
        id: 'pgScripts',
        meta: { title: 'Scripts' },
        document: await putDocument(scripts),
      },
      {
        operation: 'insert_page',
        id: 'pgFigures',
        meta: { title: 'Figures' },
        document: await putDocument(figures),
        into: 'pgScripts',
      },
      {
        operation: 'insert_page',
        id: 'pgPlain',
        meta: { title: 'Plain' },
        document: await putDocument(await markdownToDocument('Nothing special.')),
      },
    ]);
    return { org, spaceId };
  }

  const pdfPath = (l: Library, spaceId = l.spaceId) => `/v1/spaces/${spaceId}/pdf`;

  async function pdfUrl(l: Library, query = '', as: Client = l.org.owner.client) {
    const res = await as.get(`${pdfPath(l)}${query}`).expect(200);
    // getSpacePDF is in GitBook's 0.146.0 spec already, and unchanged in 0.201.0.
    expectConforms(res, 'getSpacePDF');
    expectConforms(res, 'getSpacePDF', GITBOOK_0201);
    return res.body.url as string;
  }

  function download(url: string) {
    expect(url.startsWith(`${TEST_PUBLIC_URL}/v1/pdf/spaces/`)).toBe(true);
    return t.anonymous.get(url.slice(TEST_PUBLIC_URL.length)).buffer(true).parse(bytes);
  }

  async function pdf(url: string): Promise<Buffer> {
    const res = await download(url).expect(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    return res.body as Buffer;
  }

  describe('GET /v1/spaces/:spaceId/pdf (getSpacePDF)', () => {
    it('prints every page of the primary content, each script readable in reading order', async () => {
      const l = await library();
      const url = await pdfUrl(l);
      expect(url.length).toBeLessThanOrEqual(2048);
      const res = await download(url).expect(200);
      expect(res.headers['cache-control']).toBe('private, max-age=3600');
      const text = await extracted(res.body as Buffer);

      for (const title of ['Scripts', 'Figures', 'Plain', 'Nothing special.']) {
        expect(text).toContain(title);
      }
      expect(text.indexOf('Scripts')).toBeLessThan(text.indexOf('Figures follow.'));
      expect(text.indexOf('Figures follow.')).toBeLessThan(text.indexOf('Nothing special.'));
      for (const [heading, paragraph] of SCRIPTS) {
        expect(text).toContain(collapse(heading));
        expect(text).toContain(collapse(paragraph));
      }
      expect(text).not.toContain('?');
    });

    it('draws formulas and SVG images as vectors, and embeds GIF and web images', async () => {
      const l = await library();
      const body = await pdf(await pdfUrl(l, '?page=pgFigures'));
      const text = await extracted(body);
      // The formulas are drawn, not written out as TeX.
      expect(text).not.toMatch(/frac|sqrt|alpha|mc\^2/);
      expect(text).toContain('Inline');
      expect(text).toContain('formula.');
      const drawn = contents(body);
      // The SVG's rectangle, filled with its colour (0x12, 0x34, 0x56 of 255).
      expect(drawn).toMatch(/0\.0705\d* 0\.2039\d* 0\.3372\d* scn/);
      // Formulas: MathJax glyph outlines, many curves.
      expect((drawn.match(/ c\n/g) ?? []).length).toBeGreaterThan(50);
      // The GIF's first frame and the web photo; the missing photo prints its caption.
      expect(drawn.match(/\/I\d+ Do/g)).toHaveLength(2);
      for (const caption of ['A vector box', 'An animation', 'A web photo', 'A missing photo']) {
        expect(text).toContain(caption);
      }
    });

    it('prints a page with its subpages, or with only=true that page alone', async () => {
      const l = await library();
      const withSubpages = await extracted(await pdf(await pdfUrl(l, '?page=pgScripts')));
      expect(withSubpages).toContain('Figures follow.');
      expect(withSubpages).not.toContain('Nothing special.');
      const alone = await extracted(await pdf(await pdfUrl(l, '?page=pgScripts&only=true')));
      expect(alone).toContain(collapse(SCRIPTS[0][1]));
      expect(alone).not.toContain('Figures follow.');
    });

    it('prints the primary content as it was when the URL was made', async () => {
      const l = await library();
      const url = await pdfUrl(l, '?page=pgPlain&only=true');
      await commitOnSpace(t, l.spaceId, [
        {
          operation: 'set_document',
          page: 'pgPlain',
          document: await putDocument(await markdownToDocument('Changed since.')),
        },
      ]);
      const text = await extracted(await pdf(url));
      expect(text).toContain('Nothing special.');
      expect(text).not.toContain('Changed since.');
      expect(await extracted(await pdf(await pdfUrl(l, '?page=pgPlain')))).toContain(
        'Changed since.',
      );
    });

    it('refuses a bad query with 400 naming the parameter', async () => {
      const l = await library();
      const client = l.org.owner.client;
      expectError(await client.get(`${pdfPath(l)}?only=maybe`), 400, 'only');
      expectError(await client.get(`${pdfPath(l)}?format=pdf`), 400, 'format');
    });

    it('answers 404 for an unknown space or page, another organization and guests', async () => {
      const l = await library();
      const client = l.org.owner.client;
      expectError(await client.get(pdfPath(l, 'nosuchspace')), 404, 'not found');
      expectError(await client.get(`${pdfPath(l)}?page=nosuchpage`), 404, 'Page');
      const other = await library();
      expectError(await client.get(pdfPath(other)), 404, 'not found');
      const guest = await t.factories.asMember(l.org, null);
      expectError(await guest.get(pdfPath(l)), 404, 'not found');
      expectError(await t.anonymous.get(pdfPath(l)), 401, '');
    });

    it('answers any member who can read the space, the lowest role included', async () => {
      const l = await library();
      const reader = await t.factories.asMember(l.org, 'read');
      const text = await extracted(await pdf(await pdfUrl(l, '?page=pgPlain', reader)));
      expect(text).toContain('Nothing special.');
    });
  });

  describe('GET /v1/pdf/spaces/:spaceId (downloadSpacePDF)', () => {
    it('refuses an expired or tampered URL with 403, and a space since deleted with 404', async () => {
      const l = await library();
      const other = await library();
      const url = new URL(await pdfUrl(l, '?page=pgScripts&only=true'));
      const tampered = async (change: (url: URL) => void) => {
        const copy = new URL(url);
        change(copy);
        return t.anonymous.get(`${copy.pathname}${copy.search}`);
      };
      for (const change of [
        (u: URL) => u.searchParams.set('page', 'pgPlain'),
        (u: URL) => u.searchParams.delete('only'),
        (u: URL) => u.searchParams.set('revision', 'otherrevision'),
        (u: URL) => u.searchParams.set('signature', 'A'.repeat(43)),
        (u: URL) => (u.pathname = `/v1/pdf/spaces/${other.spaceId}`),
      ]) {
        expectError(await tampered(change), 403, 'not valid');
      }
      expect(await tampered(() => undefined)).toMatchObject({ status: 200 });
      t.clock.advance(3_600_000);
      expectError(await tampered(() => undefined), 403, 'expired');

      const fresh = new URL(await pdfUrl(l));
      await l.org.owner.client.delete(`/v1/spaces/${l.spaceId}`).expect(204);
      expectError(await t.anonymous.get(`${fresh.pathname}${fresh.search}`), 404, 'Space');
    });
  });
});
