import { DomainError } from '../../platform/errors/domain-error';
import { sha256Hex } from '../../platform/ids/ids';
import {
  blobKeyOf,
  describeFile,
  imageDimensions,
  MAX_FILE_BYTES,
  servedContentType,
  sniffContentType,
} from './file-content';

/** The signature and IHDR chunk of a PNG: all image-size reads. */
function pngHeader(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(25);
  ihdr.writeUInt32BE(13, 0);
  ihdr.write('IHDR', 4, 'latin1');
  ihdr.writeUInt32BE(width, 8);
  ihdr.writeUInt32BE(height, 12);
  ihdr.writeUInt8(8, 16);
  ihdr.writeUInt8(6, 17);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), ihdr]);
}

function gif(width: number, height: number): Buffer {
  const data = Buffer.alloc(13);
  data.write('GIF89a', 0, 'latin1');
  data.writeUInt16LE(width, 6);
  data.writeUInt16LE(height, 8);
  return data;
}

describe('imageDimensions', () => {
  it('reads the size of PNG and GIF images', () => {
    expect(imageDimensions(pngHeader(640, 480))).toEqual({ width: 640, height: 480 });
    expect(imageDimensions(gif(3, 7))).toEqual({ width: 3, height: 7 });
  });

  it('answers undefined, never throws, for anything else', () => {
    expect(imageDimensions(Buffer.alloc(0))).toBeUndefined();
    expect(imageDimensions(Buffer.from('hello, world'))).toBeUndefined();
    expect(imageDimensions(pngHeader(1, 1).subarray(0, 12))).toBeUndefined();
    expect(imageDimensions(Buffer.from('%PDF-1.7\n'))).toBeUndefined();
  });
});

describe('sniffContentType', () => {
  it('recognizes images and PDF by their bytes, documents by extension', () => {
    expect(sniffContentType('x.bin', pngHeader(1, 1))).toBe('image/png');
    expect(sniffContentType('x', gif(1, 1))).toBe('image/gif');
    expect(sniffContentType('x', Buffer.from('%PDF-1.7\n'))).toBe('application/pdf');
    expect(sniffContentType('notes.MD', Buffer.from('# Hi'))).toBe('text/markdown');
    expect(sniffContentType('blob', Buffer.from([0, 1, 2]))).toBe('application/octet-stream');
  });
});

describe('sniffContentType by extension', () => {
  const text = Buffer.from('plain text');
  it.each([
    ['report.pdf', 'application/pdf'],
    ['data.csv', 'text/csv'],
    ['data.json', 'application/json'],
    ['openapi.yaml', 'application/yaml'],
    ['openapi.YML', 'application/yaml'],
    ['archive.zip', 'application/zip'],
    ['demo.mp4', 'video/mp4'],
    ['font.woff2', 'font/woff2'],
    ['README.md', 'text/markdown'],
    ['notes.txt', 'text/plain'],
    ['slides.pptx', 'application/vnd.openxmlformats-officedocument.presentationml.presentation'],
    ['page.html', 'text/html'],
    ['drawing.svg', 'image/svg+xml'],
    ['script.js', 'text/javascript'],
    ['feed.xml', 'application/xml'],
    ['unknown.qqqzz', 'application/octet-stream'],
    ['no-extension', 'application/octet-stream'],
  ])('%s is %s', (name, type) => {
    expect(sniffContentType(name, text)).toBe(type);
  });

  it('trusts the bytes of an image over its name', () => {
    expect(sniffContentType('photo.mp4', pngHeader(1, 1))).toBe('image/png');
  });
});

describe('servedContentType', () => {
  it.each([
    ['text/csv', 'text/csv; charset=utf-8'],
    ['text/markdown', 'text/markdown; charset=utf-8'],
    ['application/json', 'application/json; charset=utf-8'],
    ['application/yaml', 'application/yaml; charset=utf-8'],
    ['application/vnd.api+json', 'application/vnd.api+json; charset=utf-8'],
    ['text/plain; charset=iso-8859-1', 'text/plain; charset=iso-8859-1'],
    ['application/pdf', 'application/pdf'],
    ['image/svg+xml', 'image/svg+xml'],
    ['video/mp4', 'video/mp4'],
    ['application/octet-stream', 'application/octet-stream'],
  ])('%s is served as %s', (stored, served) => {
    expect(servedContentType(stored)).toBe(served);
  });
});

describe('describeFile', () => {
  it('describes an image: sniffed type, size, content hash and dimensions', () => {
    const data = pngHeader(2, 3);
    expect(describeFile({ id: 'f1', name: 'logo.png', data })).toEqual({
      id: 'f1',
      name: 'logo.png',
      contentType: 'image/png',
      size: data.length,
      blob: sha256Hex(data),
      dimensions: { width: 2, height: 3 },
    });
    expect(blobKeyOf(sha256Hex(data))).toBe(`sha256/${sha256Hex(data)}`);
  });

  it('keeps a given content type and gives no dimensions to what is not an image', () => {
    const file = describeFile({
      id: 'f2',
      name: 'a.txt',
      contentType: 'text/plain; charset=utf-8',
      data: Buffer.from('text'),
    });
    expect(file.contentType).toBe('text/plain; charset=utf-8');
    expect(file).not.toHaveProperty('dimensions');
    const broken = describeFile({
      id: 'f3',
      name: 'broken.png',
      contentType: 'image/png',
      data: Buffer.from('not a png'),
    });
    expect(broken).not.toHaveProperty('dimensions');
  });

  it('accepts 1 MB and refuses one byte more with a 400 naming the file', () => {
    expect(describeFile({ id: 'f', name: 'max', data: Buffer.alloc(MAX_FILE_BYTES) }).size).toBe(
      MAX_FILE_BYTES,
    );
    const tooLarge = () =>
      describeFile({ id: 'f', name: 'big.bin', data: Buffer.alloc(MAX_FILE_BYTES + 1) });
    expect(tooLarge).toThrow(DomainError);
    expect(tooLarge).toThrow(/File "big.bin" is 1048577 bytes; the limit is 1048576/);
    try {
      tooLarge();
    } catch (error) {
      expect((error as DomainError).kind).toBe('bad_request');
    }
  });

  it('refuses empty or overlong names and invalid content types', () => {
    const data = Buffer.from('x');
    expect(() => describeFile({ id: 'f', name: '', data })).toThrow(/1 to 256 characters/);
    expect(() => describeFile({ id: 'f', name: 'n'.repeat(257), data })).toThrow(/1 to 256/);
    expect(() =>
      describeFile({ id: 'f', name: 'a', contentType: 'text/html\r\nX-Evil: 1', data }),
    ).toThrow(/File "a": .* is not a content type/);
    expect(() => describeFile({ id: 'f', name: 'a', contentType: 'plain', data })).toThrow(
      /not a content type/,
    );
  });
});
