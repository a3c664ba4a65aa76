import { posix } from 'node:path';
import { docxToHtml } from './docx';
import { FileSet, MARKDOWN_EXTENSIONS, PAGE_EXTENSIONS } from './file-set';
import { htmlToMarkdown } from './html-to-markdown';
import { readHtmlPage } from './html-page';
import type { ImportPage, LayoutBuilder } from './layout-builder';
import { convertMarkdown, orderFromName, titleFromName, type MarkdownRefs } from './markdown-files';
import { navTree, readMkDocsConfig } from './mkdocs';
import { nextTurn } from './turn';
import type { ConvertContext } from './types';

/** A page converted from one file, with what places it among its siblings. */
interface Converted {
  page: ImportPage;
  order?: number;
  name: string;
}

const INDEX = /^(readme|index|_index)\.(md|markdown|mdx|html?)$/i;

/**
 * Pages of a tree of markdown, HTML and Word files (an archive, or files uploaded together):
 * each folder a page over the pages of its files and subfolders, its `README.md` or `index.*`
 * its content (its title the folder's otherwise, or Docusaurus' `_category_.json` label);
 * siblings in the order their front matter or `_category_.json` give, else by name
 * (`01-intro.md` before `02-setup.md`). Links between the files point at their pages,
 * images and other files they name become assets.
 */
export async function convertFolderTree(
  set: FileSet,
  builder: LayoutBuilder,
  context: ConvertContext,
): Promise<ImportPage[]> {
  // MkDocs' pages are in its docs_dir, Docusaurus' in docs/ (its blog and site pages are not
  // documentation); a configuration without pages there is not read.
  const config =
    readMkDocsConfig(set.files) ?? (isDocusaurus(set) ? { docsDir: 'docs' } : undefined);
  const mkdocs = [...set.files.keys()].some(
    (path) => config && PAGE_EXTENSIONS.test(path) && path.startsWith(`${config.docsDir}/`),
  )
    ? config
    : undefined;
  const inDocs = (path: string) =>
    !mkdocs || !mkdocs.docsDir || path.startsWith(`${mkdocs.docsDir}/`);
  const pagePaths = [...set.files.keys()].filter(
    (path) => PAGE_EXTENSIONS.test(path) && !path.startsWith('.gitbook/') && inDocs(path),
  );
  const used = new Set<string>(pagePaths);
  const indexOf = new Map<string, string>();
  for (const path of pagePaths) {
    const dir = posix.dirname(path) === '.' ? '' : posix.dirname(path);
    if (INDEX.test(posix.basename(path))) {
      const current = indexOf.get(dir);
      // README.md over index.md over index.html.
      if (!current || rank(path) < rank(current)) indexOf.set(dir, path);
    }
  }
  const keyOf = (path: string): string | undefined => {
    if (path.endsWith('/') || path === '') {
      const dir = path.replace(/\/$/, '');
      return indexOf.get(dir) ?? (hasPages(dir) ? `${dir}/` : undefined);
    }
    return PAGE_EXTENSIONS.test(path) ? path : undefined;
  };
  const hasPages = (dir: string) =>
    pagePaths.some((path) => dir === '' || path.startsWith(`${dir}/`));
  const refsFor = (from: string): Required<MarkdownRefs> => ({
    link: (target) => {
      const found = set.resolve(from, target);
      if (!found) return undefined;
      const key = keyOf(found.path);
      if (key !== undefined) return builder.pageRef(key, found.anchor);
      const bytes = set.files.get(found.path);
      if (!bytes) return undefined;
      used.add(found.path);
      return builder.assetRef(bytes, posix.basename(found.path));
    },
    image: (target) => {
      const found = set.resolve(from, target);
      const bytes = found && set.files.get(found.path);
      if (!found || !bytes) return undefined;
      used.add(found.path);
      return builder.assetRef(bytes, posix.basename(found.path));
    },
  });

  const converted = new Map<string, Converted>();
  let done = 0;
  for (const path of pagePaths) {
    context.signal.throwIfAborted();
    try {
      converted.set(
        path,
        await convertFile(path, set.files.get(path) as Buffer, refsFor(path), builder, context),
      );
    } catch (error) {
      context.warn(`${path}: could not be converted (${(error as Error).message}), left out.`);
    }
    await context.progress(++done, pagePaths.length);
    await nextTurn();
  }

  const folderPage = (dir: string): Converted | undefined => {
    const childDirs = new Set<string>();
    const files: string[] = [];
    for (const path of converted.keys()) {
      if (dir !== '' && !path.startsWith(`${dir}/`)) continue;
      const rest = dir === '' ? path : path.slice(dir.length + 1);
      if (rest.includes('/')) childDirs.add(rest.slice(0, rest.indexOf('/')));
      else files.push(path);
    }
    const index = indexOf.get(dir);
    const children: Converted[] = [];
    for (const path of files) if (path !== index) children.push(converted.get(path) as Converted);
    for (const name of childDirs) {
      const child = folderPage(dir === '' ? name : `${dir}/${name}`);
      if (child) children.push(child);
    }
    if (!index && children.length === 0) return undefined;
    children.sort(bySiblingOrder);
    const category = readCategory(set.files.get(`${dir === '' ? '' : `${dir}/`}_category_.json`));
    const name = posix.basename(dir);
    const own = index ? converted.get(index) : undefined;
    const page: ImportPage = own
      ? { ...own.page, children: children.map((child) => child.page) }
      : {
          title: category.label ?? titleFromName(name),
          body: '',
          key: `${dir}/`,
          source: `${dir}/`,
          children: children.map((child) => child.page),
        };
    if (
      own &&
      category.label &&
      own.page.title === titleFromName(posix.basename(index as string))
    ) {
      page.title = category.label;
    }
    return { page, order: category.position ?? own?.order ?? orderFromName(name), name };
  };

  if (mkdocs?.nav) {
    warnUnused(set, used, context);
    return navTree(mkdocs, (path) => converted.get(path)?.page, [...converted.keys()].sort());
  }
  const root = folderPage(mkdocs?.docsDir ?? '');
  const pages: ImportPage[] = [];
  if (root) {
    const index = indexOf.get(mkdocs?.docsDir ?? '');
    if (index) pages.push({ ...root.page, children: [] });
    pages.push(...root.page.children);
  }
  warnUnused(set, used, context);
  return pages;
}

function isDocusaurus(set: FileSet): boolean {
  return ['docusaurus.config.js', 'docusaurus.config.ts', 'docusaurus.config.mjs'].some((name) =>
    set.files.has(name),
  );
}

function rank(path: string): number {
  const name = posix.basename(path).toLowerCase();
  if (name.startsWith('readme')) return 0;
  if (MARKDOWN_EXTENSIONS.test(name)) return 1;
  return 2;
}

function bySiblingOrder(a: Converted, b: Converted): number {
  const orderA = a.order ?? Number.POSITIVE_INFINITY;
  const orderB = b.order ?? Number.POSITIVE_INFINITY;
  if (orderA !== orderB) return orderA < orderB ? -1 : 1;
  return a.name.localeCompare(b.name, 'en', { numeric: true, sensitivity: 'base' });
}

function readCategory(data: Buffer | undefined): { label?: string; position?: number } {
  if (!data) return {};
  try {
    const parsed = JSON.parse(data.toString('utf8')) as { label?: unknown; position?: unknown };
    return {
      ...(typeof parsed.label === 'string' ? { label: parsed.label } : {}),
      ...(typeof parsed.position === 'number' ? { position: parsed.position } : {}),
    };
  } catch {
    return {};
  }
}

/** One file as a page: markdown, HTML (its content and title) or a Word document. */
export async function convertFile(
  path: string,
  bytes: Buffer,
  refs: Required<MarkdownRefs>,
  builder: LayoutBuilder,
  context: ConvertContext,
): Promise<Converted> {
  const name = posix.basename(path);
  if (MARKDOWN_EXTENSIONS.test(path)) {
    const page = convertMarkdown(bytes.toString('utf8'), refs);
    return {
      page: {
        title: page.title ?? titleFromName(name),
        body: page.body,
        ...(page.description ? { description: page.description } : {}),
        ...(page.slug ? { slug: page.slug } : {}),
        key: path,
        source: path,
        children: [],
      },
      order: page.order ?? orderFromName(name),
      name,
    };
  }
  let html: string;
  let title: string | undefined;
  let description: string | undefined;
  if (/\.docx$/i.test(path)) {
    let count = 0;
    const stem = name.replace(/\.docx$/i, '');
    html = await docxToHtml(
      bytes,
      (data, contentType) =>
        builder.assetRef(data, `${stem}-image-${++count}.${contentType.split('/')[1] ?? 'png'}`),
      (message) => context.warn(`${path}: ${message}`),
    );
  } else {
    const read = readHtmlPage(bytes.toString('utf8'));
    html = read.main.outerHTML;
    title = read.title;
    description = read.description;
  }
  let body = htmlToMarkdown(html, {
    link: (href) => refs.link(href) ?? href,
    image: (src) =>
      src.startsWith('data:') ? builder.dataImageRef(src) : (refs.image(src) ?? src),
  });
  if (!title) {
    const heading = /^# (.+)\n/.exec(body);
    if (heading) {
      title = heading[1].replace(/\\(.)/g, '$1');
      body = body.slice(heading[0].length);
    }
  }
  return {
    page: {
      title: title ?? titleFromName(name),
      body,
      ...(description ? { description } : {}),
      key: path,
      source: path,
      children: [],
    },
    order: orderFromName(name),
    name,
  };
}

/** Names the files that are neither pages nor used by one (at most ten, then a count). */
function warnUnused(set: FileSet, used: Set<string>, context: ConvertContext): void {
  const unused = [...set.files.keys()].filter(
    (path) =>
      !used.has(path) &&
      !/(^|\/)_category_\.json$|^mkdocs\.ya?ml$/.test(path) &&
      !path.startsWith('.gitbook/'),
  );
  if (unused.length === 0) return;
  const named = unused.slice(0, 10).join(', ');
  const more = unused.length > 10 ? ` and ${unused.length - 10} more` : '';
  context.warn(`Not imported (not a page, nor a file a page uses): ${named}${more}.`);
}
