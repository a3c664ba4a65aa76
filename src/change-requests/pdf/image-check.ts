import { crc32, deflateSync, inflateSync } from 'node:zlib';
import { GifReader } from 'omggif';

/** The image types a PDF shows: what pdfkit embeds, and SVG, drawn as vectors. */
export const PRINTABLE_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/svg+xml'] as const;
export type PrintableImageType = (typeof PRINTABLE_IMAGE_TYPES)[number];

/** An image ready for the PDF writer. */
export interface PrintableImage {
  data: Buffer;
  type: PrintableImageType;
}

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
export function printableImageType(data: Buffer): 'image/png' | 'image/jpeg' | undefined {
  if (isJpeg(data)) return 'image/jpeg';
  return isDecodablePng(data) ? 'image/png' : undefined;
}

/**
 * `data` as an image the writer can show: PNG and JPEG as they are (checked), a GIF as its first
 * frame in a PNG, SVG as its markup; undefined for anything else.
 */
export function printableImage(data: Buffer): PrintableImage | undefined {
  const type = printableImageType(data);
  if (type) return { data, type };
  if (isGif(data)) {
    const png = gifFirstFrame(data);
    return png ? { data: png, type: 'image/png' } : undefined;
  }
  if (isSvg(data)) return { data, type: 'image/svg+xml' };
  return undefined;
}

function isGif(data: Buffer): boolean {
  return data.length > 10 && data.toString('latin1', 0, 4) === 'GIF8';
}

function isSvg(data: Buffer): boolean {
  const head = data
    .subarray(0, 4096)
    .toString('utf8')
    .replace(/^\uFEFF/, '');
  return /^\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE svg[^>]*>\s*)?<svg[\s>]/i.test(
    head,
  );
}

/** The first frame of a GIF as an RGBA PNG; undefined when it does not decode. */
function gifFirstFrame(data: Buffer): Buffer | undefined {
  try {
    const reader = new GifReader(data);
    const { width, height } = reader;
    if (width === 0 || height === 0 || width * height > MAX_PIXELS) return undefined;
    const pixels = Buffer.alloc(width * height * 4);
    reader.decodeAndBlitFrameRGBA(0, pixels);
    return encodePng(width, height, pixels);
  } catch {
    return undefined;
  }
}

/** An 8-bit RGBA PNG of `pixels` (rows of width × 4 bytes, no filter). */
function encodePng(width: number, height: number, pixels: Buffer): Buffer {
  const chunk = (type: string, body: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(body.length, 0);
    head.write(type, 4, 'latin1');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), body])) >>> 0);
    return Buffer.concat([head, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8);
  const stride = width * 4;
  const rows = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    pixels.copy(rows, y * (stride + 1) + 1, y * stride, (y + 1) * stride);
  }
  return Buffer.concat([
    PNG_SIGNATURE,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
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
