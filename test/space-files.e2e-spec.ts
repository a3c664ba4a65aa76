import { randomBytes } from 'node:crypto';
import type { Response } from 'superagent';
import type { JSONDocument } from '../src/content-engine/documents/document';
import { blobKeyOf } from '../src/content-engine/files/file-content';
import { ContentWriter, type FileInput } from '../src/content-engine/writes/content-writer';
import { BlobStore } from '../src/platform/blob-store/blob-store';
import { sha256Hex } from '../src/platform/ids/ids';
import { createTestApp, TEST_PUBLIC_URL, TestApp } from './helpers/app';
import { expectConforms } from './helpers/conformance';
import { expectError } from './helpers/content-grants';
import type { TestOrganization } from './helpers/factories';

interface FileBody {
  id: string;
  name: string;
  contentType: string;
  size: number;
  downloadURL: string;
  dimensions?: { width: number; height: number };
}

/** The signature and IHDR chunk of a PNG (what image-size reads), then some bytes. */
function png(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(25);
  ihdr.writeUInt32BE(13, 0);
  ihdr.write('IHDR', 4, 'latin1');
  ihdr.writeUInt32BE(width, 8);
  ihdr.writeUInt32BE(height, 12);
  ihdr.writeUInt8(8, 16);
  ihdr.writeUInt8(6, 17);
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, ihdr, randomBytes(16)]);
}

/** A page whose only block shows the file `fileId`. */
const showingFile = (fileId: string): JSONDocument => ({
  object: 'document',
  data: {},
  nodes: [
    {
      object: 'block',
      type: 'file',
      key: 'theFile',
      isVoid: true,
      data: { ref: { kind: 'file', file: fileId } },
    },
  ],
});

/** Reads a response body as raw bytes, whatever its content type. */
function bytes(res: Response, done: (error: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => done(null, Buffer.concat(chunks)));
}

describe('space files', () => {
  let t: TestApp;
  let writer: ContentWriter;
  beforeAll(async () => {
    t = await createTestApp();
    writer = t.bindery.app.get(ContentWriter);
  });
  afterAll(() => t.close());
  beforeEach(() => t.clock.set('2025-03-01T12:00:00Z'));

  interface FilesSpace {
    org: TestOrganization;
    spaceId: string;
    /** The revision before the files, and the one that added them. */
    initial: string;
    withFiles: string;
    image: { id: string; data: Buffer };
    text: { id: string; data: Buffer };
  }

  /** A space whose primary has a page showing an image, plus a text file (one revision). */
  async function filesSpace(): Promise<FilesSpace> {
    const org = await t.factories.organization();
    const created = await t.factories.space(org, { empty: true });
    const image = { id: `img${randomBytes(4).toString('hex')}`, data: png(640, 480) };
    const text = { id: `txt${randomBytes(4).toString('hex')}`, data: randomBytes(300) };
    const result = await t.dataSource.transaction(async (manager) => {
      const stored = [
        await writer.storeFile(manager, { id: image.id, name: 'diagram.png', data: image.data }),
        await writer.storeFile(manager, {
          id: text.id,
          name: 'Résumé "v2".txt',
          contentType: 'text/plain; charset=utf-8',
          data: text.data,
        }),
      ];
      return writer.commitOnPrimary(manager, {
        spaceId: created.id,
        expectedRevisionId: created.revision,
        authorId: org.owner.id,
        type: 'edits',
        changes: [
          ...stored.map(({ hash }) => ({ operation: 'insert_file' as const, file: hash })),
          {
            operation: 'insert_page',
            id: `pg${image.id}`,
            meta: { title: 'Architecture' },
            document: showingFile(image.id),
          },
        ],
      });
    });
    return {
      org,
      spaceId: created.id,
      initial: created.revision,
      withFiles: result.revision.id,
      image,
      text,
    };
  }

  async function commitFiles(
    space: FilesSpace,
    changes: { operation: 'delete_file'; file: string }[],
  ) {
    const [{ revision_id: current }]: { revision_id: string }[] = await t.dataSource.query(
      'SELECT revision_id FROM spaces WHERE id = $1',
      [space.spaceId],
    );
    return t.dataSource.transaction((manager) =>
      writer.commitOnPrimary(manager, {
        spaceId: space.spaceId,
        expectedRevisionId: current,
        authorId: space.org.owner.id,
        type: 'edits',
        changes,
      }),
    );
  }

  /** GET of a downloadURL (an absolute URL on the test server's public URL), raw bytes. */
  function download(url: string) {
    expect(url.startsWith(`${TEST_PUBLIC_URL}/v1/files/sha256/`)).toBe(true);
    return t.anonymous.get(url.slice(TEST_PUBLIC_URL.length)).buffer(true).parse(bytes);
  }

  async function fileOf(space: FilesSpace, fileId: string): Promise<FileBody> {
    const res = await space.org.owner.client
      .get(`/v1/spaces/${space.spaceId}/content/files/${fileId}`)
      .expect(200);
    return res.body as FileBody;
  }

  describe('reads', () => {
    it('lists and gets the files of the primary, images with their dimensions', async () => {
      const space = await filesSpace();
      const reader = await t.factories.asMember(space.org, 'read');
      const list = await reader.get(`/v1/spaces/${space.spaceId}/content/files`).expect(200);
      expectConforms(list, 'listFiles');
      const body = list.body as { items: FileBody[]; count: number };
      expect(body.count).toBe(2);
      expect(body.items).toEqual([
        {
          id: space.image.id,
          name: 'diagram.png',
          contentType: 'image/png',
          size: space.image.data.length,
          dimensions: { width: 640, height: 480 },
          downloadURL: expect.stringContaining('/v1/files/sha256/') as string,
        },
        {
          id: space.text.id,
          name: 'Résumé "v2".txt',
          contentType: 'text/plain; charset=utf-8',
          size: 300,
          downloadURL: expect.stringContaining(sha256Hex(space.text.data)) as string,
        },
      ]);

      const one = await reader
        .get(`/v1/spaces/${space.spaceId}/content/files/${space.image.id}`)
        .expect(200);
      expectConforms(one, 'getFileById');
      expect(one.body).toEqual(body.items[0]);

      const page = await reader
        .get(`/v1/spaces/${space.spaceId}/content/files?limit=1`)
        .expect(200);
      expectConforms(page, 'listFiles');
      expect((page.body as { items: FileBody[] }).items.map((f) => f.id)).toEqual([space.image.id]);

      const revision = await reader.get(`/v1/spaces/${space.spaceId}/content`).expect(200);
      expectConforms(revision, 'getCurrentRevision');
      expect((revision.body as { files: FileBody[] }).files.map((f) => f.id)).toEqual([
        space.image.id,
        space.text.id,
      ]);
    });

    it('reads files by revision: added in one, still there after a later delete', async () => {
      const space = await filesSpace();
      const client = space.org.owner.client;
      const revisions = `/v1/spaces/${space.spaceId}/revisions`;

      const before = await client.get(`${revisions}/${space.initial}/files`).expect(200);
      expectConforms(before, 'listFilesInRevisionById');
      expect(before.body).toEqual({ items: [], count: 0 });

      await commitFiles(space, [{ operation: 'delete_file', file: space.text.id }]);
      const primary = await client.get(`/v1/spaces/${space.spaceId}/content/files`).expect(200);
      expect((primary.body as { items: FileBody[] }).items.map((f) => f.id)).toEqual([
        space.image.id,
      ]);
      expectError(
        await client.get(`/v1/spaces/${space.spaceId}/content/files/${space.text.id}`),
        404,
        'File not found',
      );

      const old = await client.get(`${revisions}/${space.withFiles}/files`).expect(200);
      expectConforms(old, 'listFilesInRevisionById');
      expect((old.body as { items: FileBody[] }).items.map((f) => f.id)).toEqual([
        space.image.id,
        space.text.id,
      ]);
      const oldFile = await client
        .get(`${revisions}/${space.withFiles}/files/${space.text.id}`)
        .expect(200);
      expectConforms(oldFile, 'getFileInRevisionById');
      expect((oldFile.body as FileBody).size).toBe(300);
      expectError(
        await client.get(`${revisions}/${space.initial}/files/${space.text.id}`),
        404,
        'File not found',
      );
    });

    it('finds the page that references a file in its backlinks', async () => {
      const space = await filesSpace();
      const res = await space.org.owner.client
        .get(`/v1/spaces/${space.spaceId}/content/files/${space.image.id}/backlinks`)
        .expect(200);
      expectConforms(res, 'listSpaceFileBacklinks');
      const body = res.body as { items: { kind: string; page?: { id: string } }[]; count: number };
      expect(body.items.map((item) => `${item.kind}:${item.page?.id}`)).toEqual([
        `page:pg${space.image.id}`,
      ]);
      const none = await space.org.owner.client
        .get(`/v1/spaces/${space.spaceId}/content/files/${space.text.id}/backlinks`)
        .expect(200);
      expect((none.body as { items: unknown[] }).items).toEqual([]);
    });
  });

  describe('storing', () => {
    it('stores the same bytes once, under their hash', async () => {
      const data = randomBytes(64);
      const [a, b] = await t.dataSource.transaction(async (manager) => [
        await writer.storeFile(manager, { name: 'a.bin', data }),
        await writer.storeFile(manager, { name: 'b.bin', data }),
      ]);
      expect(a.file.blob).toBe(sha256Hex(data));
      expect(b.file.blob).toBe(a.file.blob);
      expect(a.file.id).not.toBe(b.file.id);
      expect(a.file.contentType).toBe('application/octet-stream');
      const stored = await t.bindery.app.get(BlobStore).get(blobKeyOf(a.file.blob));
      expect(stored?.equals(data)).toBe(true);
    });

    it('refuses a file over 1 MB with a 400 naming it', async () => {
      const input: FileInput = { name: 'huge.bin', data: Buffer.alloc(1024 * 1024 + 1) };
      await expect(
        t.dataSource.transaction((manager) => writer.storeFile(manager, input)),
      ).rejects.toMatchObject({
        kind: 'bad_request',
        message: expect.stringContaining('huge.bin'),
      });
    });
  });

  describe('downloads', () => {
    it('serves the exact bytes, inline, under the signed name and type', async () => {
      const space = await filesSpace();
      const image = await fileOf(space, space.image.id);
      const res = await download(image.downloadURL).expect(200);
      expect((res.body as Buffer).equals(space.image.data)).toBe(true);
      expect(res.headers['content-type']).toBe('image/png');
      expect(res.headers['content-length']).toBe(String(space.image.data.length));
      expect(res.headers['content-disposition']).toBe(
        `inline; filename="diagram.png"; filename*=UTF-8''diagram.png`,
      );
      expect(res.headers['cache-control']).toBe('private, max-age=3600, no-transform');
      expect(res.headers['x-content-type-options']).toBe('nosniff');

      const text = await fileOf(space, space.text.id);
      t.clock.advance(600_000);
      const textRes = await download(text.downloadURL).expect(200);
      expect((textRes.body as Buffer).equals(space.text.data)).toBe(true);
      expect(textRes.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(textRes.headers['content-disposition']).toBe(
        `inline; filename="R_sum_ _v2_.txt"; filename*=UTF-8''R%C3%A9sum%C3%A9%20%22v2%22.txt`,
      );
      expect(textRes.headers['cache-control']).toBe('private, max-age=3000, no-transform');
    });

    it('refuses an expired URL with 403', async () => {
      const space = await filesSpace();
      const { downloadURL } = await fileOf(space, space.image.id);
      t.clock.advance(3_599_000);
      await download(downloadURL).expect(200);
      t.clock.advance(1000);
      const res = await t.anonymous.get(downloadURL.slice(TEST_PUBLIC_URL.length));
      expectError(res, 403, 'expired');
    });

    it('refuses a tampered URL with 403', async () => {
      const space = await filesSpace();
      const { downloadURL } = await fileOf(space, space.image.id);
      const url = new URL(downloadURL);
      const tampered = (change: (url: URL) => void) => {
        const copy = new URL(url);
        change(copy);
        return t.anonymous.get(`${copy.pathname}${copy.search}`);
      };
      for (const change of [
        (u: URL) => u.searchParams.set('type', 'text/html'),
        (u: URL) => u.searchParams.set('name', 'other.png'),
        (u: URL) =>
          u.searchParams.set('expires', String(Number(u.searchParams.get('expires')) + 60)),
        (u: URL) => u.searchParams.set('signature', 'A'.repeat(43)),
        (u: URL) => u.searchParams.delete('signature'),
        (u: URL) => (u.pathname = `/v1/files/sha256/${sha256Hex(space.text.data)}`),
      ]) {
        expectError(await tampered(change), 403, 'not valid');
      }
    });

    it('answers 404 when the bytes are gone', async () => {
      const space = await filesSpace();
      const { downloadURL } = await fileOf(space, space.text.id);
      await t.bindery.app.get(BlobStore).delete(blobKeyOf(sha256Hex(space.text.data)));
      expectError(
        await t.anonymous.get(downloadURL.slice(TEST_PUBLIC_URL.length)),
        404,
        'not found',
      );
    });
  });
});
