import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';

/**
 * A documentation repository of any size in GitBook's Git Sync layout, written straight into a
 * bare repository with `git fast-import` (seconds for 10,000 pages): SUMMARY.md with parts of
 * ten pages of nine subpages each, every page a few paragraphs with links to its neighbours,
 * and images in `.gitbook/assets/` (distinct PNGs of a few kilobytes to tens), one shown by
 * every fifth page. Deterministic for given sizes.
 */
export interface ScaleRepository {
  /** Markdown pages (the home page included). */
  pages: number;
  /** Groups of the summary (`## Part n`): pages of the space too. */
  groups: number;
  files: number;
  /** Bytes of every file together. */
  bytes: number;
}

export function writeScaleRepository(
  bareRepository: string,
  size: { pages: number; files: number; extra?: Record<string, Buffer> },
): ScaleRepository {
  const files = new Map<string, Buffer>();
  const summary: string[] = ['# Table of contents', '', '* [Home](README.md)'];
  let page = 0;
  const pathOf = (n: number) => {
    const part = Math.floor(n / 100);
    const chapter = Math.floor((n % 100) / 10);
    const leaf = n % 10;
    return leaf === 0
      ? `part-${part}/chapter-${chapter}/README.md`
      : `part-${part}/chapter-${chapter}/page-${leaf}.md`;
  };
  const relative = (from: string, to: string) => {
    const up = from.split('/').length - 1;
    return `${'../'.repeat(up)}${to}`;
  };
  for (; page < size.pages; page++) {
    const path = pathOf(page);
    const part = Math.floor(page / 100);
    if (page % 100 === 0) summary.push('', `## Part ${part}`, '');
    const depth = page % 10 === 0 ? '' : '  ';
    summary.push(`${depth}* [Page ${page}](${path})`);
    const next = page + 1 < size.pages ? pathOf(page + 1) : pathOf(0);
    const image =
      page % 5 === 0 && size.files > 0
        ? `\n![Figure ${page}](${relative(path, `.gitbook/assets/image-${(page / 5) % size.files}.png`)})\n`
        : '';
    files.set(
      path,
      Buffer.from(
        `# Page ${page}\n\n` +
          `Page ${page} explains one thing in part ${part} of the documentation, in a few ` +
          `sentences that a search can find: configuration, installation, and usage.\n\n` +
          `## Details\n\n` +
          `- Step one of ${page}\n- Step two of ${page}\n- See [the next page](${relative(path, next)})\n` +
          image +
          `\n\`\`\`bash\necho "page ${page}"\n\`\`\`\n`,
      ),
    );
  }
  for (let f = 0; f < size.files; f++) {
    files.set(`.gitbook/assets/image-${f}.png`, png(f, 2048 + ((f * 7919) % 30_000)));
  }
  for (const [path, data] of Object.entries(size.extra ?? {})) files.set(path, data);
  files.set('SUMMARY.md', Buffer.from(`${summary.join('\n')}\n`));
  files.set('README.md', Buffer.from('# Home\n\nThe documentation.\n'));

  const chunks: Buffer[] = [];
  let mark = 0;
  const marks = new Map<string, number>();
  for (const [path, data] of files) {
    marks.set(path, ++mark);
    chunks.push(Buffer.from(`blob\nmark :${mark}\ndata ${data.length}\n`), data, Buffer.from('\n'));
  }
  const message = 'Documentation\n';
  chunks.push(
    Buffer.from(
      `commit refs/heads/main\ncommitter Tester <tester@example.com> 1767225600 +0000\n` +
        `data ${Buffer.byteLength(message)}\n${message}`,
    ),
  );
  for (const [path, id] of marks) chunks.push(Buffer.from(`M 100644 :${id} ${path}\n`));
  chunks.push(Buffer.from('\n'));
  execFileSync('git', ['fast-import', '--quiet'], {
    cwd: bareRepository,
    input: Buffer.concat(chunks),
    maxBuffer: 64 * 1024 * 1024,
  });
  return {
    pages: size.pages + 1,
    groups: Math.ceil(size.pages / 100),
    files: size.files + Object.keys(size.extra ?? {}).length,
    bytes: [...files.values()].reduce((sum, data) => sum + data.length, 0),
  };
}

/** A valid PNG of about `bytes` bytes whose pixels are noise: every one different. */
function png(seed: number, bytes: number): Buffer {
  const width = Math.max(1, Math.floor(Math.sqrt(bytes / 3)));
  const raw = Buffer.alloc((width * 3 + 1) * width);
  let state = createHash('sha256').update(String(seed)).digest();
  for (let at = 0; at < raw.length; at += 32) {
    state.copy(raw, at);
    state = createHash('sha256').update(state).digest();
  }
  for (let row = 0; row < width; row++) raw[row * (width * 3 + 1)] = 0;
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(width, 4);
  header[8] = 8;
  header[9] = 2;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 1 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(data: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of data) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
