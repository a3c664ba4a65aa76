import PDFDocument from 'pdfkit';
import type { LayoutBlock, ListItem, TextRun } from './document-layout';
import type { PrintableImageType } from './image-check';

/** A page of the revision as printed: its title, where it sits, and its laid-out document. */
export interface PrintedPage {
  title: string;
  /** 0 for the first level of what is printed; subpages one more than their parent. */
  depth: number;
  blocks: LayoutBlock[];
  /** Link pages: where the link goes. */
  href?: string;
}

/** The files a page shows, loaded before it is written (pdfkit draws synchronously). */
export interface PrintedFiles {
  /** Bytes of an image file that a PDF can show; undefined to print its caption instead. */
  image(fileId: string): { data: Buffer; type: PrintableImageType } | undefined;
  name(fileId: string): string | undefined;
}

export interface PdfWriterOptions {
  title: string;
  /** Deflate page contents (default true); tests turn it off to read the text back. */
  compress?: boolean;
}

const MARGIN = 56;
const FONT = {
  regular: 'Helvetica',
  bold: 'Helvetica-Bold',
  italic: 'Helvetica-Oblique',
  boldItalic: 'Helvetica-BoldOblique',
  code: 'Courier',
  codeBold: 'Courier-Bold',
  codeItalic: 'Courier-Oblique',
  codeBoldItalic: 'Courier-BoldOblique',
} as const;
const SIZE = { title: 22, body: 11, small: 9, code: 9, heading: { 1: 18, 2: 15, 3: 13 } };
const COLOR = {
  text: '#1f2328',
  muted: '#59636e',
  link: '#0969da',
  rule: '#d1d9e0',
  codeBackground: '#f3f4f6',
  quote: '#d1d9e0',
  hint: { info: '#0969da', success: '#1a7f37', warning: '#9a6700', danger: '#cf222e' },
};
const GAP = 8;
const CODE_PAD = 6;
const INDENT = 18;
const LINE_GAP = 2;

/** What pdfkit offers but @types/pdfkit does not declare. */
interface OpenedImage {
  width: number;
  height: number;
}
type DocumentWithImages = PDFKit.PDFDocument & { openImage(src: Buffer): OpenedImage };

/**
 * Writes printed pages into one PDF with pdfkit: each page of the revision starts a new sheet
 * and an entry of the PDF's outline (nested like the pages). Text on the sheets uses the 14
 * standard fonts, so characters outside Windows-1252 print as "?" (see `printable`); the
 * outline and the document title keep any character.
 */
export class PdfWriter {
  readonly document: PDFKit.PDFDocument;
  private readonly outline: PDFKit.PDFOutline[] = [];
  private readonly images = new Map<string, OpenedImage | null>();
  private sheets = 0;
  private files: PrintedFiles = { image: () => undefined, name: () => undefined };

  constructor(options: PdfWriterOptions) {
    this.document = new PDFDocument({
      size: 'A4',
      margin: MARGIN,
      autoFirstPage: false,
      compress: options.compress ?? true,
      info: { Title: options.title, Creator: 'Bindery' },
      displayTitle: true,
    });
    this.document.on('pageAdded', () => {
      this.sheets += 1;
    });
  }

  /** Writes one page on new sheets. */
  page(page: PrintedPage, files: PrintedFiles): void {
    this.files = files;
    const doc = this.document;
    doc.addPage();
    const parent = page.depth === 0 ? doc.outline : (this.outline[page.depth - 1] ?? doc.outline);
    // PDF strings outside the page (outline, document title) hold any Unicode text.
    this.outline[page.depth] = parent.addItem(page.title || 'Untitled');
    this.outline.length = page.depth + 1;
    doc.font(FONT.bold).fontSize(SIZE.title).fillColor(COLOR.text);
    doc.text(printable(page.title), MARGIN, MARGIN, { width: this.width(0), lineGap: LINE_GAP });
    this.space(GAP);
    if (page.href !== undefined) {
      this.runs(
        [{ text: page.href, link: /^https?:\/\//i.test(page.href) ? page.href : undefined }],
        0,
      );
      this.space(GAP);
    }
    this.blocks(page.blocks, 0);
  }

  /** Finishes the PDF; a selection without pages still makes a one-sheet document. */
  end(): void {
    if (this.sheets === 0) {
      this.document.addPage();
      this.document.font(FONT.italic).fontSize(SIZE.body).fillColor(COLOR.muted);
      this.document.text('No pages.', MARGIN, MARGIN);
    }
    this.document.end();
  }

  private blocks(blocks: LayoutBlock[], indent: number): void {
    for (const block of blocks) {
      this.block(block, indent);
    }
  }

  private block(block: LayoutBlock, indent: number): void {
    switch (block.kind) {
      case 'heading':
        this.ensureSpace(SIZE.heading[block.level] * 3);
        this.space(GAP / 2);
        this.runs(block.runs, indent, { size: SIZE.heading[block.level], bold: true });
        this.space(GAP / 2);
        return;
      case 'paragraph':
        this.runs(block.runs, indent);
        this.space(GAP);
        return;
      case 'list':
        this.list(block.style, block.start, block.items, indent);
        return;
      case 'code':
        this.code(block.lines, block.title, indent);
        return;
      case 'quote':
        this.aside(block.blocks, indent, COLOR.quote);
        return;
      case 'hint': {
        const color = COLOR.hint[block.style];
        this.aside(block.blocks, indent, color, block.style.toUpperCase());
        return;
      }
      case 'section':
        if (block.title.length > 0) {
          this.runs(block.title, indent, { bold: true });
          this.space(GAP / 2);
        }
        this.blocks(block.blocks, indent + INDENT / 2);
        return;
      case 'table':
        this.table(block.header, block.rows, indent);
        return;
      case 'image':
        this.image(block.file, block.caption, indent);
        return;
      case 'file': {
        const name = this.files.name(block.file);
        this.runs([{ text: `File: ${name ?? 'missing file'}`, italic: true }], indent);
        this.space(GAP);
        return;
      }
      case 'divider': {
        this.ensureSpace(GAP * 2);
        const y = this.document.y + GAP / 2;
        this.document
          .moveTo(this.left(indent), y)
          .lineTo(this.left(indent) + this.width(indent), y)
          .lineWidth(1)
          .strokeColor(COLOR.rule)
          .stroke();
        this.document.y = y + GAP * 1.5;
        return;
      }
    }
  }

  /** Text runs as one paragraph at `indent`; formatting switches fonts within the line. */
  private runs(
    runs: TextRun[],
    indent: number,
    style: { size?: number; bold?: boolean; italic?: boolean; color?: string } = {},
  ): void {
    const doc = this.document;
    const parts = runs
      .map((run) => ({ ...run, text: printable(run.text) }))
      .filter((run) => run.text !== '');
    if (parts.length === 0) return;
    doc.fontSize(style.size ?? SIZE.body);
    parts.forEach((run, i) => {
      const options: PDFKit.Mixins.TextOptions = {
        continued: i < parts.length - 1,
        lineGap: LINE_GAP,
        underline: run.link !== undefined,
        strike: run.strike === true,
        link: run.link ?? null,
      };
      doc
        .font(fontOf(run, style.bold === true, style.italic === true))
        .fillColor(run.link !== undefined ? COLOR.link : (style.color ?? COLOR.text));
      if (i === 0)
        doc.text(run.text, this.left(indent), undefined, { ...options, width: this.width(indent) });
      else doc.text(run.text, options);
    });
    doc.fillColor(COLOR.text);
  }

  private list(
    style: 'bullet' | 'number' | 'task',
    start: number,
    items: ListItem[],
    indent: number,
  ) {
    const doc = this.document;
    const markerWidth = style === 'bullet' ? INDENT : INDENT * 1.5;
    items.forEach((item, i) => {
      const marker =
        style === 'bullet'
          ? '•'
          : style === 'number'
            ? `${start + i}.`
            : item.checked
              ? '[x]'
              : '[ ]';
      doc.font(FONT.regular).fontSize(SIZE.body).fillColor(COLOR.text);
      this.ensureSpace(doc.currentLineHeight(true) * 2);
      const y = doc.y;
      doc.text(marker, this.left(indent), y, { width: markerWidth, lineBreak: false });
      doc.y = y;
      if (item.blocks.length === 0) {
        doc.y += doc.currentLineHeight(true) + GAP / 2;
        return;
      }
      // Items are tight: the last paragraph of an item does not add a paragraph's gap.
      this.blocks(item.blocks, indent + markerWidth);
      doc.y -= GAP / 2;
    });
    this.space(GAP / 2);
  }

  /** Code on a grey ground; a block longer than the sheet continues on the next, grounded too. */
  private code(lines: string[], title: string | undefined, indent: number): void {
    const doc = this.document;
    if (title !== undefined) {
      this.runs([{ text: title }], indent, { size: SIZE.small, bold: true, color: COLOR.muted });
      this.space(2);
    }
    const options = { width: this.width(indent) - 2 * CODE_PAD, lineGap: 1 };
    doc.font(FONT.code).fontSize(SIZE.code);
    let chunk: string[] = [];
    let height = 0;
    for (const line of lines.length > 0 ? lines : ['']) {
      const text = printable(line.replace(/\t/g, '    '));
      const lineHeight = doc.heightOfString(text || ' ', options);
      const full = doc.y + 2 * CODE_PAD + height + lineHeight > this.bottom();
      // A line taller than a whole sheet goes where it starts (pdfkit flows it on).
      if (full && (chunk.length > 0 || doc.y > MARGIN)) {
        if (chunk.length > 0) this.codeChunk(chunk, indent, options);
        doc.addPage();
        [chunk, height] = [[], 0];
      }
      chunk.push(text);
      height += lineHeight;
    }
    this.codeChunk(chunk, indent, options);
    this.space(GAP);
  }

  private codeChunk(lines: string[], indent: number, options: PDFKit.Mixins.TextOptions): void {
    const doc = this.document;
    const text = lines.map((line) => line || ' ').join('\n');
    const [x, y] = [this.left(indent), doc.y];
    const height = doc.heightOfString(text, options) + 2 * CODE_PAD;
    doc.rect(x, y, this.width(indent), height).fill(COLOR.codeBackground);
    doc.font(FONT.code).fontSize(SIZE.code).fillColor(COLOR.text);
    doc.text(text, x + CODE_PAD, y + CODE_PAD, options);
    doc.x = MARGIN;
    doc.y = y + height;
  }

  /** Quotes and hints: indented, with a bar on the left (when they end on the sheet they began). */
  private aside(blocks: LayoutBlock[], indent: number, color: string, label?: string): void {
    const doc = this.document;
    this.ensureSpace(doc.currentLineHeight(true) * 2);
    const sheet = this.sheets;
    const top = doc.y;
    if (label !== undefined) {
      this.runs([{ text: label }], indent + INDENT, { size: SIZE.small, bold: true, color });
      this.space(2);
    }
    this.blocks(blocks, indent + INDENT);
    const bottom = doc.y - GAP;
    if (this.sheets === sheet && bottom > top) {
      const x = this.left(indent) + 4;
      doc
        .save()
        .moveTo(x, top)
        .lineTo(x, bottom)
        .lineWidth(3)
        .strokeColor(color)
        .stroke()
        .restore();
    }
  }

  private table(header: string[] | null, rows: string[][], indent: number): void {
    const doc = this.document;
    const columns = Math.max(header?.length ?? 0, ...rows.map((row) => row.length));
    if (columns === 0) return;
    const cells = (row: string[]) =>
      Array.from({ length: columns }, (_, i) => printable(row[i] ?? ''));
    const data: (string | PDFKit.Mixins.CellOptions)[][] = rows.map(cells);
    if (header) {
      data.unshift(
        cells(header).map((text) => ({
          text,
          font: { src: FONT.bold },
          backgroundColor: COLOR.codeBackground,
        })),
      );
    }
    doc.font(FONT.regular).fontSize(SIZE.small).fillColor(COLOR.text);
    this.ensureSpace(doc.currentLineHeight(true) * 3);
    doc.table({
      position: { x: this.left(indent), y: doc.y },
      maxWidth: this.width(indent),
      defaultStyle: { borderColor: COLOR.rule, padding: [3, 4, 3, 4] },
      data,
    });
    doc.x = MARGIN;
    this.space(GAP);
  }

  private image(fileId: string | undefined, caption: string, indent: number): void {
    const doc = this.document;
    const image = fileId !== undefined ? this.opened(fileId) : null;
    if (image) {
      // Pixels at 96 per inch, shrunk to the text width and to two thirds of a sheet.
      const maxWidth = this.width(indent);
      const maxHeight = ((this.bottom() - MARGIN) * 2) / 3;
      const scale = Math.min(0.75, maxWidth / image.width, maxHeight / image.height);
      const [width, height] = [image.width * scale, image.height * scale];
      this.ensureSpace(height);
      const y = doc.y;
      doc.image(image as unknown as Buffer, this.left(indent), y, { width, height });
      doc.y = y + height + 4;
    }
    const text =
      caption || (image ? '' : `Image: ${(fileId && this.files.name(fileId)) || 'not available'}`);
    if (text !== '') {
      this.runs([{ text }], indent, { size: SIZE.small, italic: true, color: COLOR.muted });
    }
    this.space(GAP);
  }

  /** The image of a file opened once per PDF (its bytes are embedded once); null if unusable. */
  private opened(fileId: string): OpenedImage | null {
    const known = this.images.get(fileId);
    if (known !== undefined) return known;
    const file = this.files.image(fileId);
    let image: OpenedImage | null = null;
    if (file) {
      try {
        image = (this.document as DocumentWithImages).openImage(file.data);
      } catch {
        image = null;
      }
    }
    if (image && !(image.width > 0 && image.height > 0)) image = null;
    this.images.set(fileId, image);
    return image;
  }

  private left(indent: number): number {
    return MARGIN + indent;
  }

  private width(indent: number): number {
    return this.document.page.width - 2 * MARGIN - indent;
  }

  private bottom(): number {
    return this.document.page.maxY();
  }

  private space(points: number): void {
    this.document.y += points;
  }

  /** Starts a new sheet unless `height` points fit below the current position. */
  private ensureSpace(height: number): void {
    if (this.document.y + height > this.bottom()) {
      this.document.addPage();
    }
  }
}

function fontOf(run: TextRun, bold: boolean, italic: boolean): string {
  const b = bold || run.bold === true;
  const i = italic || run.italic === true;
  if (run.code) {
    return b && i ? FONT.codeBoldItalic : b ? FONT.codeBold : i ? FONT.codeItalic : FONT.code;
  }
  return b && i ? FONT.boldItalic : b ? FONT.bold : i ? FONT.italic : FONT.regular;
}

/** Windows-1252 characters beyond Latin-1 that the standard fonts have (pdfkit's WIN_ANSI_MAP). */
const WIN_ANSI_EXTRA = new Set(
  '€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ'.split('').map((char) => char.codePointAt(0)),
);

/**
 * Text the standard fonts can show: Windows-1252 as is; accented letters outside it without
 * their accents; tabs as spaces; control and format characters and emoji dropped; anything
 * else as "?".
 */
export function printable(text: string): string {
  let out = '';
  for (const char of text.normalize('NFC')) {
    const code = char.codePointAt(0)!;
    if (code === 0x0a) out += '\n';
    else if (code === 0x09) out += '    ';
    else if ((code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff)) out += char;
    else if (WIN_ANSI_EXTRA.has(code)) out += char;
    else if (code < 0x20 || (code >= 0x7f && code < 0xa0)) continue;
    else if (/\p{M}|\p{Extended_Pictographic}|\p{Emoji_Component}|\p{Cf}/u.test(char)) continue;
    else {
      const base = char.normalize('NFKD').replace(/\p{M}/gu, '');
      out += base !== '' && [...base].every((c) => c.codePointAt(0)! <= 0xff) ? base : '?';
    }
  }
  return out;
}
