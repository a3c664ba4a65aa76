import { readdir, rm, rmdir } from 'node:fs/promises';
import { join } from 'node:path';

/** How many files of a directory are removed at once. */
const WIDTH = 16;

/**
 * Removes a directory and what it holds a few files at a time, one directory after another.
 *
 * `rm(path, { recursive: true })` queues an unlink for every file at once on libuv's thread
 * pool (four threads), which the process's other file, zlib and crypto work shares: removing a
 * Git workspace of 12,000 loose objects held it for more than a second, and the API's
 * compressed responses waited behind it.
 */
export async function removeTree(path: string): Promise<void> {
  let entries;
  try {
    entries = await readdir(path, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return;
    if (code === 'ENOTDIR') return rm(path, { force: true });
    throw error;
  }
  const files = entries.filter((entry) => !entry.isDirectory());
  for (let i = 0; i < files.length; i += WIDTH) {
    await Promise.all(
      files.slice(i, i + WIDTH).map((file) => rm(join(path, file.name), { force: true })),
    );
  }
  for (const directory of entries.filter((entry) => entry.isDirectory())) {
    await removeTree(join(path, directory.name));
  }
  await rmdir(path);
}
