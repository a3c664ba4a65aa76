import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { promisify } from 'node:util';
import { constants, createDeflate, deflate } from 'node:zlib';
import {
  drained,
  IN_MEMORY_BYTES,
  objectHeader,
  openObject,
  readObject,
  type ObjectType,
} from './loose-objects';
import { Turns } from './turns';

/*
 * Writes a pack (gitformat-pack, version 2, no deltas) of loose objects to a file: what a push
 * sends. Large objects are compressed into it as they are read, never held whole.
 */

const TYPE_CODES: Record<ObjectType, number> = { commit: 1, tree: 2, blob: 3, tag: 4 };
const deflateAsync = promisify(deflate);
const LEVEL = { level: constants.Z_BEST_SPEED };

/** Writes the pack of `oids` (stored in `gitdir`) to `path`. */
export async function writePackFile(
  gitdir: string,
  oids: readonly string[],
  path: string,
): Promise<void> {
  const hash = createHash('sha1');
  const file = createWriteStream(path);
  const closed = new Promise<void>((resolve, reject) => {
    file.once('close', resolve);
    file.once('error', reject);
  });
  closed.catch(() => undefined);
  const write = async (chunk: Buffer) => {
    hash.update(chunk);
    if (!file.write(chunk)) await drained(file);
  };
  const turns = new Turns();
  try {
    const head = Buffer.alloc(12);
    head.write('PACK', 0, 'latin1');
    head.writeUInt32BE(2, 4);
    head.writeUInt32BE(oids.length, 8);
    await write(head);
    for (const oid of oids) {
      const { type, size } = await objectHeader(gitdir, oid);
      await write(entryHeader(type, size));
      if (size <= IN_MEMORY_BYTES) {
        const { data } = await readObject(gitdir, oid);
        await write(await deflateAsync(data, LEVEL));
      } else {
        const object = await openObject(gitdir, oid);
        const deflater = createDeflate(LEVEL);
        object.content.on('error', (error) => deflater.destroy(error));
        object.content.pipe(deflater);
        for await (const chunk of deflater) await write(chunk as Buffer);
      }
      await turns.maybe();
    }
    const trailer = hash.digest();
    if (!file.write(trailer)) await drained(file);
    file.end();
    await closed;
  } catch (error) {
    file.destroy();
    throw error;
  }
}

/** An entry's header: its type and size (little-endian groups of 7 bits after the first 4). */
function entryHeader(type: ObjectType, size: number): Buffer {
  const bytes: number[] = [];
  let rest = Math.floor(size / 16);
  let byte = (TYPE_CODES[type] << 4) | (size % 16);
  while (rest > 0) {
    bytes.push(byte | 0x80);
    byte = rest % 128;
    rest = Math.floor(rest / 128);
  }
  bytes.push(byte);
  return Buffer.from(bytes);
}
