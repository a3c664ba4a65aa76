/**
 * Font files by their first bytes: what `customization_font` uploads must be, and how they are
 * served. The headers are checked as far as a browser would need them to be sane (the
 * signature, a declared length that is the file's, at least one table); the tables themselves
 * are the browser's to read.
 */

export const FONT_FORMATS = ['woff2', 'woff', 'ttf', 'otf'] as const;
export type FontFormat = (typeof FONT_FORMATS)[number];

/** The media type each format is served with (RFC 8081). */
export const FONT_CONTENT_TYPES: Readonly<Record<FontFormat, string>> = {
  woff2: 'font/woff2',
  woff: 'font/woff',
  ttf: 'font/ttf',
  otf: 'font/otf',
};

/** The sfnt version of TrueType outlines: 0x00010000, or Apple's `true`. */
const TRUETYPE = [Buffer.from([0, 1, 0, 0]), Buffer.from('true', 'latin1')];
const OPENTYPE = Buffer.from('OTTO', 'latin1');
const WOFF = Buffer.from('wOFF', 'latin1');
const WOFF2 = Buffer.from('wOF2', 'latin1');
/** Sizes of the headers: WOFF's and WOFF2's (up to `numTables`), sfnt's offset table. */
const WOFF_HEADER = 44;
const WOFF2_HEADER = 48;
const SFNT_HEADER = 12;
const SFNT_TABLE_RECORD = 16;

/** The format of a font file, or null when `bytes` are not one. */
export function fontFormatOf(bytes: Buffer): FontFormat | null {
  if (bytes.length < SFNT_HEADER) return null;
  const signature = bytes.subarray(0, 4);
  if (signature.equals(WOFF2)) return wrapped(bytes, WOFF2_HEADER) ? 'woff2' : null;
  if (signature.equals(WOFF)) return wrapped(bytes, WOFF_HEADER) ? 'woff' : null;
  const format = signature.equals(OPENTYPE)
    ? 'otf'
    : TRUETYPE.some((version) => signature.equals(version))
      ? 'ttf'
      : null;
  if (format === null) return null;
  const numTables = bytes.readUInt16BE(4);
  return numTables > 0 && bytes.length >= SFNT_HEADER + numTables * SFNT_TABLE_RECORD
    ? format
    : null;
}

/** A WOFF or WOFF2 file: its header is whole, says the file's length, and lists tables. */
function wrapped(bytes: Buffer, headerSize: number): boolean {
  return (
    bytes.length >= headerSize &&
    bytes.readUInt32BE(8) === bytes.length &&
    bytes.readUInt16BE(12) > 0
  );
}
