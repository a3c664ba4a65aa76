/**
 * The converters' contract: content from where docs live today (uploaded files, a website)
 * turned into a GitBook Git Sync layout held in memory, which the import run writes into a
 * change request with the Git layout reader.
 */

import type { ConvertContext, CrawlOptions, ImportTree, UploadedFile } from './types';
import { convertUploads } from './upload';
import { crawl } from './website';

export type { ConvertContext, CrawlOptions, ImportTree, UploadedFile } from './types';

/**
 * Uploaded files (markdown of MkDocs, Docusaurus or GitHub, HTML, Word documents, zips of
 * them, Confluence space and Notion exports) as a GitBook Git Sync layout (see upload.ts).
 */
export function convertFiles(files: UploadedFile[], context: ConvertContext): Promise<ImportTree> {
  return convertUploads(files, context);
}

/**
 * A website from `startUrl`, within its origin and folder, robots.txt obeyed, breadth-first,
 * `maxPages` at most, as a GitBook Git Sync layout (see website.ts).
 */
export function crawlWebsite(options: CrawlOptions, context: ConvertContext): Promise<ImportTree> {
  return crawl(options, context);
}
