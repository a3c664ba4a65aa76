import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { Test } from '@nestjs/testing';
import { BlobStore } from './blob-store';
import { BlobStoreModule } from './blob-store.module';
import { FilesystemBlobStore, InvalidBlobKeyError } from './filesystem-blob-store';

// 512 characters, no part longer than 255.
const LONGEST_KEY = `${'k'.repeat(255)}/${'k'.repeat(254)}/0`;

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString();
}

/** Every file under `dir`, relative to it. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
    .sort();
}

/** A stream that yields `chunks`, then fails. */
function failingStream(chunks: string[], error: Error): Readable {
  return Readable.from(
    (async function* () {
      yield* chunks;
      throw error;
    })(),
  );
}

describe('FilesystemBlobStore', () => {
  let workDir: string;
  let root: string;
  let store: FilesystemBlobStore;

  beforeEach(async () => {
    workDir = await mkdtemp(join(tmpdir(), 'bindery-blob-store-'));
    root = join(workDir, 'blobs');
    store = new FilesystemBlobStore(root);
  });

  afterEach(async () => {
    await rm(workDir, { recursive: true, force: true });
  });

  describe('round trip', () => {
    it('stores a buffer and reads it back', async () => {
      const data = Buffer.from('%PDF-1.7 binary \u0000\u00ff');

      await expect(store.put('pdfs/space-1/export.pdf', data)).resolves.toEqual({
        size: data.length,
      });

      await expect(store.get('pdfs/space-1/export.pdf')).resolves.toEqual(data);
      await expect(store.exists('pdfs/space-1/export.pdf')).resolves.toBe(true);
      await expect(store.size('pdfs/space-1/export.pdf')).resolves.toBe(data.length);
    });

    it('stores an empty blob', async () => {
      await expect(store.put('empty', Buffer.alloc(0))).resolves.toEqual({ size: 0 });

      await expect(store.get('empty')).resolves.toEqual(Buffer.alloc(0));
      await expect(store.exists('empty')).resolves.toBe(true);
      await expect(store.size('empty')).resolves.toBe(0);
    });

    it('lays files out under the root exactly as the key says', async () => {
      await store.put('files/ab/abcdef0123', Buffer.from('content'));

      await expect(readFile(join(root, 'files', 'ab', 'abcdef0123'), 'utf8')).resolves.toBe(
        'content',
      );
      expect(await filesUnder(root)).toEqual([join('files', 'ab', 'abcdef0123')]);
    });

    it('reports absent keys as null / false', async () => {
      await expect(store.get('files/nope')).resolves.toBeNull();
      await expect(store.createReadStream('files/nope')).resolves.toBeNull();
      await expect(store.exists('files/nope')).resolves.toBe(false);
      await expect(store.size('files/nope')).resolves.toBeNull();
    });

    it('does not treat a directory made by a longer key as a blob', async () => {
      await store.put('files/ab/abcdef', Buffer.from('x'));

      await expect(store.get('files/ab')).resolves.toBeNull();
      await expect(store.createReadStream('files/ab')).resolves.toBeNull();
      await expect(store.exists('files/ab')).resolves.toBe(false);
      await expect(store.size('files/ab')).resolves.toBeNull();
    });
  });

  describe('streams', () => {
    it('stores a stream of buffers and strings and reports its size', async () => {
      const stream = Readable.from([Buffer.from('openapi: '), '3.1.0\n', Buffer.from('info: {}')]);

      await expect(store.put('openapi/doc.yaml', stream)).resolves.toEqual({ size: 23 });

      await expect(store.get('openapi/doc.yaml')).resolves.toEqual(
        Buffer.from('openapi: 3.1.0\ninfo: {}'),
      );
    });

    it('stores a large stream intact', async () => {
      const chunk = Buffer.alloc(64 * 1024);
      const chunks = Array.from({ length: 40 }, (_, i) => Buffer.from(chunk.fill(i)));

      const { size } = await store.put('big', Readable.from(chunks));

      expect(size).toBe(40 * 64 * 1024);
      // Buffer#equals: Jest's deep equality walks megabytes byte by byte.
      expect((await store.get('big'))!.equals(Buffer.concat(chunks))).toBe(true);
    });

    it('reads a blob back as a stream', async () => {
      await store.put('files/ab/readme', Buffer.from('hello stream'));

      const stream = await store.createReadStream('files/ab/readme');

      expect(stream).not.toBeNull();
      await expect(readAll(stream!)).resolves.toBe('hello stream');
    });
  });

  describe('overwrite and delete', () => {
    it('replaces an existing blob', async () => {
      await store.put('doc', Buffer.from('a much longer first version'));

      await expect(store.put('doc', Readable.from(['v2']))).resolves.toEqual({ size: 2 });

      await expect(store.get('doc')).resolves.toEqual(Buffer.from('v2'));
      await expect(store.size('doc')).resolves.toBe(2);
    });

    it('keeps a stream opened before an overwrite reading the old content', async () => {
      await store.put('doc', Buffer.from('old'));
      const reader = await store.createReadStream('doc');

      await store.put('doc', Buffer.from('new'));

      await expect(readAll(reader!)).resolves.toBe('old');
      await expect(store.get('doc')).resolves.toEqual(Buffer.from('new'));
    });

    it('deletes a blob, and deleting again or deleting a missing key is fine', async () => {
      await store.put('files/ab/gone', Buffer.from('x'));

      await store.delete('files/ab/gone');

      await expect(store.exists('files/ab/gone')).resolves.toBe(false);
      await expect(store.get('files/ab/gone')).resolves.toBeNull();
      await expect(store.delete('files/ab/gone')).resolves.toBeUndefined();
      await expect(store.delete('never/existed')).resolves.toBeUndefined();
    });

    it('deletes nothing when the key names a directory', async () => {
      await store.put('files/ab/kept', Buffer.from('x'));

      await expect(store.delete('files/ab')).resolves.toBeUndefined();

      await expect(store.get('files/ab/kept')).resolves.toEqual(Buffer.from('x'));
    });
  });

  describe('key validation', () => {
    it.each([
      'files/ab/abcdef0123456789',
      'a',
      '0',
      'A.b_c-d/e.f',
      'pdfs/x.pdf',
      'k'.repeat(255),
      LONGEST_KEY,
    ])('accepts %s', async (key) => {
      await store.put(key, Buffer.from('ok'));

      await expect(store.get(key)).resolves.toEqual(Buffer.from('ok'));
    });

    it.each([
      ['../escape', 'parent traversal'],
      ['files/../../escape', 'traversal in the middle'],
      ['files/..', 'trailing parent segment'],
      ['/etc/passwd', 'absolute path'],
      ['', 'empty'],
      ['.hidden', 'leading dot'],
      ['.tmp/x', 'the temporary directory'],
      ['-rf', 'leading dash'],
      ['files//ab', 'empty segment'],
      ['files/./ab', 'dot segment'],
      ['files/', 'trailing slash'],
      ['files\\..\\escape', 'backslashes'],
      ['with space', 'space'],
      ['nul\u0000byte', 'NUL byte'],
      ['caf\u00e9', 'non-ASCII'],
      [`${LONGEST_KEY}0`, 'longer than 512 characters'],
      ['k'.repeat(256), 'a segment longer than 255 characters'],
    ])('rejects %j (%s) in every operation', async (key) => {
      const operations = [
        () => store.put(key, Buffer.from('x')),
        () => store.put(key, Readable.from(['x'])),
        () => store.get(key),
        () => store.createReadStream(key),
        () => store.exists(key),
        () => store.delete(key),
        () => store.size(key),
      ];
      for (const operation of operations) {
        await expect(operation()).rejects.toThrow(InvalidBlobKeyError);
      }
      await expect(store.get(key).catch((e: Error) => e.message)).resolves.toMatch(
        /^Invalid blob key ".*": .+/,
      );
    });

    it('never writes outside the root, even when a traversal target exists', async () => {
      await mkdir(root, { recursive: true });

      await expect(store.put('../escape', Buffer.from('x'))).rejects.toThrow(InvalidBlobKeyError);
      await expect(store.put('files/../../escape', Buffer.from('x'))).rejects.toThrow(
        /"\.\." path segments/,
      );

      expect(existsSync(join(workDir, 'escape'))).toBe(false);
      expect(await readdir(workDir)).toEqual(['blobs']);
    });
  });

  describe('atomic writes', () => {
    it('leaves nothing under the key when the input stream fails midway', async () => {
      const failure = new Error('upload connection reset');

      await expect(
        store.put('files/ab/partial', failingStream(['first part, ', 'second part'], failure)),
      ).rejects.toBe(failure);

      await expect(store.exists('files/ab/partial')).resolves.toBe(false);
      await expect(store.get('files/ab/partial')).resolves.toBeNull();
      expect(await filesUnder(root)).toEqual([]);
    });

    it('keeps the previous blob intact when an overwrite fails midway', async () => {
      await store.put('doc', Buffer.from('good version'));

      await expect(
        store.put('doc', failingStream(['broken'], new Error('client went away'))),
      ).rejects.toThrow('client went away');

      await expect(store.get('doc')).resolves.toEqual(Buffer.from('good version'));
      expect(await filesUnder(root)).toEqual(['doc']);
    });

    it('makes a blob visible only once it is completely written', async () => {
      const input = new PassThrough();
      input.write('half of the ');
      const writing = store.put('files/ab/slow', input);
      await new Promise((resolve) => setTimeout(resolve, 20));

      await expect(store.exists('files/ab/slow')).resolves.toBe(false);
      await expect(store.get('files/ab/slow')).resolves.toBeNull();

      input.end('document');
      await expect(writing).resolves.toEqual({ size: 20 });
      await expect(store.get('files/ab/slow')).resolves.toEqual(
        Buffer.from('half of the document'),
      );
    });

    it('resolves concurrent writes to one key to one complete version', async () => {
      const versions = ['a'.repeat(100_000), 'b'.repeat(50_000), 'c'.repeat(75_000)];

      await Promise.all(versions.map((v) => store.put('contended', Readable.from([v, v]))));

      const stored = (await store.get('contended'))!.toString();
      expect(versions.map((v) => v + v)).toContain(stored);
      expect(await filesUnder(root)).toEqual(['contended']);
    });
  });
});

describe('BlobStoreModule', () => {
  it('provides a filesystem store under the BlobStore token', async () => {
    const root = await mkdtemp(join(tmpdir(), 'bindery-blob-module-'));
    try {
      const moduleRef = await Test.createTestingModule({
        imports: [BlobStoreModule.register({ root })],
      }).compile();
      const store = moduleRef.get(BlobStore);

      expect(store).toBeInstanceOf(FilesystemBlobStore);
      await store.put('files/x', Buffer.from('via module'));
      await expect(readFile(join(root, 'files', 'x'), 'utf8')).resolves.toBe('via module');
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('removes a temporary root when the application stops, and keeps any other', async () => {
    const temporary = await mkdtemp(join(tmpdir(), 'bindery-blob-module-'));
    const kept = await mkdtemp(join(tmpdir(), 'bindery-blob-module-'));
    try {
      for (const [root, isTemporary] of [
        [temporary, true],
        [kept, false],
      ] as const) {
        const moduleRef = await Test.createTestingModule({
          imports: [BlobStoreModule.register({ root, temporary: isTemporary })],
        }).compile();
        await moduleRef.get(BlobStore).put('files/x', Buffer.from('x'));
        await moduleRef.close();
      }
      expect(existsSync(temporary)).toBe(false);
      await expect(readFile(join(kept, 'files', 'x'), 'utf8')).resolves.toBe('x');
    } finally {
      await rm(temporary, { recursive: true, force: true });
      await rm(kept, { recursive: true, force: true });
    }
  });
});
