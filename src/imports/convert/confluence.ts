import { posix } from 'node:path';
import { all, cleanText, parseDocument, type DomElement } from './dom';
import type { FileSet } from './file-set';
import { htmlToMarkdown } from './html-to-markdown';
import type { ImportPage, LayoutBuilder } from './layout-builder';
import { nextTurn } from './turn';
import type { ConvertContext } from './types';

/**
 * A Confluence space exported as HTML: `index.html` listing the space's pages, pages named
 * `Title_12345.html` (or `12345.html`), attachments under `attachments/`.
 */
export function isConfluenceExport(set: FileSet): boolean {
  const index = set.files.get('index.html');
  if (!index) return false;
  const named = [...set.files.keys()].some(
    (path) => /^[^/]*_?\d+\.html$/.test(path) && path !== 'index.html',
  );
  const attachments = [...set.files.keys()].some((path) => path.startsWith('attachments/'));
  return (
    (named || attachments) &&
    /confluence|id="breadcrumbs"|id="main-content"/i.test(index.toString('utf8'))
  );
}

interface ConfluencePage {
  path: string;
  title: string;
  parent?: string;
  body: string;
}

/**
 * A Confluence space export: the hierarchy of `index.html`'s page tree (else each page's
 * breadcrumbs), the space's home page first and its subpages at the top level; each page's
 * title without the space's name, its `#main-content` as markdown (information macros as hints,
 * code macros with their language), links between pages to the pages, images and attachments
 * as assets, Confluence's icons left out.
 */
export async function convertConfluence(
  set: FileSet,
  builder: LayoutBuilder,
  context: ConvertContext,
): Promise<ImportPage[]> {
  const paths = [...set.files.keys()].filter(
    (path) => /\.html$/.test(path) && !path.includes('/') && path !== 'index.html',
  );
  const pagePaths = new Set(paths);
  const converted = new Map<string, ConfluencePage>();
  let done = 0;
  for (const path of paths) {
    context.signal.throwIfAborted();
    try {
      converted.set(path, convertPage(path, set, pagePaths, builder));
    } catch (error) {
      context.warn(`${path}: could not be converted (${(error as Error).message}), left out.`);
    }
    await context.progress(++done, paths.length);
    await nextTurn();
  }

  // The page tree: index.html's, else the breadcrumbs'.
  const tree = indexTree(set.files.get('index.html') as Buffer, pagePaths);
  const placed = new Set<string>();
  const toPage = (node: TreeNode): ImportPage | undefined => {
    const page = converted.get(node.path);
    if (!page || placed.has(node.path)) return undefined;
    placed.add(node.path);
    return {
      title: page.title,
      body: page.body,
      key: page.path,
      source: page.path,
      children: node.children
        .map(toPage)
        .filter((child): child is ImportPage => child !== undefined),
    };
  };
  const roots = tree.map(toPage).filter((page): page is ImportPage => page !== undefined);
  // Pages the index does not list: under their breadcrumbs' parent.
  const byPath = new Map<string, ImportPage>();
  const walk = (list: ImportPage[]) =>
    list.forEach((page) => (byPath.set(page.key as string, page), walk(page.children)));
  walk(roots);
  for (const page of converted.values()) {
    if (placed.has(page.path)) continue;
    const imported: ImportPage = {
      title: page.title,
      body: page.body,
      key: page.path,
      source: page.path,
      children: [],
    };
    byPath.set(page.path, imported);
  }
  for (const page of converted.values()) {
    if (placed.has(page.path)) continue;
    const parent = page.parent ? byPath.get(page.parent) : undefined;
    const imported = byPath.get(page.path) as ImportPage;
    if (parent && parent !== imported) parent.children.push(imported);
    else roots.push(imported);
  }
  // The space's home page (the one page at the top, over all others) is the first page, and
  // its subpages the top level.
  if (roots.length === 1 && roots[0].children.length > 0) {
    const [home] = roots;
    return [{ ...home, children: [] }, ...home.children];
  }
  return roots;
}

interface TreeNode {
  path: string;
  children: TreeNode[];
}

/** The nested list of pages in `index.html` ("Available Pages"). */
function indexTree(index: Buffer, pages: Set<string>): TreeNode[] {
  const document = parseDocument(index.toString('utf8'));
  const lists = all(document, 'ul').filter((ul) => !ul.parentElement?.closest('ul'));
  const read = (ul: DomElement): TreeNode[] => {
    const nodes: TreeNode[] = [];
    for (const li of Array.from(ul.children).filter((child) => child.nodeName === 'LI')) {
      const link =
        Array.from(li.children).find((child) => child.nodeName === 'A') ?? li.querySelector('a');
      const href = link?.getAttribute('href');
      const nested = Array.from(li.children).find((child) => child.nodeName === 'UL');
      const children = nested ? read(nested) : [];
      if (href && pages.has(decode(href))) nodes.push({ path: decode(href), children });
      else nodes.push(...children);
    }
    return nodes;
  };
  for (const ul of lists) {
    const nodes = read(ul);
    if (nodes.length > 0) return nodes;
  }
  return [];
}

function convertPage(
  path: string,
  set: FileSet,
  pages: Set<string>,
  builder: LayoutBuilder,
): ConfluencePage {
  const document = parseDocument((set.files.get(path) as Buffer).toString('utf8'));
  const crumbs = all(document, '#breadcrumbs a')
    .map((a) => decode(a.getAttribute('href') ?? ''))
    .filter((href) => pages.has(href));
  const heading =
    cleanText(document.querySelector('#title-text')?.textContent) || cleanText(document.title);
  const space = cleanText(all(document, '#breadcrumbs a')[0]?.textContent);
  const title =
    (space && heading.startsWith(`${space} : `)
      ? heading.slice(space.length + 3)
      : heading.replace(/^[^:]+ : /, '')) || posix.basename(path, '.html');
  const main = document.querySelector('#main-content') ?? document.body;
  for (const element of all(
    main,
    '.pageSection, #likes-and-labels-container, .page-metadata, .confluence-embedded-file-wrapper img.confluence-embedded-file-icon',
  )) {
    element.remove();
  }
  const body = htmlToMarkdown(main, {
    link: (href) => {
      const found = set.resolve(path, href);
      if (!found) return href;
      if (pages.has(found.path)) return builder.pageRef(found.path, found.anchor);
      const bytes = set.files.get(found.path);
      return bytes ? builder.assetRef(bytes, attachmentName(found.path, main, href)) : href;
    },
    image: (src) => {
      if (src.startsWith('data:')) return builder.dataImageRef(src);
      const found = set.resolve(path, src);
      if (found?.path.startsWith('images/icons/')) return undefined;
      const bytes = found && set.files.get(found.path);
      return bytes ? builder.assetRef(bytes, posix.basename(found.path)) : src;
    },
  });
  return { path, title, body, ...(crumbs.length > 0 ? { parent: crumbs[crumbs.length - 1] } : {}) };
}

/** An attachment's name: its link's text when it names a file (`guide.pdf`), else its file's. */
function attachmentName(path: string, main: DomElement, href: string): string {
  const link = all(main, 'a').find((a) => a.getAttribute('href') === href);
  const text = cleanText(link?.textContent);
  return /\.[A-Za-z0-9]{2,5}$/.test(text) ? text : posix.basename(path);
}

function decode(href: string): string {
  try {
    return decodeURIComponent(href.replace(/[?#].*$/, ''));
  } catch {
    return href;
  }
}
