import { open, rm, type FileHandle } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { promisify } from 'node:util';
import { createInflate, inflate, type Inflate } from 'node:zlib';
import {
  drained,
  IN_MEMORY_BYTES,
  ObjectWriter,
  openObject,
  readObject,
  writeObject,
  type ObjectType,
} from './loose-objects';
import { Turns } from './turns';

/*
 * Unpacks a pack file (gitformat-pack) into loose objects, as `git unpack-objects` does, so
 * that every object can be read on its own: whole when small (isomorphic-git reads commits,
 * trees and markdown so), as a stream when large. Objects larger than IN_MEMORY_BYTES are
 * inflated, resolved against their delta base and written in chunks, never whole.
 */

const TYPES: Record<number, ObjectType> = { 1: 'commit', 2: 'tree', 3: 'blob', 4: 'tag' };
const OFS_DELTA = 6;
const REF_DELTA = 7;
const READ_AHEAD = 1024 * 1024;
const STREAM_CHUNK = 256 * 1024;

const inflateAsync = promisify(inflate) as unknown as (
  data: Buffer,
  options: { info: true },
) => Promise<{ buffer: Buffer; engine: { bytesWritten: number } }>;

/** A pack that is not what Git's pack format says (truncated, corrupt, unknown). */
export class CorruptPackError extends Error {}

interface Entry {
  offset: number;
  /** Where its compressed data starts. */
  dataStart: number;
  /** Its size once inflated: the object's, or its delta's. */
  size: number;
  type: number;
  baseOffset?: number;
  baseOid?: string;
}

/** Stores every object of the pack at `packPath` in `gitdir`; returns how many there were. */
export async function unpackObjects(gitdir: string, packPath: string): Promise<number> {
  const pack = await PackFile.open(packPath);
  try {
    const head = await pack.read(0, 12);
    if (head.length < 12 || head.toString('latin1', 0, 4) !== 'PACK') {
      throw new CorruptPackError('The remote sent no pack.');
    }
    const version = head.readUInt32BE(4);
    if (version !== 2 && version !== 3) {
      throw new CorruptPackError(`The remote sent a pack of version ${version}.`);
    }
    const count = head.readUInt32BE(8);
    const turns = new Turns();
    /** Objects by their offset in the pack, once stored. */
    const stored = new Map<number, { oid: string; type: ObjectType }>();
    const types = new Map<string, ObjectType>();
    const deltas: Entry[] = [];
    let offset = 12;
    for (let i = 0; i < count; i++) {
      const entry = await readEntry(pack, offset);
      let consumed: number;
      const type = TYPES[entry.type];
      if (type) {
        let oid: string;
        if (entry.size <= IN_MEMORY_BYTES) {
          const { data, consumed: used } = await pack.inflate(entry.dataStart, entry.size);
          consumed = used;
          oid = await writeObject(gitdir, type, data);
        } else {
          const writer = new ObjectWriter(gitdir, type, entry.size);
          try {
            consumed = await pack.inflateStream(entry.dataStart, (chunk) => writer.write(chunk));
            oid = await writer.finish();
          } catch (error) {
            await writer.abort();
            throw error;
          }
        }
        stored.set(offset, { oid, type });
        types.set(oid, type);
      } else {
        // A delta is resolved once every object is stored: its base may come later.
        consumed =
          entry.size <= IN_MEMORY_BYTES
            ? (await pack.inflate(entry.dataStart, entry.size)).consumed
            : await pack.inflateStream(entry.dataStart, () => Promise.resolve());
        deltas.push(entry);
      }
      offset = entry.dataStart + consumed;
      await turns.maybe();
    }
    if (offset !== pack.size - 20) throw new CorruptPackError('The pack has trailing data.');

    let pending = deltas;
    while (pending.length > 0) {
      const waiting: Entry[] = [];
      for (const entry of pending) {
        const base =
          entry.baseOffset !== undefined
            ? stored.get(entry.baseOffset)
            : await baseByOid(gitdir, entry.baseOid!, types);
        if (!base) {
          waiting.push(entry);
          continue;
        }
        const oid = await resolveDelta(gitdir, pack, entry, base);
        stored.set(entry.offset, { oid, type: base.type });
        types.set(oid, base.type);
        await turns.maybe();
      }
      if (waiting.length === pending.length) {
        throw new CorruptPackError('The pack has deltas whose base is not in it.');
      }
      pending = waiting;
    }
    return count;
  } finally {
    await pack.close();
  }
}

/** A delta base named by oid: an object of the pack, or one stored before. */
async function baseByOid(
  gitdir: string,
  oid: string,
  types: Map<string, ObjectType>,
): Promise<{ oid: string; type: ObjectType } | undefined> {
  const known = types.get(oid);
  if (known) return { oid, type: known };
  try {
    const object = await openObject(gitdir, oid);
    object.content.destroy();
    return { oid, type: object.type };
  } catch {
    return undefined;
  }
}

/** The header of the entry at `offset`: type, inflated size, and its delta base. */
async function readEntry(pack: PackFile, offset: number): Promise<Entry> {
  const bytes = await pack.read(offset, 32);
  let at = 0;
  const next = () => {
    if (at >= bytes.length) throw new CorruptPackError('The pack is truncated.');
    return bytes[at++];
  };
  let byte = next();
  const type = (byte >> 4) & 7;
  let size = byte & 15;
  let scale = 16;
  while (byte & 0x80) {
    byte = next();
    size += (byte & 0x7f) * scale;
    scale *= 128;
  }
  const entry: Entry = { offset, dataStart: 0, size, type };
  if (type === OFS_DELTA) {
    byte = next();
    let distance = byte & 0x7f;
    while (byte & 0x80) {
      byte = next();
      distance = (distance + 1) * 128 + (byte & 0x7f);
    }
    entry.baseOffset = offset - distance;
    if (entry.baseOffset < 12) throw new CorruptPackError('The pack has a delta out of range.');
  } else if (type === REF_DELTA) {
    if (at + 20 > bytes.length) throw new CorruptPackError('The pack is truncated.');
    entry.baseOid = bytes.subarray(at, at + 20).toString('hex');
    at += 20;
  } else if (!TYPES[type]) {
    throw new CorruptPackError(`The pack has an object of unknown type ${type}.`);
  }
  entry.dataStart = offset + at;
  return entry;
}

/** Applies the delta at `entry` to its base; stores and returns the object it makes. */
async function resolveDelta(
  gitdir: string,
  pack: PackFile,
  entry: Entry,
  base: { oid: string; type: ObjectType },
): Promise<string> {
  if (entry.size <= IN_MEMORY_BYTES) {
    const { data: delta } = await pack.inflate(entry.dataStart, entry.size);
    const header = deltaHeader(delta);
    if (header.targetSize <= IN_MEMORY_BYTES && header.baseSize <= IN_MEMORY_BYTES) {
      const { data } = await readObject(gitdir, base.oid);
      return writeObject(gitdir, base.type, applyDelta(data, delta));
    }
    return resolveLarge(gitdir, base, header.targetSize, header.baseSize, new ByteReader([delta]));
  }
  // A large delta is inflated again from the pack as it is applied, a few chunks ahead.
  const chunks = new PassThrough({ highWaterMark: 4 * STREAM_CHUNK });
  const feeding = pack
    .inflateStream(entry.dataStart, async (chunk) => {
      if (!chunks.write(chunk)) await drained(chunks);
    })
    .then(
      () => chunks.end(),
      (error: Error) => chunks.destroy(error),
    );
  const reader = new ByteReader(chunks as AsyncIterable<Buffer>);
  try {
    const baseSize = await reader.varint();
    const targetSize = await reader.varint();
    return await resolveLarge(gitdir, base, targetSize, baseSize, reader, true);
  } finally {
    if (!chunks.destroyed) chunks.destroy(new Error('The delta was not read to its end.'));
    await feeding;
  }
}

/**
 * Applies a delta read from `reader` to a base that may be large (read from a raw copy in a
 * temporary file), writing the object it makes as it goes.
 */
async function resolveLarge(
  gitdir: string,
  base: { oid: string; type: ObjectType },
  targetSize: number,
  baseSize: number,
  reader: ByteReader,
  headerRead = false,
): Promise<string> {
  if (!headerRead) {
    await reader.varint();
    await reader.varint();
  }
  const source = await BaseSource.open(gitdir, base.oid, baseSize);
  const writer = new ObjectWriter(gitdir, base.type, targetSize);
  try {
    while (!(await reader.atEnd())) {
      const op = await reader.byte();
      if (op & 0x80) {
        let offset = 0;
        let size = 0;
        for (let bit = 0; bit < 4; bit++) {
          if (op & (1 << bit)) offset += (await reader.byte()) * 2 ** (8 * bit);
        }
        for (let bit = 0; bit < 3; bit++) {
          if (op & (0x10 << bit)) size += (await reader.byte()) * 2 ** (8 * bit);
        }
        if (size === 0) size = 0x10000;
        if (offset + size > baseSize) throw new CorruptPackError('A delta copies out of range.');
        for (let done = 0; done < size;) {
          const part = await source.read(offset + done, Math.min(STREAM_CHUNK, size - done));
          await writer.write(part);
          done += part.length;
        }
      } else if (op > 0) {
        await writer.write(await reader.bytes(op));
      } else {
        throw new CorruptPackError('A delta has an unknown instruction.');
      }
    }
    return await writer.finish();
  } catch (error) {
    await writer.abort();
    throw error;
  } finally {
    await source.close();
  }
}

/** A delta's sizes: of its base and of the object it makes. */
function deltaHeader(delta: Buffer): { baseSize: number; targetSize: number; at: number } {
  let at = 0;
  const varint = () => {
    let value = 0;
    let scale = 1;
    let byte: number;
    do {
      if (at >= delta.length) throw new CorruptPackError('A delta is truncated.');
      byte = delta[at++];
      value += (byte & 0x7f) * scale;
      scale *= 128;
    } while (byte & 0x80);
    return value;
  };
  const baseSize = varint();
  const targetSize = varint();
  return { baseSize, targetSize, at };
}

/** The object a delta makes of `base`, both in memory. */
export function applyDelta(base: Buffer, delta: Buffer): Buffer {
  const { baseSize, targetSize, at: start } = deltaHeader(delta);
  if (baseSize !== base.length) throw new CorruptPackError('A delta does not fit its base.');
  const target = Buffer.alloc(targetSize);
  let out = 0;
  let at = start;
  while (at < delta.length) {
    const op = delta[at++];
    if (op & 0x80) {
      let offset = 0;
      let size = 0;
      for (let bit = 0; bit < 4; bit++) if (op & (1 << bit)) offset += delta[at++] * 2 ** (8 * bit);
      for (let bit = 0; bit < 3; bit++)
        if (op & (0x10 << bit)) size += delta[at++] * 2 ** (8 * bit);
      if (size === 0) size = 0x10000;
      if (offset + size > base.length || out + size > targetSize) {
        throw new CorruptPackError('A delta copies out of range.');
      }
      base.copy(target, out, offset, offset + size);
      out += size;
    } else if (op > 0) {
      if (at + op > delta.length || out + op > targetSize) {
        throw new CorruptPackError('A delta is truncated.');
      }
      delta.copy(target, out, at, at + op);
      out += op;
      at += op;
    } else {
      throw new CorruptPackError('A delta has an unknown instruction.');
    }
  }
  if (out !== targetSize) throw new CorruptPackError('A delta makes an object of the wrong size.');
  return target;
}

/** Bytes of a stream of chunks, read a few at a time. */
class ByteReader {
  private chunk: Buffer = Buffer.alloc(0);
  private at = 0;
  private readonly chunks: AsyncIterator<Buffer>;

  constructor(source: Iterable<Buffer> | AsyncIterable<Buffer>) {
    this.chunks =
      Symbol.asyncIterator in source
        ? source[Symbol.asyncIterator]()
        : (async function* () {
            yield* source;
          })();
  }

  async atEnd(): Promise<boolean> {
    while (this.at >= this.chunk.length) {
      const next = await this.chunks.next();
      if (next.done) return true;
      this.chunk = next.value;
      this.at = 0;
    }
    return false;
  }

  async byte(): Promise<number> {
    if (await this.atEnd()) throw new CorruptPackError('A delta is truncated.');
    return this.chunk[this.at++];
  }

  async bytes(count: number): Promise<Buffer> {
    const parts: Buffer[] = [];
    let missing = count;
    while (missing > 0) {
      if (await this.atEnd()) throw new CorruptPackError('A delta is truncated.');
      const take = Math.min(missing, this.chunk.length - this.at);
      parts.push(this.chunk.subarray(this.at, this.at + take));
      this.at += take;
      missing -= take;
    }
    return parts.length === 1 ? parts[0] : Buffer.concat(parts, count);
  }

  async varint(): Promise<number> {
    let value = 0;
    let scale = 1;
    let byte: number;
    do {
      byte = await this.byte();
      value += (byte & 0x7f) * scale;
      scale *= 128;
    } while (byte & 0x80);
    return value;
  }
}

/** A delta's base, read at any offset: in memory when small, else from a raw copy on disk. */
class BaseSource {
  private constructor(
    private readonly data: Buffer | undefined,
    private readonly file: { handle: FileHandle; path: string } | undefined,
  ) {}

  static async open(gitdir: string, oid: string, size: number): Promise<BaseSource> {
    if (size <= IN_MEMORY_BYTES) {
      const { data } = await readObject(gitdir, oid);
      if (data.length !== size) throw new CorruptPackError('A delta does not fit its base.');
      return new BaseSource(data, undefined);
    }
    const object = await openObject(gitdir, oid);
    if (object.size !== size) {
      object.content.destroy();
      throw new CorruptPackError('A delta does not fit its base.');
    }
    const path = join(gitdir, 'objects', `tmp-base-${randomUUID()}`);
    const handle = await open(path, 'w+');
    try {
      let position = 0;
      for await (const chunk of object.content) {
        const buffer = chunk as Buffer;
        await handle.write(buffer, 0, buffer.length, position);
        position += buffer.length;
      }
    } catch (error) {
      await handle.close();
      await rm(path, { force: true });
      throw error;
    }
    return new BaseSource(undefined, { handle, path });
  }

  async read(offset: number, length: number): Promise<Buffer> {
    if (this.data) return this.data.subarray(offset, offset + length);
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await this.file!.handle.read(buffer, 0, length, offset);
    if (bytesRead !== length) throw new CorruptPackError('A delta does not fit its base.');
    return buffer;
  }

  async close(): Promise<void> {
    if (!this.file) return;
    await this.file.handle.close();
    await rm(this.file.path, { force: true });
  }
}

/** The pack file, read at any position through a window that makes sequential reads cheap. */
class PackFile {
  private window: Buffer = Buffer.alloc(0);
  private windowStart = 0;

  private constructor(
    private readonly handle: FileHandle,
    readonly size: number,
  ) {}

  static async open(path: string): Promise<PackFile> {
    const handle = await open(path, 'r');
    return new PackFile(handle, (await handle.stat()).size);
  }

  close(): Promise<void> {
    return this.handle.close();
  }

  /** Up to `length` bytes at `position` (fewer at the end of the objects). */
  async read(position: number, length: number): Promise<Buffer> {
    const end = Math.min(position + length, this.size - 20);
    if (position >= end) return Buffer.alloc(0);
    const windowEnd = this.windowStart + this.window.length;
    if (position >= this.windowStart && end <= windowEnd) {
      return this.window.subarray(position - this.windowStart, end - this.windowStart);
    }
    const size = Math.min(Math.max(end - position, READ_AHEAD), this.size - 20 - position);
    const buffer = Buffer.alloc(size);
    const { bytesRead } = await this.handle.read(buffer, 0, size, position);
    this.window = buffer.subarray(0, bytesRead);
    this.windowStart = position;
    return this.window.subarray(0, Math.min(end - position, bytesRead));
  }

  /** Inflates the `size` bytes of data at `start` whole; `consumed`: its compressed length. */
  async inflate(start: number, size: number): Promise<{ data: Buffer; consumed: number }> {
    let length = size + (size >> 10) + 64;
    for (;;) {
      const input = await this.read(start, length);
      try {
        const { buffer, engine } = await inflateAsync(input, { info: true });
        if (buffer.length !== size) throw new CorruptPackError('The pack has a corrupt object.');
        return { data: buffer, consumed: engine.bytesWritten };
      } catch (error) {
        const truncated = (error as { code?: string }).code === 'Z_BUF_ERROR';
        if (!truncated || input.length < length) {
          throw error instanceof CorruptPackError
            ? error
            : new CorruptPackError('The pack has a corrupt object.');
        }
        length *= 2;
      }
    }
  }

  /**
   * Inflates the data at `start` chunk by chunk into `sink`, in memory a chunk at a time;
   * returns its compressed length.
   */
  async inflateStream(start: number, sink: (chunk: Buffer) => Promise<void>): Promise<number> {
    const inflater: Inflate = createInflate();
    let ended = false;
    const end = new Promise<void>((resolve) =>
      inflater.once('end', () => {
        ended = true;
        resolve();
      }),
    );
    const reading = (async () => {
      for await (const chunk of inflater) await sink(chunk as Buffer);
    })();
    reading.catch(() => undefined);
    try {
      let position = start;
      while (!ended) {
        const chunk = await this.read(position, STREAM_CHUNK);
        if (chunk.length === 0) {
          inflater.end();
          break;
        }
        position += chunk.length;
        if (!inflater.write(chunk)) await Promise.race([drained(inflater), end]);
      }
      await reading;
      if (!ended) throw new CorruptPackError('The pack is truncated.');
      return inflater.bytesWritten;
    } catch (error) {
      inflater.destroy();
      // zlib's errors say the data is not what the pack says; the sink's are its own.
      const corrupt = /^Z_/.test((error as { code?: string }).code ?? '');
      throw corrupt ? new CorruptPackError('The pack has a corrupt object.') : error;
    }
  }
}
