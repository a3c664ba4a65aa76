import { invalidInput } from '../../platform/errors/domain-error';

/** The image types an integration's icon and previews may be, by their first bytes. */
const SIGNATURES: { type: string; matches: (bytes: Buffer) => boolean }[] = [
  {
    type: 'image/png',
    matches: (b) =>
      b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  },
  { type: 'image/jpeg', matches: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { type: 'image/gif', matches: (b) => /^GIF8[79]a/.test(b.subarray(0, 6).toString('latin1')) },
  {
    type: 'image/webp',
    matches: (b) =>
      b.subarray(0, 4).toString('latin1') === 'RIFF' &&
      b.subarray(8, 12).toString('latin1') === 'WEBP',
  },
];

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The content type of an image's bytes, or null when they are none of the accepted types. */
export function imageTypeOf(bytes: Buffer): string | null {
  return SIGNATURES.find((signature) => signature.matches(bytes))?.type ?? null;
}

/**
 * The bytes of a base64 image sent with a manifest (`field` names it in the error): a 400 unless
 * it is strict base64 of a PNG, JPEG, GIF or WebP image. SVG is refused: served from the API's
 * origin, it could run script.
 */
export function decodeImage(field: string, base64: string): Buffer {
  const text = base64.replace(/\s+/g, '');
  if (!BASE64.test(text)) throw invalidInput(`${field} must be base64 text`);
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length === 0 || imageTypeOf(bytes) === null) {
    throw invalidInput(`${field} must be a PNG, JPEG, GIF or WebP image`);
  }
  return bytes;
}
