import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fontFormatOf } from './font-files';

/** A WOFF or WOFF2 header of `size` bytes in all, naming its length and one table. */
function wrapped(signature: 'wOFF' | 'wOF2', size: number, declared = size): Buffer {
  const bytes = Buffer.alloc(size);
  bytes.write(signature, 0, 'latin1');
  bytes.write('OTTO', 4, 'latin1');
  bytes.writeUInt32BE(declared, 8);
  bytes.writeUInt16BE(1, 12);
  return bytes;
}

/** An sfnt offset table with `tables` table records after it. */
function sfnt(version: Buffer | string, tables: number, size = 12 + tables * 16): Buffer {
  const bytes = Buffer.alloc(size);
  (typeof version === 'string' ? Buffer.from(version, 'latin1') : version).copy(bytes, 0);
  bytes.writeUInt16BE(tables, 4);
  return bytes;
}

describe('fontFormatOf', () => {
  it('reads WOFF2, WOFF, TrueType and OpenType by their signature', () => {
    expect(fontFormatOf(wrapped('wOF2', 64))).toBe('woff2');
    expect(fontFormatOf(wrapped('wOFF', 64))).toBe('woff');
    expect(fontFormatOf(sfnt(Buffer.from([0, 1, 0, 0]), 3))).toBe('ttf');
    expect(fontFormatOf(sfnt('true', 3))).toBe('ttf');
    expect(fontFormatOf(sfnt('OTTO', 3))).toBe('otf');
  });

  it('reads real font files', () => {
    const modules = join(__dirname, '..', '..', '..', 'node_modules');
    const ttf = readFileSync(
      join(modules, '@embedpdf/fonts-hebrew/fonts/NotoSansHebrew-Regular.ttf'),
    );
    expect(fontFormatOf(ttf)).toBe('ttf');
    const woff = readFileSync(
      join(modules, 'mathjax-full/es5/output/chtml/fonts/woff-v2/MathJax_Main-Regular.woff'),
    );
    expect(fontFormatOf(woff)).toBe('woff');
  });

  it('refuses what is not a font: other files, and headers that do not hold together', () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    expect(fontFormatOf(png)).toBeNull();
    expect(fontFormatOf(Buffer.from('wOF2'))).toBeNull();
    expect(fontFormatOf(Buffer.alloc(0))).toBeNull();
    // A WOFF whose header says another length (cut short, or padded).
    expect(fontFormatOf(wrapped('wOF2', 64, 65))).toBeNull();
    expect(fontFormatOf(wrapped('wOFF', 40, 40))).toBeNull();
    // An sfnt with no tables, or fewer table records than it announces.
    expect(fontFormatOf(sfnt('OTTO', 0))).toBeNull();
    expect(fontFormatOf(sfnt('OTTO', 3, 40))).toBeNull();
    expect(fontFormatOf(Buffer.from('<!doctype html><html></html>'))).toBeNull();
  });
});
