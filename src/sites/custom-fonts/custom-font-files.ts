import { FONT_FORMATS, type FontFormat } from '../../orgs/storage/font-files';
import { newId } from '../../platform/ids/ids';

/**
 * Where a custom font's files are: `custom-fonts/<font id>/<file>` in the blob store, served as
 * `/v1/custom-fonts/<font id>/<file>`. A file is named once, by a random id and its format's
 * extension, and never rewritten, so its URL may be cached for good.
 */

const ID = /^[A-Za-z0-9_-]{1,64}$/;
const FILE = new RegExp(`^([A-Za-z0-9_-]{1,64})\\.(${FONT_FORMATS.join('|')})$`);

/** A new file name for a face of `format`. */
export function newFontFileName(format: FontFormat): string {
  return `${newId()}.${format}`;
}

export function fontBlobKey(fontId: string, file: string): string {
  return `custom-fonts/${fontId}/${file}`;
}

/** The format of a file a URL names (by its extension), or null when it cannot be one. */
export function servedFontFormat(fontId: string, file: string): FontFormat | null {
  if (!ID.test(fontId)) return null;
  const format = FILE.exec(file)?.[2];
  return format === undefined ? null : (format as FontFormat);
}
