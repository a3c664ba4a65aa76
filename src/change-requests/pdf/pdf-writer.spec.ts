import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import type { LayoutBlock } from './document-layout';
import { cleanText, fontSegments } from './pdf-fonts';
import { PdfWriter, type PrintedFiles, type PrintedPage } from './pdf-writer';

/** An 8×8 RGBA PNG (alpha: pdfkit decodes its pixels). */
function png(): Buffer {
  const chunk = (type: string, body: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(body.length);
    return Buffer.concat([length, Buffer.from(type, 'latin1'), body, Buffer.alloc(4)]);
  };
  const ihdr = Buffer.from([0, 0, 0, 8, 0, 0, 0, 8, 8, 6, 0, 0, 0]);
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(32, 0x60)]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.concat(Array.from({ length: 8 }, () => row)))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

async function render(pages: PrintedPage[], files: Partial<PrintedFiles> = {}): Promise<string> {
  const writer = new PdfWriter({ title: 'Test', compress: false });
  const chunks: Buffer[] = [];
  writer.document.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve, reject) => {
    writer.document.on('end', resolve);
    writer.document.on('error', reject);
  });
  const printed: PrintedFiles = { image: () => undefined, name: () => undefined, ...files };
  pages.forEach((page) => writer.page(page, printed));
  writer.end();
  await done;
  return Buffer.concat(chunks).toString('latin1');
}

/** The strings shown by the PDF's text operators, one per operator, in order. */
function shownText(pdf: string): string[] {
  return [...pdf.matchAll(/\[([^\]]*)\] TJ/g)].map(([, operands]) =>
    [...operands.matchAll(/<([0-9a-f]*)>/gi)]
      .map(([, hex]) => Buffer.from(hex, 'hex').toString('latin1'))
      .join(''),
  );
}

/** Each outline entry's title, with the title of its parent ('top' for the first level). */
function outline(pdf: string): Record<string, string> {
  const entries = [
    ...pdf.matchAll(/(\d+) 0 obj\n<<\n\/Dest [^\n]*\n\/Parent (\d+) 0 R\n\/Title \(([^)]*)\)/g),
  ];
  const titles = new Map(entries.map(([, id, , title]) => [id, title]));
  return Object.fromEntries(
    entries.map(([, , parent, title]) => [title, titles.get(parent) ?? 'top']),
  );
}

const sheets = (pdf: string) => pdf.match(/\/Type \/Page\n/g)?.length ?? 0;
const images = (pdf: string) => pdf.match(/\/Subtype \/Image/g)?.length ?? 0;
const page = (title: string, blocks: LayoutBlock[] = [], depth = 0): PrintedPage => ({
  title,
  depth,
  blocks,
});

describe('PdfWriter', () => {
  it('writes each page on its own sheet, titled, with an outline nested like the pages', async () => {
    const pdf = await render([
      page('Getting started', [{ kind: 'paragraph', runs: [{ text: 'Welcome aboard.' }] }]),
      page('Install', [], 1),
      { ...page('Website'), href: 'https://example.com' },
    ]);
    expect(pdf.startsWith('%PDF-')).toBe(true);
    expect(sheets(pdf)).toBe(3);
    const text = shownText(pdf);
    expect(text).toEqual([
      'Getting started',
      'Welcome aboard.',
      'Install',
      'Website',
      'https://example.com',
    ]);
    expect(outline(pdf)).toEqual({
      'Getting started': 'top',
      Install: 'Getting started',
      Website: 'top',
    });
    expect(pdf).toContain('/URI (https://example.com)');
  });

  it('prints formatting, lists, code, quotes, hints, sections, tables and dividers', async () => {
    const pdf = await render(
      [
        page('Everything', [
          { kind: 'heading', level: 2, runs: [{ text: 'Usage' }] },
          {
            kind: 'paragraph',
            runs: [
              { text: 'Run ' },
              { text: 'bindery', code: true },
              { text: ' with ' },
              { text: 'care', bold: true, italic: true },
            ],
          },
          {
            kind: 'list',
            style: 'number',
            start: 3,
            items: [{ blocks: [{ kind: 'paragraph', runs: [{ text: 'third' }] }] }, { blocks: [] }],
          },
          {
            kind: 'list',
            style: 'task',
            start: 1,
            items: [{ checked: true, blocks: [{ kind: 'paragraph', runs: [{ text: 'done' }] }] }],
          },
          { kind: 'code', title: 'main.ts', lines: ['const a = 1;', '\treturn a;'] },
          { kind: 'quote', blocks: [{ kind: 'paragraph', runs: [{ text: 'Quoted' }] }] },
          {
            kind: 'hint',
            style: 'danger',
            blocks: [{ kind: 'paragraph', runs: [{ text: 'Hot' }] }],
          },
          { kind: 'section', title: [{ text: 'Tab' }], blocks: [] },
          { kind: 'divider' },
          { kind: 'table', header: ['Name', 'Size'], rows: [['a', '1']] },
          { kind: 'file', file: 'f1' },
        ]),
      ],
      { name: (id) => (id === 'f1' ? 'report.csv' : undefined) },
    );
    const text = shownText(pdf);
    for (const expected of [
      'Usage',
      'Run ',
      'bindery',
      'care',
      '3.',
      'third',
      '4.',
      '[x]',
      'main.ts',
      'const a = 1;',
      '    return a;',
      'Quoted',
      'DANGER',
      'Hot',
      'Tab',
      'Name',
      'Size',
      'a',
      '1',
      'File: report.csv',
    ]) {
      expect(text).toContain(expected);
    }
    for (const font of ['Helvetica-Bold', 'Helvetica-BoldOblique', 'Courier']) {
      expect(pdf).toContain(`/BaseFont /${font}`);
    }
  });

  it('flows long pages over several sheets', async () => {
    const paragraphs: LayoutBlock[] = Array.from({ length: 120 }, (_, i) => ({
      kind: 'paragraph',
      runs: [{ text: `Paragraph ${i}` }],
    }));
    const pdf = await render([page('Long', paragraphs)]);
    expect(sheets(pdf)).toBeGreaterThan(2);
    expect(shownText(pdf)).toContain('Paragraph 119');
  });

  it('embeds an image once however often it is shown, and prints a caption for the rest', async () => {
    const image = { data: png(), type: 'image/png' as const };
    const broken = { data: Buffer.from([0xff, 0xd8, 0xff, 0, 1, 2]), type: 'image/jpeg' as const };
    const pdf = await render(
      [
        page('One', [
          { kind: 'image', file: 'img', caption: 'A diagram' },
          { kind: 'image', file: 'bad', caption: '' },
          { kind: 'image', caption: 'External picture' },
        ]),
        page('Two', [{ kind: 'image', file: 'img', caption: '' }]),
      ],
      {
        image: (id) => (id === 'img' ? image : id === 'bad' ? broken : undefined),
        name: (id) => (id === 'bad' ? 'broken.jpg' : undefined),
      },
    );
    // The picture and its alpha mask.
    expect(images(pdf)).toBe(2);
    expect(shownText(pdf)).toEqual(
      expect.arrayContaining(['A diagram', 'Image: broken.jpg', 'External picture']),
    );
  });

  it('draws SVG images, with images inside them only from data URIs, never from the disk', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'pdf-'));
    const onDisk = join(folder, 'secret.png');
    writeFileSync(onDisk, png());
    const svg = (href: string) =>
      Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" width="20" height="10">' +
          '<rect width="20" height="10" fill="#123456"/>' +
          `<image href="${href}" width="8" height="8"/></svg>`,
      );
    const files: Record<string, Buffer> = {
      disk: svg(onDisk),
      inline: svg(`data:image/png;base64,${png().toString('base64')}`),
    };
    const pdf = await render(
      [
        page('One', [
          { kind: 'image', file: 'disk', caption: 'From disk' },
          { kind: 'image', file: 'inline', caption: 'Inline' },
        ]),
      ],
      { image: (id) => ({ data: files[id], type: 'image/svg+xml' }) },
    );
    expect(pdf).toMatch(/0\.0705\d* 0\.2039\d* 0\.3372\d* scn/);
    // The inline PNG and its alpha mask; nothing read from the disk.
    expect(images(pdf)).toBe(2);
    expect(shownText(pdf)).toEqual(expect.arrayContaining(['From disk', 'Inline']));
    rmSync(folder, { recursive: true, force: true });
  });

  it('still makes a one-sheet document when nothing is printed', async () => {
    const pdf = await render([]);
    expect(sheets(pdf)).toBe(1);
    expect(shownText(pdf)).toEqual(['No pages.']);
  });
});

describe('fontSegments', () => {
  const fonts = (text: string, style = {}) =>
    fontSegments(text, style).map(({ text, font, rtl }) => [text, font, rtl]);

  it('keeps Windows-1252 in the standard fonts and gives each other script a font that has it', () => {
    expect(fonts('Café — “quoted” €5')).toEqual([['Café — “quoted” €5', 'Helvetica', false]]);
    expect(fonts('x = 1', { code: true, bold: true })).toEqual([['x = 1', 'Courier-Bold', false]]);
    expect(fonts('Hi Привет 日本語 한국어 שלום مرحبا 🚀')).toEqual([
      ['Hi ', 'Helvetica', false],
      ['Привет ', 'bindery-sans', false],
      ['日本語 ', 'bindery-cjk', false],
      ['한국어 ', 'bindery-hangul', false],
      ['שלום ', 'bindery-hebrew', true],
      ['مرحبا ', 'bindery-arabic', true],
      ['🚀', 'bindery-emoji', false],
    ]);
  });

  it('keeps marks, joiners and emoji modifiers with the character before them', () => {
    expect(fonts('👨‍👩‍👧 ok')).toEqual([
      ['👨‍👩‍👧 ', 'bindery-emoji', false],
      ['ok', 'Helvetica', false],
    ]);
    expect(fonts('Łódź', { bold: true })).toEqual([
      ['Ł', 'bindery-sans-bold', false],
      ['ód', 'Helvetica-Bold', false],
      ['ź', 'bindery-sans-bold', false],
    ]);
  });
});

describe('cleanText', () => {
  it('turns tabs into spaces and drops control and invisible format characters', () => {
    expect(cleanText('a\tb\u0007c\u200bd\ne')).toBe('a    bcd\ne');
    expect(cleanText('中文 🚀')).toBe('中文 🚀');
  });
});
