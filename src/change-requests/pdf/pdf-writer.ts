import PDFDocument from 'pdfkit';
import SVGtoPDF from 'svg-to-pdfkit';
import type { LayoutBlock, ListItem, TextRun } from './document-layout';
import { printableImageType, type PrintableImage } from './image-check';
import type { MathSvg } from './math-svg';
import {
  cleanText,
  fontSegments,
  isRightToLeftFont,
  standardFontOf,
  startsRightToLeft,
  useFont,
  type FontSegment,
  type FontStyle,
} from './pdf-fonts';

/** A page of the revision as printed: its title, where it sits, and its laid-out document. */
export interface PrintedPage {
  title: string;
  /** 0 for the first level of what is printed; subpages one more than their parent. */
  depth: number;
  blocks: LayoutBlock[];
  /** Link pages: where the link goes. */
  href?: string;
}

/** What a page shows, loaded before it is written (pdfkit draws synchronously). */
export interface PrintedFiles {
  /**
   * An image a PDF can show, by file id or, for an image on the web, its URL; undefined to
   * print its caption instead.
   */
  image(key: string): PrintableImage | undefined;
  name(fileId: string): string | undefined;
  /** A formula typeset; undefined to print its TeX source instead. */
  math?(formula: string, display: boolean): MathSvg | undefined;
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
  code: 'Courier',
} as const;
/** An ex of the text around a formula, in em (MathJax sizes formulas in ex). */
const EX_PER_EM = 0.44;
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

/**
 * How SVG is drawn: an image inside it only from a PNG or JPEG `data:` URI that the decoder
 * accepts. svg-to-pdfkit would otherwise hand any other `href` to pdfkit, which reads a path
 * from the server's disk.
 */
const SVG_OPTIONS = {
  imageCallback: (link: string): Buffer => {
    const match = /^data:image\/(?:png|jpe?g);base64,([\s\S]*)$/i.exec(link.trim());
    const data = match ? Buffer.from(match[1].replace(/\s+/g, ''), 'base64') : undefined;
    return data && printableImageType(data) ? data : Buffer.alloc(0);
  },
  warningCallback: () => undefined,
};

/** What pdfkit offers but @types/pdfkit does not declare. */
interface OpenedImage {
  width: number;
  height: number;
  /** Set for SVG images, drawn as vectors rather than embedded. */
  svg?: string;
}

/** A word or formula of a paragraph laid out by the writer itself. */
type Box =
  | { kind: 'text'; pieces: { segment: FontSegment; run: TextRun; width: number }[]; width: number }
  | { kind: 'math'; math: MathSvg; width: number; height: number; depth: number }
  | { kind: 'space'; width: number };
type DocumentWithImages = PDFKit.PDFDocument & { openImage(src: Buffer): OpenedImage };

/**
 * Writes printed pages into one PDF with pdfkit: each page of the revision starts a new sheet
 * and an entry of the PDF's outline (nested like the pages). Each character prints in a font
 * that has it (see pdf-fonts.ts); right-to-left paragraphs and paragraphs with formulas are
 * laid out word by word here, so that right-to-left words are written in reading order.
 */
export class PdfWriter {
  readonly document: PDFKit.PDFDocument;
  private readonly outline: PDFKit.PDFOutline[] = [];
  private readonly images = new Map<string, OpenedImage | null>();
  private sheets = 0;
  private readonly fonts = new Set<string>();
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
    doc.x = MARGIN;
    doc.y = MARGIN;
    this.runs([{ text: page.title }], 0, { size: SIZE.title, bold: true });
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
    visualOrderLigatures(this.document, this.fonts);
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
        this.image(block.file ?? block.url, block.caption, indent);
        return;
      case 'math':
        this.mathBlock(block.formula, indent);
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

  /** Text runs as one paragraph at `indent`; formatting and scripts switch fonts in the line. */
  private runs(
    runs: TextRun[],
    indent: number,
    style: { size?: number; bold?: boolean; italic?: boolean; color?: string } = {},
  ): void {
    const doc = this.document;
    const parts = runs
      .map((run) => ({ ...run, text: cleanText(run.text) }))
      .filter((run) => run.text !== '');
    if (parts.length === 0) return;
    const size = style.size ?? SIZE.body;
    const rtl = startsRightToLeft(parts.map((run) => run.text).join(''));
    if (parts.some((run) => run.math && this.files.math?.(run.text, false))) {
      this.laidOut(parts, indent, style, rtl);
      return;
    }
    const pieces = parts.flatMap((run) =>
      fontSegments(run.text, styleOf(run, style)).map((segment) => ({ run, segment })),
    );
    doc.fontSize(size);
    pieces.forEach(({ run, segment }, i) => {
      const options: PDFKit.Mixins.TextOptions = {
        continued: i < pieces.length - 1,
        lineGap: LINE_GAP,
        underline: run.link !== undefined,
        strike: run.strike === true,
        link: run.link ?? null,
        // Right-to-left text is shaped a line at a time, so that fontkit orders its words right
        // to left too (pdfkit otherwise lays out word by word, left to right).
        ...(segment.rtl ? { features: [] } : {}),
        ...(rtl ? { align: 'right' } : {}),
      };
      this.font(segment.font);
      doc.fillColor(run.link !== undefined ? COLOR.link : (style.color ?? COLOR.text));
      if (i === 0)
        doc.text(segment.text, this.left(indent), undefined, {
          ...options,
          width: this.width(indent),
        });
      else doc.text(segment.text, options);
    });
    doc.fillColor(COLOR.text);
  }

  /**
   * A paragraph laid out word by word: lines filled greedily, then written from the left or,
   * right to left, from the right margin, words in reading order either way (what text
   * extraction reads back). Formulas sit in the line as vector drawings.
   */
  private laidOut(
    runs: TextRun[],
    indent: number,
    style: { size?: number; bold?: boolean; italic?: boolean; color?: string },
    rtl: boolean,
  ): void {
    const doc = this.document;
    const size = style.size ?? SIZE.body;
    const ex = size * EX_PER_EM;
    const boxes: Box[] = [];
    for (const run of runs) {
      const math = run.math ? this.files.math?.(run.text, false) : undefined;
      if (math) {
        boxes.push({
          kind: 'math',
          math,
          width: math.widthEx * ex,
          height: math.heightEx * ex,
          depth: math.depthEx * ex,
        });
        continue;
      }
      // Right to left, a word keeps the space after it: written in one piece, the space falls
      // between it and the next word, and text extraction reads it back.
      const words = rtl ? run.text.split(/(?<= )(?=[^ ])|(\n)/) : run.text.split(/( +|\n)/);
      for (const word of words) {
        if (word === undefined) continue;
        if (word === '') continue;
        if ((/^ +$/.test(word) && !rtl) || word === '\n') {
          boxes.push({ kind: 'space', width: this.measure(' ', FONT.regular, size) });
          continue;
        }
        const pieces = fontSegments(word, styleOf(run, style)).map((segment) => ({
          segment,
          run,
          width: this.measure(segment.text, segment.font, size),
        }));
        boxes.push({ kind: 'text', pieces, width: pieces.reduce((sum, p) => sum + p.width, 0) });
      }
    }
    const width = this.width(indent);
    const lines: Box[][] = [[]];
    let used = 0;
    for (const box of boxes) {
      const line = lines[lines.length - 1];
      if (box.kind === 'space') {
        if (line.length > 0) {
          line.push(box);
          used += box.width;
        }
        continue;
      }
      if (used + box.width > width && line.some((b) => b.kind !== 'space')) {
        while (line.length > 0 && line[line.length - 1].kind === 'space') line.pop();
        lines.push([box]);
        used = box.width;
      } else {
        line.push(box);
        used += box.width;
      }
    }
    this.font(FONT.regular);
    doc.fontSize(size);
    const textHeight = doc.currentLineHeight(true) + LINE_GAP;
    const ascent = size * 0.8;
    for (const line of lines) {
      if (line.length === 0) continue;
      const above = Math.max(
        ascent,
        ...line.map((b) => (b.kind === 'math' ? b.height - b.depth : 0)),
      );
      const below = Math.max(
        textHeight - ascent,
        ...line.map((b) => (b.kind === 'math' ? b.depth : 0)),
      );
      this.ensureSpace(above + below);
      const baseline = doc.y + above;
      let x = rtl ? this.left(indent) + width : this.left(indent);
      for (const box of line) {
        if (rtl) x -= box.width;
        if (box.kind === 'math') {
          SVGtoPDF(doc, box.math.svg, x, baseline + box.depth - box.height, {
            ...SVG_OPTIONS,
            width: box.width,
            height: box.height,
          });
        } else if (box.kind === 'text') {
          let px = rtl ? x + box.width : x;
          for (const { segment, run, width: w } of box.pieces) {
            if (rtl && segment.rtl) px -= w;
            this.font(segment.font);
            doc
              .fontSize(size)
              .fillColor(run.link !== undefined ? COLOR.link : (style.color ?? COLOR.text));
            doc.text(segment.text, px, baseline - ascent, {
              lineBreak: false,
              underline: run.link !== undefined,
              strike: run.strike === true,
              link: run.link ?? null,
            });
            if (!(rtl && segment.rtl)) px += w;
          }
        }
        if (!rtl) x += box.width;
      }
      doc.y = baseline + below;
    }
    doc.x = MARGIN;
    doc.fillColor(COLOR.text);
  }

  /** A formula on its own line, centred; its TeX source as code when it cannot be typeset. */
  private mathBlock(formula: string, indent: number): void {
    const math = this.files.math?.(formula, true);
    if (!math) {
      this.code(formula.split('\n'), undefined, indent);
      return;
    }
    const ex = SIZE.body * EX_PER_EM;
    const scale = Math.min(1, this.width(indent) / (math.widthEx * ex));
    const [width, height] = [math.widthEx * ex * scale, math.heightEx * ex * scale];
    this.ensureSpace(height + GAP);
    const x = this.left(indent) + (this.width(indent) - width) / 2;
    SVGtoPDF(this.document, math.svg, x, this.document.y, { ...SVG_OPTIONS, width, height });
    this.document.x = MARGIN;
    this.document.y += height;
    this.space(GAP);
  }

  /** Width of `text` in `font` at `size`. */
  private measure(text: string, font: string, size: number): number {
    this.font(font);
    return this.document.fontSize(size).widthOfString(text);
  }

  /** Switches to `font`, embedding it in this PDF on first use. */
  private font(font: string): void {
    useFont(this.document, font, this.fonts);
    this.document.font(font);
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
      const text = cleanText(line);
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
    doc.font(FONT.code).fontSize(SIZE.code);
    const height = doc.heightOfString(text, options) + 2 * CODE_PAD;
    doc.rect(x, y, this.width(indent), height).fill(COLOR.codeBackground);
    doc.fillColor(COLOR.text);
    const segments = fontSegments(text, { code: true });
    if (segments.length === 1 && segments[0].font === FONT.code) {
      doc.font(FONT.code).text(text, x + CODE_PAD, y + CODE_PAD, options);
    } else {
      // Characters Courier lacks print in the proportional fonts, in the same flow.
      segments.forEach((segment, i) => {
        this.font(segment.font);
        doc.fontSize(SIZE.code);
        const continued = { ...options, continued: i < segments.length - 1 };
        if (i === 0) doc.text(segment.text, x + CODE_PAD, y + CODE_PAD, continued);
        else doc.text(segment.text, continued);
      });
    }
    doc.x = MARGIN;
    doc.y = Math.max(doc.y + CODE_PAD, y + height);
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
    // A cell prints in one font: the standard one, or the embedded one its text needs.
    const cell = (raw: string, bold: boolean): PDFKit.Mixins.CellOptions => {
      const text = cleanText(raw);
      const segments = fontSegments(text, { bold });
      const font =
        segments.find((s) => !s.font.startsWith('Helvetica'))?.font ?? standardFontOf({ bold });
      useFont(this.document, font, this.fonts);
      return { text, font: { src: font } };
    };
    const cells = (row: string[], bold = false) =>
      Array.from({ length: columns }, (_, i) => cell(row[i] ?? '', bold));
    const data: (string | PDFKit.Mixins.CellOptions)[][] = rows.map((row) => cells(row));
    if (header) {
      data.unshift(
        cells(header, true).map((options) => ({
          ...options,
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
      if (image.svg !== undefined) {
        SVGtoPDF(doc, image.svg, this.left(indent), y, { ...SVG_OPTIONS, width, height });
      } else {
        doc.image(image as unknown as Buffer, this.left(indent), y, { width, height });
      }
      doc.x = MARGIN;
      doc.y = y + height + 4;
    }
    const text =
      caption || (image ? '' : `Image: ${(fileId && this.files.name(fileId)) || 'not available'}`);
    if (text !== '') {
      this.runs([{ text }], indent, { size: SIZE.small, italic: true, color: COLOR.muted });
    }
    this.space(GAP);
  }

  /** An image opened once per PDF (its bytes are embedded once); null if unusable. */
  private opened(key: string): OpenedImage | null {
    const known = this.images.get(key);
    if (known !== undefined) return known;
    const file = this.files.image(key);
    let image: OpenedImage | null = null;
    if (file?.type === 'image/svg+xml') {
      image = svgImage(file.data.toString('utf8'));
    } else if (file) {
      try {
        image = (this.document as DocumentWithImages).openImage(file.data);
      } catch {
        image = null;
      }
    }
    if (image && !(image.width > 0 && image.height > 0)) image = null;
    this.images.set(key, image);
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

/** What pdfkit keeps of an embedded font but @types/pdfkit does not declare. */
interface EmbeddedFontState {
  unicode?: number[][];
}

/**
 * Right-to-left text is stored in visual order, and text extraction reverses it back to reading
 * order; a ligature (Arabic lam-alef) maps to several characters, which are reversed along with
 * the rest, so they are recorded here in visual order too.
 */
function visualOrderLigatures(doc: PDFKit.PDFDocument, fonts: Set<string>): void {
  const families = (doc as unknown as { _fontFamilies?: Record<string, EmbeddedFontState> })
    ._fontFamilies;
  for (const name of fonts) {
    if (!isRightToLeftFont(name)) continue;
    const unicode = families?.[name]?.unicode;
    unicode?.forEach((codePoints, gid) => {
      if (Array.isArray(codePoints) && codePoints.length > 1) {
        unicode[gid] = [...codePoints].reverse();
      }
    });
  }
}

function styleOf(run: TextRun, style: { bold?: boolean; italic?: boolean }): FontStyle {
  return {
    bold: style.bold === true || run.bold === true,
    italic: style.italic === true || run.italic === true,
    code: run.code === true,
  };
}

/** An SVG image and its size in pixels: its width and height, or else its viewBox's. */
function svgImage(svg: string): OpenedImage | null {
  const root = /<svg\b[^>]*>/i.exec(svg)?.[0];
  if (!root) return null;
  const attribute = (name: string) =>
    new RegExp(`\\s${name}\\s*=\\s*["']([^"']*)["']`, 'i').exec(root)?.[1];
  const pixels = (value: string | undefined) => {
    const match = value !== undefined ? /^\s*([\d.]+)\s*(px)?\s*$/.exec(value) : null;
    return match ? Number(match[1]) : undefined;
  };
  const box = attribute('viewBox')
    ?.trim()
    .split(/[\s,]+/)
    .map(Number);
  const width = pixels(attribute('width')) ?? (box?.length === 4 ? box[2] : 300);
  const height = pixels(attribute('height')) ?? (box?.length === 4 ? box[3] : 150);
  return Number.isFinite(width) && Number.isFinite(height) ? { width, height, svg } : null;
}
