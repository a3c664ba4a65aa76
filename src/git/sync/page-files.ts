import type { JSONDocument } from '../../content-engine/documents/document';
import { documentToMarkdown } from '../../content-engine/documents/markdown';
import { keptPath, type MarkdownPaths } from '../../content-engine/refs/markdown-paths';
import type { PageMeta, PageType } from '../../content-engine/tree/format';
import { sha256Hex } from '../../platform/ids/ids';
import { refToRelativeUrl } from '../jobs/ref-rewrite';
import { FRONTMATTER_KEYS, type LayoutPage, type PageGitForm } from '../layout/layout';
import type { ReadLayoutPage } from '../layout/layout-reader';
import { writtenTargets } from '../layout/link-targets';
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
  if (page.type === 'computed') {
    const computed = page.meta.computed;
    if (typeof computed !== 'object' || computed === null) return [];
    return [
      {
        id: page.id,
        type: 'computed',
        title: typeof page.meta.title === 'string' ? page.meta.title : '',
        meta: {
          computed,
          ...(page.meta.gitForm !== undefined ? { gitForm: page.meta.gitForm } : {}),
        },
        pages: [],
      },
    ];
  }
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
      ...(page.type === 'link' ? linkOf(page.meta) : {}),
      ...(keep ? { keep } : {}),
      pages: page.pages.flatMap((child) => layoutPageOf(child, directory)),
    },
  ];
}

/** Where a link page points: a page of the space (and an anchor in it), else its URL. */
function linkOf(meta: Record<string, unknown>): Pick<LayoutPage, 'href' | 'target'> {
  const target = meta.target as
    { kind?: string; url?: string; page?: string; anchor?: string; space?: string } | undefined;
  const href = typeof meta.href === 'string' ? meta.href : undefined;
  if ((target?.kind === 'page' || target?.kind === 'anchor') && target.page && !target.space) {
    return {
      target: { page: target.page, ...(target.kind === 'anchor' ? { anchor: target.anchor } : {}) },
      ...(href !== undefined ? { href } : {}),
    };
  }
  return {
    href: href ?? (target?.kind === 'url' && typeof target.url === 'string' ? target.url : ''),
  };
}

/**
 * The metadata an import gives a link page: GitBook's link to a page of the space (SUMMARY.md's
 * `page.md#anchor`, or a page listed twice) by the id its file has now (`pageAt`, paths relative
 * to the content root), else to its URL.
 */
export function importedLinkMeta(
  page: Pick<ReadLayoutPage, 'href' | 'linkTo'>,
  pageAt: ReadonlyMap<string, string>,
): PageMeta {
  const id = page.linkTo ? pageAt.get(page.linkTo.path) : undefined;
  if (id && page.linkTo) {
    return {
      target:
        page.linkTo.anchor !== undefined
          ? { kind: 'anchor', anchor: page.linkTo.anchor, page: id }
          : { kind: 'page', page: id },
    };
  }
  return { target: { kind: 'url', url: page.href ?? '' }, href: page.href ?? '' };
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
  const form = page.meta.gitForm as PageGitForm | undefined;
  const written = form?.links
    ? writtenTargets(path, form.links, (to) => knownPaths(paths).has(to))
    : undefined;
  const markdown = document
    ? await documentToMarkdown(document, {
        refToUrl: (ref) => refToRelativeUrl(ref, path, page.id, paths, written),
      })
    : undefined;
  return Buffer.from(renderPage({ ...page, markdown }, path, paths));
}

/**
 * Whether a page is written without a file: an entry SUMMARY.md listed without a link
 * (PageGitForm `linkless`) that still holds nothing a file would (no content, no frontmatter).
 */
export async function staysLinkless(
  page: LayoutPage,
  document: JSONDocument | undefined,
): Promise<boolean> {
  if (page.type !== 'document' || !(page.meta.gitForm as PageGitForm | undefined)?.linkless) {
    return false;
  }
  const own = FRONTMATTER_KEYS.filter((key) => key !== 'gitForm' && key !== 'linkTitle');
  if (own.some((key) => page.meta[key] !== undefined)) return false;
  return !document || (await documentToMarkdown(document)).trim() === '';
}

const known = new WeakMap<MarkdownPaths, Set<string>>();

/** Every path of a layout, pages and files (built once per layout). */
function knownPaths(paths: MarkdownPaths): Set<string> {
  let found = known.get(paths);
  if (!found)
    known.set(paths, (found = new Set([...paths.pages.values(), ...paths.files.values()])));
  return found;
}

/**
 * The pages SUMMARY.md lists: all but the hidden pages read from files it did not list (their
 * `gitForm` says so, or `orphans` names them: ids), which stay out of it so that they stay
 * hidden in the repository, unless a subpage has to be listed.
 */
export function summaryPages(
  pages: readonly LayoutPage[],
  orphans: ReadonlySet<string> = new Set(),
): LayoutPage[] {
  return pages.flatMap((page) => {
    const children = summaryPages(page.pages, orphans);
    const unlisted =
      orphans.has(page.id) || (page.meta.gitForm as PageGitForm | undefined)?.unlisted === true;
    return unlisted && page.meta.hidden === true && children.length === 0
      ? []
      : [{ ...page, pages: children }];
  });
}

export function sha256Of(data: Buffer | string): string {
  return sha256Hex(data);
}
