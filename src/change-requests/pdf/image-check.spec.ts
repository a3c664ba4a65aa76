import { deflateSync } from 'node:zlib';
import { GifReader, GifWriter } from 'omggif';
import { printableImage, printableImageType } from './image-check';

function chunk(type: string, body: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(body.length);
  // The CRC is not checked by the decoder pdfkit uses, nor here.
  return Buffer.concat([length, Buffer.from(type, 'latin1'), body, Buffer.alloc(4)]);
}

/** A PNG of `width`×`height` RGBA pixels (colour type 6), rows as given or all filter 0. */
function png(
  width: number,
  height: number,
  options: { rows?: Buffer; interlaced?: boolean; idat?: Buffer } = {},
): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 6;
  ihdr[12] = options.interlaced ? 1 : 0;
  const rows =
    options.rows ??
    Buffer.concat(
      Array.from({ length: height }, () =>
        Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 4, 0x80)]),
      ),
    );
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', options.idat ?? deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('printableImageType', () => {
  it('accepts a well-formed PNG and a JPEG by their bytes', () => {
    expect(printableImageType(png(3, 2))).toBe('image/png');
    expect(printableImageType(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]))).toBe('image/jpeg');
  });

  it('refuses other formats and PNGs that the decoder would choke on', () => {
    const badFilter = Buffer.concat([
      Buffer.from([7]),
      Buffer.alloc(12),
      Buffer.from([0]),
      Buffer.alloc(12),
    ]);
    expect(
      printableImageType(Buffer.from('GIF89a...............................')),
    ).toBeUndefined();
    expect(printableImageType(png(3, 2, { rows: badFilter }))).toBeUndefined();
    expect(printableImageType(png(3, 2, { idat: Buffer.from('not deflated') }))).toBeUndefined();
    expect(printableImageType(png(3, 2, { rows: Buffer.alloc(13) }))).toBeUndefined();
    expect(printableImageType(png(3, 2).subarray(0, 40))).toBeUndefined();
    expect(printableImageType(png(100_000, 100_000, { rows: Buffer.alloc(1) }))).toBeUndefined();
  });

  it('follows the rows of each pass of an interlaced PNG', () => {
    // 2×2 in Adam7: passes 1 (1 px), 6 (1 px, row 0) and 7 (2 px, row 1) hold data.
    const rows = Buffer.concat([
      Buffer.from([0]),
      Buffer.alloc(4),
      Buffer.from([0]),
      Buffer.alloc(4),
      Buffer.from([0]),
      Buffer.alloc(8),
    ]);
    expect(printableImageType(png(2, 2, { rows, interlaced: true }))).toBe('image/png');
    expect(
      printableImageType(png(2, 2, { rows: rows.subarray(0, 10), interlaced: true })),
    ).toBeUndefined();
  });
});

describe('printableImage', () => {
  it('turns the first frame of a GIF into a PNG the decoder accepts', () => {
    const out = Buffer.alloc(512);
    const writer = new GifWriter(out, 3, 2, { palette: [0x000000, 0xffffff] });
    writer.addFrame(0, 0, 3, 2, [0, 1, 0, 1, 0, 1]);
    writer.addFrame(0, 0, 3, 2, [1, 1, 1, 1, 1, 1]);
    const gif = out.subarray(0, writer.end());
    expect(new GifReader(gif).numFrames()).toBe(2);

    const image = printableImage(gif);
    expect(image?.type).toBe('image/png');
    expect(printableImageType(image!.data)).toBe('image/png');
    expect(image!.data.readUInt32BE(16)).toBe(3);
    expect(image!.data.readUInt32BE(20)).toBe(2);
  });

  it('keeps SVG markup as it is, and refuses what is no image', () => {
    const svg = Buffer.from('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"/>');
    expect(printableImage(svg)).toEqual({ data: svg, type: 'image/svg+xml' });
    expect(printableImage(Buffer.from('<html><svg></svg></html>'))).toBeUndefined();
    expect(printableImage(Buffer.from('GIF89a broken'))).toBeUndefined();
  });
});
