import { inflateSync, deflateSync } from 'node:zlib';
import type { Response } from 'superagent';
import { ContentEngine } from '../src/content-engine/content-engine';
import type { DocumentBlock, JSONDocument } from '../src/content-engine/documents/document';
import { markdownToDocument } from '../src/content-engine/documents/markdown';
import { ContentWriter } from '../src/content-engine/writes/content-writer';
import { createTestApp, TEST_PUBLIC_URL, TestApp } from './helpers/app';
import type { Client } from './helpers/client';
import { expectConforms } from './helpers/conformance';
import { commitOnSpace } from './helpers/content';
import { expectError } from './helpers/content-grants';
import type { TestOrganization } from './helpers/factories';

/** A 16×8 RGBA PNG that decodes (pdfkit decodes the pixels of images with alpha). */
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

/** Reads a response body as raw bytes, whatever its content type. */
function bytes(res: Response, done: (error: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => done(null, Buffer.concat(chunks)));
}

/**
 * The strings a PDF shows, one per text operator, in order: page content streams are inflated,
 * then the hex strings of each `[...] TJ` (pdfkit's only text operator; the standard fonts
 * encode Windows-1252 one byte per character) are decoded and joined.
 */
function shownText(pdf: Buffer): string[] {
  const raw = pdf.toString('latin1');
  const contents = [...raw.matchAll(/stream\n([\s\S]*?)\nendstream/g)].map(([, data]) => {
    try {
      return inflateSync(Buffer.from(data, 'latin1')).toString('latin1');
    } catch {
      return data;
    }
  });
  return contents.flatMap((content) =>
    [...content.matchAll(/\[([^\]]*)\] TJ/g)].map(([, operands]) =>
      [...operands.matchAll(/<([0-9a-f]*)>/gi)]
        .map(([, hex]) => Buffer.from(hex, 'hex').toString('latin1'))
        .join(''),
    ),
  );
}

const GUIDE = [
  '## Before you start',
  'You need **Node.js** and *patience*; run `npm install` first.',
  '1. Clone the repository\n2. Install the dependencies',
  '```sh\nnpm run build\n```',
  '{% hint style="warning" %}\nBack up your data.\n{% endhint %}',
  '| Option | Default |\n| --- | --- |\n| port | 3000 |',
].join('\n\n');

interface Handbook {
  org: TestOrganization;
  spaceId: string;
  changeRequest: { id: string; number: number };
  imageId: string;
}

describe('change request PDF', () => {
  let t: TestApp;
  let engine: ContentEngine;
  let writer: ContentWriter;
  let counter = 0;

  beforeAll(async () => {
    t = await createTestApp();
    engine = t.bindery.app.get(ContentEngine);
    writer = t.bindery.app.get(ContentWriter);
  });
  afterAll(() => t.close());
  beforeEach(() => t.clock.set('2025-03-01T12:00:00Z'));

  const putDocument = (document: JSONDocument) =>
    engine.put(t.dataSource.manager, 'document', document);

  /**
   * A space with: Getting started (a guide with an image) > Install; Reference (group) > API;
   * then an open change request on it.
   */
  async function handbook(): Promise<Handbook> {
    const org = await t.factories.organization();
    const { id: spaceId } = await t.factories.space(org, { title: 'Handbook', empty: true });
    const imageId = `img${++counter}`;
    const stored = await t.dataSource.transaction((manager) =>
      writer.storeFile(manager, { id: imageId, name: 'diagram.png', data: png() }),
    );
    const guide = await markdownToDocument(GUIDE);
    const imageBlock: DocumentBlock = {
      object: 'block',
      type: 'images',
      nodes: [
        {
          object: 'block',
          type: 'image',
          isVoid: true,
          data: { ref: { kind: 'file', file: imageId }, alt: 'Architecture diagram' },
        },
      ],
    };
    guide.nodes.push(imageBlock);
    const paragraph = async (text: string) => putDocument(await markdownToDocument(text));
    await commitOnSpace(t, spaceId, [
      { operation: 'insert_file', file: stored.hash },
      {
        operation: 'insert_page',
        id: 'pgStart',
        meta: { title: 'Getting started' },
        document: await putDocument(guide),
      },
      {
        operation: 'insert_page',
        id: 'pgInstall',
        meta: { title: 'Install' },
        document: await paragraph('Run the installer.'),
        into: 'pgStart',
      },
      { operation: 'insert_page', id: 'pgRef', type: 'group', meta: { title: 'Reference' } },
      {
        operation: 'insert_page',
        id: 'pgApi',
        meta: { title: 'API' },
        document: await paragraph('Endpoints.'),
        into: 'pgRef',
      },
    ]);
    const { id, number } = await t.factories.changeRequest(org, spaceId, {
      subject: 'Polish the guide',
    });
    return { org, spaceId, changeRequest: { id, number }, imageId };
  }

  const pdfPath = (h: Handbook, changeRequest: string | number = h.changeRequest.id) =>
    `/v1/spaces/${h.spaceId}/change-requests/${changeRequest}/pdf`;

  async function pdfUrl(h: Handbook, query = '', as: Client = h.org.owner.client) {
    const res = await as.get(`${pdfPath(h)}${query}`).expect(200);
    expectConforms(res, 'getChangeRequestPDF');
    return res.body.url as string;
  }

  /** GET of a PDF URL (absolute, on the test server's public URL), without a token. */
  function download(url: string) {
    expect(url.startsWith(`${TEST_PUBLIC_URL}/v1/pdf/change-requests/`)).toBe(true);
    return t.anonymous.get(url.slice(TEST_PUBLIC_URL.length)).buffer(true).parse(bytes);
  }

  async function printed(url: string): Promise<string[]> {
    const res = await download(url).expect(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const body = res.body as Buffer;
    expect(body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(body.subarray(-6).toString('latin1')).toContain('%%EOF');
    return shownText(body);
  }

  describe('GET /v1/spaces/:spaceId/change-requests/:changeRequestId/pdf (getChangeRequestPDF)', () => {
    it('answers a URL that serves every page of the change request as a PDF, in tree order', async () => {
      const h = await handbook();
      const url = await pdfUrl(h);
      expect(url.length).toBeLessThanOrEqual(2048);
      expect(url).toMatch(
        new RegExp(`^${TEST_PUBLIC_URL}/v1/pdf/change-requests/${h.changeRequest.id}\\?`),
      );

      const res = await download(url).expect(200);
      expect(res.headers['content-disposition']).toBe(
        `inline; filename="change-request-1.pdf"; filename*=UTF-8''change-request-1.pdf`,
      );
      expect(res.headers['cache-control']).toBe('private, max-age=3600');
      expect((res.body as Buffer).toString('latin1')).toContain('/Subtype /Image');

      const text = await printed(url);
      const titles = ['Getting started', 'Install', 'Reference', 'API'];
      expect(titles.map((title) => text.indexOf(title))).toEqual(
        [...titles.map((title) => text.indexOf(title))].sort((a, b) => a - b),
      );
      expect(titles.every((title) => text.includes(title))).toBe(true);
      for (const expected of [
        'Before you start',
        'Node.js',
        'patience',
        'npm install',
        '1.',
        'Clone the repository',
        'npm run build',
        'WARNING',
        'Back up your data.',
        'Option',
        '3000',
        'Run the installer.',
        'Endpoints.',
      ]) {
        expect(text).toContain(expected);
      }
    });

    it('finds the change request by number, for any member who can read the space', async () => {
      const h = await handbook();
      const reader = await t.factories.asMember(h.org, 'read');
      const res = await reader.get(pdfPath(h, h.changeRequest.number)).expect(200);
      expectConforms(res, 'getChangeRequestPDF');
      expect(await printed(res.body.url as string)).toContain('Getting started');
    });

    it("prints the change request's head revision, not the primary's", async () => {
      const h = await handbook();
      await commitOnSpace(t, h.spaceId, [
        {
          operation: 'insert_page',
          id: 'pgLater',
          meta: { title: 'Added on primary later' },
          document: await putDocument(await markdownToDocument('Later.')),
        },
      ]);
      const text = await printed(await pdfUrl(h));
      expect(text).toContain('Getting started');
      expect(text).not.toContain('Added on primary later');
    });

    it('prints a page with its subpages, or with only=true that page alone', async () => {
      const h = await handbook();
      const withSubpages = await printed(await pdfUrl(h, '?page=pgStart'));
      expect(withSubpages).toEqual(expect.arrayContaining(['Getting started', 'Install']));
      expect(withSubpages).not.toContain('Reference');
      expect(withSubpages).not.toContain('API');

      const explicit = await printed(await pdfUrl(h, '?page=pgStart&only=false'));
      expect(explicit).toEqual(withSubpages);

      const only = await printed(await pdfUrl(h, '?page=pgStart&only=true'));
      expect(only).toContain('Getting started');
      expect(only).toContain('Back up your data.');
      expect(only).not.toContain('Install');
      expect(only).not.toContain('Run the installer.');

      const group = await printed(await pdfUrl(h, '?page=pgRef'));
      expect(group).toEqual(expect.arrayContaining(['Reference', 'API', 'Endpoints.']));
      expect(group).not.toContain('Getting started');
    });

    it('refuses a bad query with 400 naming the parameter', async () => {
      const h = await handbook();
      const client = h.org.owner.client;
      expectError(await client.get(`${pdfPath(h)}?only=maybe`), 400, 'only');
      expectError(await client.get(`${pdfPath(h)}?format=pdf`), 400, 'format');
    });

    it('answers 404 for an unknown change request or page, another organization and guests', async () => {
      const h = await handbook();
      const client = h.org.owner.client;
      expectError(await client.get(pdfPath(h, 'nosuchchangerequest')), 404, 'Change request');
      expectError(await client.get(pdfPath(h, 99)), 404, 'Change request');
      expectError(await client.get(`${pdfPath(h)}?page=nosuchpage`), 404, 'Page');

      const other = await handbook();
      expectError(await client.get(pdfPath(other)), 404, 'not found');
      expectError(
        await client.get(`/v1/spaces/${h.spaceId}/change-requests/${other.changeRequest.id}/pdf`),
        404,
        'Change request',
      );
      const guest = await t.factories.asMember(h.org, null);
      expectError(await guest.get(pdfPath(h)), 404, 'not found');
      expectError(await t.anonymous.get(pdfPath(h)), 401, '');
    });
  });

  describe('GET /v1/pdf/change-requests/:changeRequestId (downloadChangeRequestPDF)', () => {
    it('refuses a URL once it has expired, after one hour', async () => {
      const h = await handbook();
      const url = await pdfUrl(h);
      t.clock.advance(3_599_000);
      const res = await download(url).expect(200);
      expect(res.headers['cache-control']).toBe('private, max-age=1');
      t.clock.advance(1000);
      expectError(await t.anonymous.get(url.slice(TEST_PUBLIC_URL.length)), 403, 'expired');
    });

    it('refuses a tampered URL with 403', async () => {
      const h = await handbook();
      const other = await handbook();
      const url = new URL(await pdfUrl(h, '?page=pgStart&only=true'));
      const tampered = async (change: (url: URL) => void) => {
        const copy = new URL(url);
        change(copy);
        return t.anonymous.get(`${copy.pathname}${copy.search}`);
      };
      for (const change of [
        (u: URL) => u.searchParams.set('page', 'pgRef'),
        (u: URL) => u.searchParams.delete('page'),
        (u: URL) => u.searchParams.delete('only'),
        (u: URL) => u.searchParams.set('only', 'false'),
        (u: URL) => u.searchParams.set('revision', 'otherrevision'),
        (u: URL) => u.searchParams.set('space', other.spaceId),
        (u: URL) =>
          u.searchParams.set('expires', String(Number(u.searchParams.get('expires')) + 60)),
        (u: URL) => u.searchParams.set('signature', 'A'.repeat(43)),
        (u: URL) => u.searchParams.delete('signature'),
        (u: URL) => u.searchParams.delete('expires'),
        (u: URL) => (u.pathname = `/v1/pdf/change-requests/${other.changeRequest.id}`),
      ]) {
        expectError(await tampered(change), 403, 'not valid');
      }
      expect(await tampered(() => undefined)).toMatchObject({ status: 200 });
    });

    it('does not accept a file download signature', async () => {
      const h = await handbook();
      const file = await h.org.owner.client
        .get(`/v1/spaces/${h.spaceId}/content/files/${h.imageId}`)
        .expect(200);
      const downloadURL = new URL(file.body.downloadURL as string);
      const pdf = new URL(await pdfUrl(h));
      pdf.searchParams.set('signature', downloadURL.searchParams.get('signature')!);
      pdf.searchParams.set('expires', downloadURL.searchParams.get('expires')!);
      expectError(await t.anonymous.get(`${pdf.pathname}${pdf.search}`), 403, 'not valid');
    });
  });
});
