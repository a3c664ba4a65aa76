import { inflateSync } from 'node:zlib';

/** The image types a PDF can show (what pdfkit embeds). */
export const PRINTABLE_IMAGE_TYPES = ['image/png', 'image/jpeg'] as const;
export type PrintableImageType = (typeof PRINTABLE_IMAGE_TYPES)[number];

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Samples per pixel by PNG colour type. */
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/** Adam7 passes: x0, y0, dx, dy. */
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;

/** Largest image decoded for a check, in pixels (a 1 MB file can claim any size). */
const MAX_PIXELS = 40_000_000;

/**
 * The printable type of `data`, by its bytes, or undefined when a PDF should not try to show it.
 *
 * pdfkit decodes the pixels of some PNGs (alpha channel, transparency, interlacing) after it
 * has accepted them, in a zlib callback where a corrupt image throws out of reach of any
 * caller. So a PNG is checked here first the way that decoder reads it: its image data must
 * inflate, hold a valid filter byte at the start of every row, and be long enough.
 */
export function printableImageType(data: Buffer): PrintableImageType | undefined {
  if (isJpeg(data)) return 'image/jpeg';
  return isDecodablePng(data) ? 'image/png' : undefined;
}

function isJpeg(data: Buffer): boolean {
  return data.length > 4 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff;
}

function isDecodablePng(data: Buffer): boolean {
  if (data.length < 33 || !data.subarray(0, 8).equals(PNG_SIGNATURE)) return false;
  let header:
    | { width: number; height: number; bits: number; colorType: number; interlaced: boolean }
    | undefined;
  const idat: Buffer[] = [];
  let pos = 8;
  let ended = false;
  while (pos + 8 <= data.length) {
    const length = data.readUInt32BE(pos);
    const type = data.toString('latin1', pos + 4, pos + 8);
    const body = pos + 8;
    if (body + length + 4 > data.length) return false;
    if (type === 'IHDR') {
      if (length < 13) return false;
      header = {
        width: data.readUInt32BE(body),
        height: data.readUInt32BE(body + 4),
        bits: data[body + 8],
        colorType: data[body + 9],
        interlaced: data[body + 12] === 1,
      };
    } else if (type === 'IDAT') {
      idat.push(data.subarray(body, body + length));
    } else if (type === 'IEND') {
      ended = true;
      break;
    }
    pos = body + length + 4;
  }
  if (!header || !ended || idat.length === 0) return false;
  const channels = CHANNELS[header.colorType];
  const { width, height, bits } = header;
  if (!channels || ![1, 2, 4, 8, 16].includes(bits) || width === 0 || height === 0) return false;
  if (width * height > MAX_PIXELS) return false;
  let pixels: Buffer;
  try {
    pixels = inflateSync(Buffer.concat(idat));
  } catch {
    return false;
  }
  const pixelBytes = (bits * channels) / 8;
  const passes = header.interlaced ? ADAM7 : ([[0, 0, 1, 1]] as const);
  let offset = 0;
  for (const [x0, y0, dx, dy] of passes) {
    const columns = Math.ceil((width - x0) / dx);
    const rows = Math.ceil((height - y0) / dy);
    if (columns <= 0 || rows <= 0) continue;
    const rowLength = Math.ceil(pixelBytes * columns);
    for (let row = 0; row < rows; row++) {
      if (offset >= pixels.length || pixels[offset] > 4) return false;
      offset += 1 + rowLength;
    }
  }
  return offset <= pixels.length;
}
