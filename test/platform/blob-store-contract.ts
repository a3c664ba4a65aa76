import { createHash, randomBytes } from 'node:crypto';
import { PassThrough, Readable } from 'node:stream';
import { InvalidBlobKeyError } from '../../src/platform/blob-store/blob-key';
import type { BlobStore } from '../../src/platform/blob-store/blob-store';

/** Size of the large streamed blob: more than two parts of an S3 multipart upload. */
export const LARGE_BLOB_BYTES = 20 * 1024 * 1024;

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/** A stream of `size` pseudo-random bytes in 64 KiB chunks, made as it is read. */
function generatedStream(size: number, hash: ReturnType<typeof createHash>): Readable {
  return Readable.from(
    (function* () {
      for (let sent = 0; sent < size;) {
        const chunk = randomBytes(Math.min(64 * 1024, size - sent));
        hash.update(chunk);
        sent += chunk.length;
        yield chunk;
      }
    })(),
  );
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

/**
 * What every BlobStore must do, as `it`s: call inside a `describe` whose beforeAll makes the
 * store. Each test uses keys of its own, so the store need not be emptied between them.
 */
export function blobStoreContract(store: () => BlobStore): void {
  let prefix: string;
  beforeEach(() => {
    prefix = `t${randomBytes(6).toString('hex')}`;
  });
  /** A key of this test only. */
  const key = (path: string) => `${prefix}/${path}`;

  it('stores a buffer and reads it back', async () => {
    const data = Buffer.from('%PDF-1.7 binary \u0000\u00ff');

    await expect(store().put(key('export.pdf'), data)).resolves.toEqual({ size: data.length });

    await expect(store().get(key('export.pdf'))).resolves.toEqual(data);
    await expect(store().exists(key('export.pdf'))).resolves.toBe(true);
    await expect(store().size(key('export.pdf'))).resolves.toBe(data.length);
  });

  it('stores an empty blob', async () => {
    await expect(store().put(key('empty'), Buffer.alloc(0))).resolves.toEqual({ size: 0 });

    await expect(store().get(key('empty'))).resolves.toEqual(Buffer.alloc(0));
    await expect(store().exists(key('empty'))).resolves.toBe(true);
    await expect(store().size(key('empty'))).resolves.toBe(0);
  });

  it('stores a stream of buffers and strings and reports its size', async () => {
    const stream = Readable.from([Buffer.from('openapi: '), '3.1.0\n', Buffer.from('info: {}')]);

    await expect(store().put(key('doc.yaml'), stream)).resolves.toEqual({ size: 23 });

    await expect(store().get(key('doc.yaml'))).resolves.toEqual(
      Buffer.from('openapi: 3.1.0\ninfo: {}'),
    );
    await expect(store().size(key('doc.yaml'))).resolves.toBe(23);
  });

  it('stores a stream that is written to while it is being stored', async () => {
    const input = new PassThrough();
    const writing = store().put(key('slow'), input);
    input.write('half of the ');
    await new Promise((resolve) => setTimeout(resolve, 20));
    input.end('document');

    await expect(writing).resolves.toEqual({ size: 20 });
    await expect(store().get(key('slow'))).resolves.toEqual(Buffer.from('half of the document'));
  });

  it('reads a blob back as a stream', async () => {
    await store().put(key('readme'), Buffer.from('hello stream'));

    const stream = await store().createReadStream(key('readme'));

    expect(stream).not.toBeNull();
    expect((await readAll(stream!)).toString()).toBe('hello stream');
  });

  it(`stores a large stream (${LARGE_BLOB_BYTES / 1024 / 1024} MiB) and streams it back intact`, async () => {
    const written = createHash('sha256');

    const { size } = await store().put(key('big.bin'), generatedStream(LARGE_BLOB_BYTES, written));

    expect(size).toBe(LARGE_BLOB_BYTES);
    await expect(store().size(key('big.bin'))).resolves.toBe(LARGE_BLOB_BYTES);
    const read = createHash('sha256');
    let readBytes = 0;
    for await (const chunk of (await store().createReadStream(key('big.bin')))!) {
      read.update(chunk as Buffer);
      readBytes += (chunk as Buffer).length;
    }
    expect(readBytes).toBe(LARGE_BLOB_BYTES);
    expect(read.digest('hex')).toBe(written.digest('hex'));
  }, 120_000);

  it('replaces a blob, by a buffer or a stream', async () => {
    await store().put(key('doc'), Buffer.from('a much longer first version'));

    await expect(store().put(key('doc'), Readable.from(['v2']))).resolves.toEqual({ size: 2 });
    await expect(store().get(key('doc'))).resolves.toEqual(Buffer.from('v2'));
    await expect(store().size(key('doc'))).resolves.toBe(2);

    await store().put(key('doc'), Buffer.from('third'));
    expect((await readAll((await store().createReadStream(key('doc')))!)).toString()).toBe('third');
  });

  it('reports missing keys as null / false', async () => {
    await expect(store().get(key('files/nope'))).resolves.toBeNull();
    await expect(store().createReadStream(key('files/nope'))).resolves.toBeNull();
    await expect(store().exists(key('files/nope'))).resolves.toBe(false);
    await expect(store().size(key('files/nope'))).resolves.toBeNull();
  });

  it('keeps keys with slashes apart, and a key is not a folder of longer keys', async () => {
    await store().put(key('files/ab/abcdef'), Buffer.from('deep'));
    await store().put(key('files/ab/abcdeg'), Buffer.from('sibling'));
    await store().put(key('files/abc'), Buffer.from('shallow'));

    await expect(store().get(key('files/ab/abcdef'))).resolves.toEqual(Buffer.from('deep'));
    await expect(store().get(key('files/ab/abcdeg'))).resolves.toEqual(Buffer.from('sibling'));
    await expect(store().get(key('files/abc'))).resolves.toEqual(Buffer.from('shallow'));
    await expect(store().get(key('files/ab'))).resolves.toBeNull();
    await expect(store().createReadStream(key('files/ab'))).resolves.toBeNull();
    await expect(store().exists(key('files/ab'))).resolves.toBe(false);
    await expect(store().size(key('files/ab'))).resolves.toBeNull();
  });

  it('deletes a blob; deleting again, a missing key or a "folder" is fine', async () => {
    await store().put(key('files/ab/gone'), Buffer.from('x'));
    await store().put(key('files/ab/kept'), Buffer.from('y'));

    await expect(store().delete(key('files/ab/gone'))).resolves.toBeUndefined();

    await expect(store().exists(key('files/ab/gone'))).resolves.toBe(false);
    await expect(store().get(key('files/ab/gone'))).resolves.toBeNull();
    await expect(store().size(key('files/ab/gone'))).resolves.toBeNull();
    await expect(store().delete(key('files/ab/gone'))).resolves.toBeUndefined();
    await expect(store().delete(key('never/existed'))).resolves.toBeUndefined();
    await expect(store().delete(key('files/ab'))).resolves.toBeUndefined();
    await expect(store().get(key('files/ab/kept'))).resolves.toEqual(Buffer.from('y'));
  });

  it('stores nothing under the key when the input stream fails midway', async () => {
    const failure = new Error('upload connection reset');

    await expect(
      store().put(key('partial'), failingStream(['first part, ', 'second part'], failure)),
    ).rejects.toBe(failure);

    await expect(store().exists(key('partial'))).resolves.toBe(false);
    await expect(store().get(key('partial'))).resolves.toBeNull();
  });

  it('keeps the previous blob when a replacement fails midway', async () => {
    await store().put(key('doc'), Buffer.from('good version'));

    await expect(
      store().put(key('doc'), failingStream(['broken'], new Error('client went away'))),
    ).rejects.toThrow('client went away');

    await expect(store().get(key('doc'))).resolves.toEqual(Buffer.from('good version'));
  });

  it.each(['../escape', '/etc/passwd', '', 'files//ab', 'files/./ab', 'with space', 'caf\u00e9'])(
    'rejects the invalid key %j in every operation',
    async (invalid) => {
      const operations = [
        () => store().put(invalid, Buffer.from('x')),
        () => store().put(invalid, Readable.from(['x'])),
        () => store().get(invalid),
        () => store().createReadStream(invalid),
        () => store().exists(invalid),
        () => store().delete(invalid),
        () => store().size(invalid),
      ];
      for (const operation of operations) {
        await expect(operation()).rejects.toThrow(InvalidBlobKeyError);
      }
    },
  );
}
