import { deflateSync } from 'node:zlib';

/**
 * The demo space's image: a 480×160 PNG drawn here (an open book on a blue band), so that the
 * seed ships no binary file and the welcome page still shows an uploaded image.
 */
export function demoImagePng(): Buffer {
  const width = 480;
  const height = 160;
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3); // filter byte 0 (none), then RGB
    for (let x = 0; x < width; x++) row.set(colourAt(x, y, width, height), 1 + x * 3);
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits per channel, truecolour, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A vertical blue gradient with two white pages and a spine in the middle. */
function colourAt(x: number, y: number, width: number, height: number): number[] {
  const middle = width / 2;
  const top = 30;
  const bottom = height - 30;
  const onPage = y >= top && y < bottom && Math.abs(x - middle) < 90;
  if (onPage && Math.abs(x - middle) < 3) return [40, 60, 110];
  if (onPage) {
    // Lines of "text" on the pages.
    const line = (y - top - 14) % 14 < 3 && y > top + 10 && y < bottom - 10;
    const margin = Math.abs(x - middle) > 14 && Math.abs(x - middle) < 78;
    return line && margin ? [160, 175, 200] : [250, 250, 252];
  }
  const shade = Math.round((60 * y) / height);
  return [30 + shade / 2, 90 + shade, 200 - shade];
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
