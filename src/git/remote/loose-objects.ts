import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { constants, createDeflate, createInflate, deflate, inflate, inflateSync } from 'node:zlib';

/*
 * Git's loose objects (`objects/ab/cdef…`: zlib of `<type> <size>\0<content>`, named by the
 * SHA-1 of that), which isomorphic-git reads as well. Objects up to IN_MEMORY_BYTES are read
 * and written whole; larger ones only as streams, so that a file of any size passes through a
 * bounded amount of memory.
 */

export type ObjectType = 'commit' | 'tree' | 'blob' | 'tag';

/** Objects this large or smaller are held whole; larger ones are streamed. */
export const IN_MEMORY_BYTES = 1024 * 1024;

const deflateAsync = promisify(deflate);
const inflateAsync = promisify(inflate);
// Loose objects live for one operation: fast compression is worth more than small files.
const LEVEL = { level: constants.Z_BEST_SPEED };

export function loosePath(gitdir: string, oid: string): string {
  return join(gitdir, 'objects', oid.slice(0, 2), oid.slice(2));
}

function header(type: ObjectType, size: number): Buffer {
  return Buffer.from(`${type} ${size}\0`);
}

/** Whether the object is stored. */
export async function hasObject(gitdir: string, oid: string): Promise<boolean> {
  try {
    await stat(loosePath(gitdir, oid));
    return true;
  } catch {
    return false;
  }
}

/** Stores a whole object; returns its oid. Zlib works on the thread pool, not the event loop. */
export async function writeObject(gitdir: string, type: ObjectType, data: Buffer): Promise<string> {
  const head = header(type, data.length);
  const oid = createHash('sha1').update(head).update(data).digest('hex');
  if (await hasObject(gitdir, oid)) return oid;
  const compressed = await deflateAsync(Buffer.concat([head, data]), LEVEL);
  await placeFile(gitdir, oid, (temp) => writeFile(temp, compressed));
  return oid;
}

/**
 * Writes an object of known type and size from the chunks given to `write`, hashing and
 * compressing them as they come; `finish` checks the size and names it by its oid.
 */
export class ObjectWriter {
  private readonly hash = createHash('sha1');
  private readonly deflater = createDeflate(LEVEL);
  private readonly temp: string;
  private readonly done: Promise<void>;
  private written = 0;

  constructor(
    private readonly gitdir: string,
    type: ObjectType,
    private readonly size: number,
  ) {
    this.temp = join(gitdir, 'objects', `tmp-${randomUUID()}`);
    this.done = pipeline(this.deflater, createWriteStream(this.temp));
    // The pipeline's failure is read by finish(); until then it must not go unhandled.
    this.done.catch(() => undefined);
    const head = header(type, size);
    this.hash.update(head);
    this.deflater.write(head);
  }

  async write(chunk: Buffer): Promise<void> {
    if (chunk.length === 0) return;
    this.written += chunk.length;
    if (this.written > this.size) throw new Error('An object is longer than its header says.');
    this.hash.update(chunk);
    if (!this.deflater.write(chunk)) await drained(this.deflater);
  }

  async finish(): Promise<string> {
    this.deflater.end();
    await this.done;
    if (this.written !== this.size) {
      await rm(this.temp, { force: true });
      throw new Error('An object is shorter than its header says.');
    }
    const oid = this.hash.digest('hex');
    const target = loosePath(this.gitdir, oid);
    await mkdir(join(target, '..'), { recursive: true });
    await rename(this.temp, target);
    return oid;
  }

  async abort(): Promise<void> {
    this.deflater.destroy();
    await this.done.catch(() => undefined);
    await rm(this.temp, { force: true });
  }
}

/** Resolves once `stream` takes writes again; rejects when it fails first. */
export function drained(stream: NodeJS.WritableStream): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onDrain = () => {
      stream.off('error', onError);
      resolve();
    };
    const onError = (error: Error) => {
      stream.off('drain', onDrain);
      reject(error);
    };
    stream.once('drain', onDrain);
    stream.once('error', onError);
  });
}

/** Stores an object from a stream of its content (of `size` bytes); returns its oid. */
export async function writeObjectFrom(
  gitdir: string,
  type: ObjectType,
  size: number,
  content: AsyncIterable<Buffer | Uint8Array>,
): Promise<string> {
  const writer = new ObjectWriter(gitdir, type, size);
  try {
    for await (const chunk of content) await writer.write(Buffer.from(chunk));
    return await writer.finish();
  } catch (error) {
    await writer.abort();
    throw error;
  }
}

/** An object's type and size, from the start of its file. */
export async function objectHeader(
  gitdir: string,
  oid: string,
): Promise<{ type: ObjectType; size: number }> {
  const handle = await open(loosePath(gitdir, oid), 'r');
  try {
    const start = Buffer.alloc(256);
    const { bytesRead } = await handle.read(start, 0, start.length, 0);
    const head = inflateSync(start.subarray(0, bytesRead), {
      finishFlush: constants.Z_SYNC_FLUSH,
    });
    const end = head.indexOf(0);
    if (end < 0) throw new Error(`Object ${oid} is corrupt.`);
    return parseHeader(head.subarray(0, end), oid);
  } finally {
    await handle.close();
  }
}

/** A whole object (for objects up to IN_MEMORY_BYTES: commits, trees, markdown). */
export async function readObject(
  gitdir: string,
  oid: string,
): Promise<{ type: ObjectType; data: Buffer }> {
  const raw = await inflateAsync(await readFile(loosePath(gitdir, oid)));
  const end = raw.indexOf(0);
  const { type, size } = parseHeader(raw.subarray(0, end), oid);
  const data = raw.subarray(end + 1);
  if (data.length !== size) throw new Error(`Object ${oid} is corrupt.`);
  return { type, data };
}

/**
 * An object's type and size and a stream of its content, inflated as it is read. The stream
 * must be read to its end or destroyed.
 */
export async function openObject(
  gitdir: string,
  oid: string,
): Promise<{ type: ObjectType; size: number; content: Readable }> {
  const file = createReadStream(loosePath(gitdir, oid));
  const inflater = createInflate();
  file.on('error', (error) => inflater.destroy(error));
  inflater.on('close', () => file.destroy());
  file.pipe(inflater);
  const chunks = inflater[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let head = Buffer.alloc(0);
  try {
    for (;;) {
      const next = await chunks.next();
      if (next.done) break;
      head = Buffer.concat([head, next.value]);
      const end = head.indexOf(0);
      if (end < 0) {
        if (head.length > 64) break;
        continue;
      }
      const { type, size } = parseHeader(head.subarray(0, end), oid);
      const first = head.subarray(end + 1);
      async function* rest(): AsyncGenerator<Buffer> {
        try {
          if (first.length > 0) yield first;
          for (;;) {
            const chunk = await chunks.next();
            if (chunk.done) return;
            yield chunk.value;
          }
        } finally {
          inflater.destroy();
        }
      }
      return { type, size, content: Readable.from(rest(), { objectMode: false }) };
    }
  } catch (error) {
    inflater.destroy();
    throw error;
  }
  inflater.destroy();
  throw new Error(`Object ${oid} is corrupt.`);
}

function parseHeader(head: Buffer, oid: string): { type: ObjectType; size: number } {
  const match = /^(commit|tree|blob|tag) (\d+)$/.exec(head.toString('latin1'));
  if (!match) throw new Error(`Object ${oid} is corrupt.`);
  return { type: match[1] as ObjectType, size: Number(match[2]) };
}

/** Writes a file through `write` at a temporary path, then moves it to the object's place. */
async function placeFile(
  gitdir: string,
  oid: string,
  write: (temp: string) => Promise<void>,
): Promise<void> {
  const temp = join(gitdir, 'objects', `tmp-${randomUUID()}`);
  try {
    await write(temp);
    const target = loosePath(gitdir, oid);
    await mkdir(join(target, '..'), { recursive: true });
    await rename(temp, target);
  } finally {
    await rm(temp, { force: true });
  }
}
