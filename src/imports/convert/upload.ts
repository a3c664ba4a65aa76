import { convertConfluence, isConfluenceExport } from './confluence';
import { FileSet, MARKDOWN_EXTENSIONS } from './file-set';
import { convertFolderTree } from './folder-tree';
import { LayoutBuilder, type ImportPage } from './layout-builder';
import { convertNotion, isNotionExport } from './notion';
import type { ConvertContext, ImportTree, UploadedFile } from './types';
import { cleanArchivePath, isJunk, isZip, unzip } from './zip';

/**
 * Uploaded files as a GitBook layout: archives expanded (each into a folder of its name when
 * there are several), then read as a Confluence space export, a Notion export, or a tree of
 * markdown, HTML and Word files.
 */
export async function convertUploads(
  uploads: UploadedFile[],
  context: ConvertContext,
): Promise<ImportTree> {
  const files = new Map<string, Buffer>();
  const zips = uploads.filter((upload) => isZip(upload.name, upload.bytes, upload.contentType));
  for (const upload of uploads) {
    context.signal.throwIfAborted();
    const name = cleanArchivePath(upload.name) ?? 'upload';
    if (zips.includes(upload)) {
      const prefix = zips.length > 1 ? `${name.replace(/\.zip$/i, '')}/` : '';
      try {
        for (const [path, data] of unzip(upload.bytes, (message) =>
          context.warn(`${name}: ${message}`),
        )) {
          files.set(`${prefix}${path}`, data);
        }
      } catch {
        context.warn(`${name}: not a readable zip archive, left out.`);
      }
    } else if (!isJunk(name)) {
      files.set(name, upload.bytes);
    }
  }
  const set = new FileSet(withoutCommonFolder(files));
  if (isGitBookLayout(set)) return asIs(set);
  const builder = new LayoutBuilder();
  let pages: ImportPage[];
  if (isConfluenceExport(set)) pages = await convertConfluence(set, builder, context);
  else if (isNotionExport(set)) pages = await convertNotion(set, builder, context);
  else pages = await convertFolderTree(set, builder, context);
  if (pages.length === 0)
    context.warn('No page found in the uploaded files (markdown, HTML, Word or a zip of them).');
  return builder.build(pages);
}

/** The files without the one folder all of them are in (`my-docs/…` of an archive). */
export function withoutCommonFolder(files: Map<string, Buffer>): Map<string, Buffer> {
  let common: string | undefined;
  for (const path of files.keys()) {
    const first = path.includes('/') ? path.slice(0, path.indexOf('/')) : undefined;
    if (first === undefined || (common !== undefined && common !== first)) return files;
    common = first;
  }
  if (common === undefined) return files;
  const out = new Map<string, Buffer>();
  for (const [path, data] of files) out.set(path.slice(common.length + 1), data);
  return withoutCommonFolder(out);
}

/** Files already in GitBook's Git Sync layout (a `SUMMARY.md` or `.gitbook.yaml` at the root). */
function isGitBookLayout(set: FileSet): boolean {
  return set.files.has('.gitbook.yaml') || set.files.has('SUMMARY.md');
}

/** A GitBook layout taken as it is: the layout reader reads it as a Git import would. */
function asIs(set: FileSet): ImportTree {
  const sources = new Map<string, string>();
  for (const path of set.files.keys()) if (MARKDOWN_EXTENSIONS.test(path)) sources.set(path, path);
  return { files: new Map(set.files), sources };
}
