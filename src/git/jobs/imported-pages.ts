import type { JSONDocument } from '../../content-engine/documents/document';
import { markdownToDocument } from '../../content-engine/documents/markdown';
import type { ReadLayoutPage } from '../layout/layout-reader';
import { resolveRelativeRefs } from './ref-rewrite';

/**
 * How a page read from a Git Sync layout becomes content, shared by the Git import and the
 * content imports (src/imports), which read a converted source as a layout too.
 */

/** The document of a page's markdown at `path`: its relative links resolved to refs. */
export async function importedDocument(
  markdown: string,
  path: string,
  pageAt: ReadonlyMap<string, string>,
  fileAt: ReadonlyMap<string, string>,
): Promise<JSONDocument> {
  return resolveRelativeRefs(
    await markdownToDocument(markdown, { keepSource: true }),
    path,
    pageAt,
    fileAt,
  );
}

/** The pages of a layout, subpages included. */
export function countLayoutPages(pages: readonly ReadLayoutPage[]): number {
  return pages.reduce((sum, page) => sum + 1 + countLayoutPages(page.pages), 0);
}
