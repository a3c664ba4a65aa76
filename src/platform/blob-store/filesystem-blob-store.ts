import type { OnApplicationShutdown } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { mkdir, open, readFile, rename, rm, stat, unlink, type FileHandle } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { assertValidKey, InvalidBlobKeyError } from './blob-key';
import { BlobStore } from './blob-store';

export { InvalidBlobKeyError } from './blob-key';

// Keys must start with a letter or digit, so no key can ever name this directory.
const TEMP_DIR = '.tmp';
// Errors that mean "there is no blob file at this path".
const ABSENT_CODES = new Set(['ENOENT', 'ENOTDIR', 'EISDIR']);

/**
 * Stores each blob as a file at `<root>/<key>`, so keys such as `files/ab/abcdef…` shard naturally
 * into directories. Writes go to a temporary file under the same root and are renamed into place,
 * which is atomic on one filesystem.
 */
export class FilesystemBlobStore extends BlobStore implements OnApplicationShutdown {
  private readonly root: string;

  /** `temporary`: the root is this process's alone (DATA_DIR=memory) and goes when it stops. */
  constructor(
    root: string,
    private readonly temporary = false,
  ) {
    super();
    this.root = resolve(root);
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.temporary) await rm(this.root, { recursive: true, force: true });
  }

  async put(key: string, data: Buffer | NodeJS.ReadableStream): Promise<{ size: number }> {
    const target = this.pathFor(key);
    const tempDir = join(this.root, TEMP_DIR);
    await mkdir(tempDir, { recursive: true });
    const temp = join(tempDir, randomUUID());
    try {
      const size = await writeDurably(temp, data);
      await mkdir(dirname(target), { recursive: true });
      await rename(temp, target);
      return { size };
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }

  async get(key: string): Promise<Buffer | null> {
    return orNullIfAbsent(readFile(this.pathFor(key)));
  }

  async createReadStream(key: string): Promise<NodeJS.ReadableStream | null> {
    // Opening first, rather than checking then opening, means a blob deleted in between is
    // reported as absent instead of surfacing as a stream error later.
    const handle = await orNullIfAbsent(open(this.pathFor(key), 'r'));
    if (!handle) return null;
    if (!(await handle.stat()).isFile()) {
      await handle.close();
      return null;
    }
    return handle.createReadStream();
  }

  async exists(key: string): Promise<boolean> {
    return (await this.size(key)) !== null;
  }

  async delete(key: string): Promise<void> {
    await orNullIfAbsent(unlink(this.pathFor(key)));
  }

  async size(key: string): Promise<number | null> {
    const stats = await orNullIfAbsent(stat(this.pathFor(key)));
    return stats?.isFile() ? stats.size : null;
  }

  private pathFor(key: string): string {
    assertValidKey(key);
    const path = join(this.root, key);
    // Unreachable given the key rules; kept so a future change to them cannot escape the root.
    if (!path.startsWith(this.root + sep)) throw new InvalidBlobKeyError(key, 'escapes the root');
    return path;
  }
}

/** Writes `data` to a new file at `path` and flushes it to disk; returns the byte count. */
async function writeDurably(path: string, data: Buffer | NodeJS.ReadableStream): Promise<number> {
  const handle = await open(path, 'wx');
  try {
    const size = Buffer.isBuffer(data)
      ? await writeAll(handle, data)
      : await writeStream(handle, data);
    // Without this, a crash soon after the rename could leave an empty or partial file in place.
    await handle.datasync();
    return size;
  } finally {
    await handle.close();
  }
}

async function writeStream(handle: FileHandle, stream: NodeJS.ReadableStream): Promise<number> {
  let size = 0;
  for await (const chunk of stream) {
    size += await writeAll(handle, typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  }
  return size;
}

async function writeAll(handle: FileHandle, buffer: Buffer): Promise<number> {
  let offset = 0;
  while (offset < buffer.length) {
    const { bytesWritten } = await handle.write(buffer, offset, buffer.length - offset);
    offset += bytesWritten;
  }
  return buffer.length;
}

async function orNullIfAbsent<T>(operation: Promise<T>): Promise<T | null> {
  try {
    return await operation;
  } catch (error) {
    if (ABSENT_CODES.has((error as NodeJS.ErrnoException).code ?? '')) return null;
    throw error;
  }
}
