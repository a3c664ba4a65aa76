import { unzipSync } from 'fflate';
import { posix } from 'node:path';

/** Limits on what one archive may expand to (a zip bomb stops at them). */
export const ZIP_LIMITS = {
  entries: 20_000,
  fileBytes: 100 * 1024 * 1024,
  totalBytes: 1024 * 1024 * 1024,
};

export function isZip(name: string, bytes: Buffer, contentType?: string): boolean {
  // Word documents and their kind are zips too, read as what they are.
  if (/\.(docx|xlsx|pptx|odt|epub)$/i.test(name)) return false;
  return (
    /\.zip$/i.test(name) ||
    /zip/i.test(contentType ?? '') ||
    (bytes.length >= 4 && bytes.readUInt32LE(0) === 0x04034b50)
  );
}

/**
 * The files of a zip archive (folders left out), by their path in it, within ZIP_LIMITS;
 * `warn` names what is left out. Zips inside it (Notion splits large exports so) are expanded
 * in place, one level deep.
 */
export function unzip(
  bytes: Buffer,
  warn: (message: string) => void,
  nested = true,
): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  let total = 0;
  let count = 0;
  const entries = unzipSync(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length), {
    filter: (file) => {
      if (file.name.endsWith('/')) return false;
      count++;
      if (count > ZIP_LIMITS.entries) {
        if (count === ZIP_LIMITS.entries + 1)
          warn(`The archive has more than ${ZIP_LIMITS.entries} files: the rest are left out.`);
        return false;
      }
      if (
        file.originalSize > ZIP_LIMITS.fileBytes ||
        total + file.originalSize > ZIP_LIMITS.totalBytes
      ) {
        warn(`${file.name}: too large to import, left out.`);
        return false;
      }
      total += file.originalSize;
      return true;
    },
  });
  for (const [name, data] of Object.entries(entries)) {
    const path = cleanArchivePath(name);
    if (!path || isJunk(path)) continue;
    const buffer = Buffer.from(data.buffer, data.byteOffset, data.length);
    if (nested && /\.zip$/i.test(path)) {
      const dir = posix.dirname(path) === '.' ? '' : `${posix.dirname(path)}/`;
      try {
        for (const [inner, innerData] of unzip(buffer, warn, false))
          files.set(`${dir}${inner}`, innerData);
      } catch {
        warn(`${path}: not a readable zip archive, left out.`);
      }
      continue;
    }
    files.set(path, buffer);
  }
  return files;
}

/** A path inside an archive or upload: `/` separators, no `.`/`..` segments or leading `/`. */
export function cleanArchivePath(name: string): string | undefined {
  const segments: string[] = [];
  for (const segment of name.replace(/\\/g, '/').split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') return undefined;
    segments.push(segment);
  }
  return segments.length > 0 ? segments.join('/') : undefined;
}

/** Files that archivers and operating systems add: never content. */
export function isJunk(path: string): boolean {
  return (
    path.startsWith('__MACOSX/') ||
    /(^|\/)(\.DS_Store|Thumbs\.db|desktop\.ini)$/i.test(path) ||
    path
      .split('/')
      .some(
        (segment) =>
          segment.startsWith('.') && segment !== '.gitbook' && segment !== '.gitbook.yaml',
      )
  );
}
