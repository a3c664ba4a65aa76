'use strict';
/**
 * A documentation repository generated for the benches that need one of a given size
 * (git-import-scale.js, answers-latency.js): GitBook's Git Sync layout, pages in parts of ten
 * chapters of ten, each a few paragraphs with a link to the next page, and PNG images.
 */
const { execFileSync } = require('node:child_process');
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { deflateSync } = require('node:zlib');

/**
 * A repository in GitBook's Git Sync layout, written into a bare repository by
 * `git fast-import` (the same shape as the tests' test/helpers/git-scale-repository.ts).
 */
function writeRepository(bare, size) {
  const files = new Map();
  const summary = ['# Table of contents', '', '* [Home](README.md)'];
  const pathOf = (n) => {
    const part = Math.floor(n / 100);
    const chapter = Math.floor((n % 100) / 10);
    const leaf = n % 10;
    return leaf === 0
      ? `part-${part}/chapter-${chapter}/README.md`
      : `part-${part}/chapter-${chapter}/page-${leaf}.md`;
  };
  const relative = (from, to) => `${'../'.repeat(from.split('/').length - 1)}${to}`;
  for (let page = 0; page < size.pages; page++) {
    const file = pathOf(page);
    const part = Math.floor(page / 100);
    if (page % 100 === 0) summary.push('', `## Part ${part}`, '');
    summary.push(`${page % 10 === 0 ? '' : '  '}* [Page ${page}](${file})`);
    const next = pathOf(page + 1 < size.pages ? page + 1 : 0);
    const image =
      page % 5 === 0 && size.files > 0
        ? `\n![Figure ${page}](${relative(file, `.gitbook/assets/image-${(page / 5) % size.files}.png`)})\n`
        : '';
    files.set(
      file,
      Buffer.from(
        `# Page ${page}\n\nPage ${page} explains one thing in part ${part} of the documentation, ` +
          `in a few sentences that a search can find: configuration, installation, and usage.\n\n` +
          `## Details\n\n- Step one of ${page}\n- Step two of ${page}\n` +
          `- See [the next page](${relative(file, next)})\n${image}\n` +
          `\`\`\`bash\necho "page ${page}"\n\`\`\`\n`,
      ),
    );
  }
  for (let f = 0; f < size.files; f++) {
    files.set(`.gitbook/assets/image-${f}.png`, png(f, 2048 + ((f * 7919) % 30_000)));
  }
  for (const [name, data] of Object.entries(size.extra ?? {})) files.set(name, data);
  files.set('SUMMARY.md', Buffer.from(`${summary.join('\n')}\n`));
  files.set('README.md', Buffer.from('# Home\n\nThe documentation.\n'));
  const stream = path.join(os.tmpdir(), `bindery-bench-fast-import-${process.pid}-${Date.now()}`);
  const out = fs.openSync(stream, 'w');
  let mark = 0;
  const marks = new Map();
  for (const [name, data] of files) {
    marks.set(name, ++mark);
    fs.writeSync(out, `blob\nmark :${mark}\ndata ${data.length}\n`);
    fs.writeSync(out, data);
    fs.writeSync(out, '\n');
  }
  fs.writeSync(
    out,
    'commit refs/heads/main\ncommitter Bench <bench@example.com> 1767225600 +0000\n' +
      'data 14\nDocumentation\n',
  );
  for (const [name, id] of marks) fs.writeSync(out, `M 100644 :${id} ${name}\n`);
  fs.writeSync(out, '\n');
  fs.closeSync(out);
  try {
    execFileSync('git', ['fast-import', '--quiet'], {
      cwd: bare,
      stdio: [fs.openSync(stream, 'r'), 'ignore', 'inherit'],
    });
  } finally {
    fs.rmSync(stream, { force: true });
  }
  return {
    pages: size.pages + 1,
    groups: Math.ceil(size.pages / 100),
    files: size.files + Object.keys(size.extra ?? {}).length,
    bytes: [...files.values()].reduce((sum, data) => sum + data.length, 0),
  };
}

/** `bytes` of noise (incompressible), the same for the same name. */
function noise(name, bytes) {
  const data = Buffer.alloc(bytes);
  let state = createHash('sha256').update(name).digest();
  for (let at = 0; at < data.length; at += 32) {
    state.copy(data, at);
    state = createHash('sha256').update(state).digest();
  }
  return data;
}

/** A valid PNG of about `bytes` bytes of noise. */
function png(seed, bytes) {
  const width = Math.max(1, Math.floor(Math.sqrt(bytes / 3)));
  const raw = noise(`image-${seed}`, (width * 3 + 1) * width);
  for (let row = 0; row < width; row++) raw[row * (width * 3 + 1)] = 0;
  const chunk = (type, data) => {
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

function crc32(data) {
  let crc = 0xffffffff;
  for (const byte of data) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

module.exports = { writeRepository, noise, png };
