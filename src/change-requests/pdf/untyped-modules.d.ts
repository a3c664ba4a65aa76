/* The parts used of packages that ship no types. */

declare module 'fontkit' {
  export interface Font {
    hasGlyphForCodePoint(codePoint: number): boolean;
    glyphForCodePoint(codePoint: number): unknown;
  }
  /** A font, or a collection of fonts (TTC, DFONT). */
  export function create(data: Buffer, postscriptName?: string): Font | { fonts: Font[] };
}

declare module 'svg-to-pdfkit' {
  interface SvgToPdfOptions {
    width?: number;
    height?: number;
    preserveAspectRatio?: string;
    assumePt?: boolean;
    fontCallback?: (...args: unknown[]) => string;
    /** What to open for an `<image>`'s href: a path or data URI, or the bytes. */
    imageCallback?: (link: string) => string | Buffer;
    warningCallback?: (message: string) => void;
  }
  function SVGtoPDF(
    doc: PDFKit.PDFDocument,
    svg: string,
    x: number,
    y: number,
    options?: SvgToPdfOptions,
  ): void;
  export = SVGtoPDF;
}
