import type { JSONDocument } from '../../content-engine/documents/document';
import { documentToMarkdown } from '../../content-engine/documents/markdown';
import { keptPath, type MarkdownPaths } from '../../content-engine/refs/markdown-paths';
import type { PageMeta, PageType } from '../../content-engine/tree/format';
import { sha256Hex } from '../../platform/ids/ids';
import { refToRelativeUrl } from '../jobs/ref-rewrite';
import { FRONTMATTER_KEYS, type LayoutPage } from '../layout/layout';
import { renderPage } from '../layout/layout-writer';

/** A page of a tree as the layout takes it. */
export interface TreePageLike {
  id: string;
  type: PageType;
  meta: PageMeta;
  pages: readonly TreePageLike[];
}

/**
 * A page of the tree as the layout takes it (computed pages are not exported); a hidden page
 * keeps its file in `directory` (see keptPath).
 */
export function layoutPageOf(page: TreePageLike, directory: string): LayoutPage[] {
  if (page.type === 'computed') return [];
  const keep = keptPath(page.meta, directory);
  const meta: Record<string, unknown> = {};
  for (const key of FRONTMATTER_KEYS) {
    if (page.meta[key] !== undefined) meta[key] = page.meta[key];
  }
  return [
    {
      id: page.id,
      type: page.type,
      title: typeof page.meta.title === 'string' ? page.meta.title : 'Untitled',
      ...(typeof page.meta.slug === 'string' ? { slug: page.meta.slug } : {}),
      meta,
      ...(page.type === 'link' ? { href: linkHref(page.meta) } : {}),
      ...(keep ? { keep } : {}),
      pages: page.pages.flatMap((child) => layoutPageOf(child, directory)),
    },
  ];
}

function linkHref(meta: Record<string, unknown>): string {
  if (typeof meta.href === 'string') return meta.href;
  const target = meta.target as { kind?: string; url?: string } | undefined;
  return target?.kind === 'url' && typeof target.url === 'string' ? target.url : '';
}

/**
 * The markdown file of a page at `path` (paths relative to the content root): frontmatter,
 * title, and the body with links to pages and files as relative paths. The export writes it;
 * the import hashes it (SyncedEntry.rendered) to know later whether the page changed since.
 */
export async function renderPageFile(
  page: LayoutPage,
  document: JSONDocument | undefined,
  path: string,
  paths: MarkdownPaths,
): Promise<Buffer> {
  const markdown = document
    ? await documentToMarkdown(document, {
        refToUrl: (ref) => refToRelativeUrl(ref, path, page.id, paths),
      })
    : undefined;
  return Buffer.from(renderPage({ ...page, markdown }, path, paths));
}

/**
 * The pages SUMMARY.md lists: all but the hidden pages without subpages read from files it did
 * not list (`orphans`, ids), which stay out of it so that they stay hidden in the repository.
 */
export function summaryPages(
  pages: readonly LayoutPage[],
  orphans: ReadonlySet<string>,
): LayoutPage[] {
  return pages.flatMap((page) =>
    orphans.has(page.id) && page.meta.hidden === true && page.pages.length === 0
      ? []
      : [{ ...page, pages: summaryPages(page.pages, orphans) }],
  );
}

export function sha256Of(data: Buffer | string): string {
  return sha256Hex(data);
}
