import { randomBytes } from 'node:crypto';
import type { Client } from './client';

/** The formats a custom font's file may have. */
export type FontFileFormat = 'woff2' | 'woff' | 'ttf' | 'otf';

export const FONT_CONTENT_TYPE: Record<FontFileFormat, string> = {
  woff2: 'font/woff2',
  woff: 'font/woff',
  ttf: 'font/ttf',
  otf: 'font/otf',
};

/**
 * A file with a font's header (WOFF2's or WOFF's, naming its length and one table, or an sfnt
 * offset table and one table record) and random bytes after it: what Bindery checks of a font,
 * different each time.
 */
export function fontFile(format: FontFileFormat = 'woff2', size = 256): Buffer {
  const bytes = randomBytes(size);
  if (format === 'woff2' || format === 'woff') {
    bytes.write(format === 'woff2' ? 'wOF2' : 'wOFF', 0, 'latin1');
    bytes.writeUInt32BE(size, 8);
    bytes.writeUInt16BE(1, 12);
  } else {
    if (format === 'otf') bytes.write('OTTO', 0, 'latin1');
    else Buffer.from([0, 1, 0, 0]).copy(bytes, 0);
    bytes.writeUInt16BE(1, 4);
  }
  return bytes;
}

/** The path (and query) of an absolute URL of the API, for supertest. */
export const pathOfUrl = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
};

/**
 * Uploads `bytes` as an admin of the organization would before naming them in a font: asks
 * `generateStorageUploadURL` for a URL (as `client`, an admin), PUTs them there (no token) and
 * answers the key.
 */
export async function uploadFontFile(
  client: Client,
  anonymous: Client,
  organizationId: string,
  bytes: Buffer,
  type = 'font/woff2',
): Promise<string> {
  const signed = await client
    .post(`/v1/orgs/${organizationId}/storage/upload`, {
      file: { name: 'font', type, size: bytes.length },
      kind: 'customization_font',
    })
    .expect(201);
  await anonymous
    .put(pathOfUrl(signed.body.url as string), bytes)
    .set('Content-Type', type)
    .expect(204);
  return signed.body.key as string;
}

export interface CustomFontBody {
  id: string;
  custom: true;
  fontFamily: string;
  fontFaces: { weight: number; sources: { url: string; format?: string }[] }[];
  permissions: { edit: boolean };
}

/** A custom font of the organization made by `client` (an admin), with a file per weight. */
export async function createCustomFont(
  client: Client,
  anonymous: Client,
  organizationId: string,
  fontFamily = 'Brand Sans',
  weights: number[] = [400],
): Promise<CustomFontBody> {
  const fontFaces = [];
  for (const weight of weights) {
    const storageKey = await uploadFontFile(client, anonymous, organizationId, fontFile());
    fontFaces.push({ weight, storageKey });
  }
  const res = await client
    .put(`/v1/orgs/${organizationId}/fonts`, { fontFamily, fontFaces })
    .expect(201);
  return res.body as CustomFontBody;
}
