import { parse } from 'csv-parse/sync';
import { posix } from 'node:path';
import type { FileSet } from './file-set';
import { convertFile } from './folder-tree';
import type { ImportPage, LayoutBuilder } from './layout-builder';
import type { MarkdownRefs } from './markdown-files';
import { nextTurn } from './turn';
import type { ConvertContext } from './types';

/** Notion names every page and database `Title <32 hex id>` (`_all` for a database's full view). */
const NOTION_NAME = /^(.*?) ([0-9a-f]{32})(_all)?(?:\.(md|html|csv))?$/i;

interface Item {
  /** The file read (a database: its `_all.csv` when there is one). */
  path: string;
  /** The folder of its subpages: the file's path without extension (or `_all`). */
  folder: string;
  id: string;
  name: string;
  kind: 'page' | 'database';
}

/** A Notion export: markdown, HTML or CSV files named `Title <32 hex id>`. */
export function isNotionExport(set: FileSet): boolean {
  let named = 0;
  for (const path of set.files.keys()) {
    const match = NOTION_NAME.exec(posix.basename(path));
    if (match?.[4]) named++;
  }
  return named > 0;
}

/**
 * A Notion export (Markdown & CSV, or HTML): each `Title <id>.md` a page, the folder of the same
 * name its subpages, in the order the page links to them; each database (`.csv`) a page with
 * its rows as a table (names linking to the rows' pages), over the rows' pages. Callouts
 * (`<aside>`) are hints; links between pages (relative, or notion.so URLs naming an exported
 * page's id) point at the pages, images and attachments become assets.
 */
export async function convertNotion(
  set: FileSet,
  builder: LayoutBuilder,
  context: ConvertContext,
): Promise<ImportPage[]> {
  const items = new Map<string, Item>();
  for (const path of set.files.keys()) {
    const match = NOTION_NAME.exec(posix.basename(path));
    if (!match?.[4]) continue;
    const kind = match[4].toLowerCase() === 'csv' ? 'database' : 'page';
    const dir = posix.dirname(path) === '.' ? '' : `${posix.dirname(path)}/`;
    const folder = `${dir}${match[1]} ${match[2]}`;
    const existing = items.get(folder);
    // A database's `_all.csv` holds every row; the other CSV only its default view's.
    if (existing && !(kind === 'database' && match[3])) continue;
    items.set(folder, { path, folder, id: match[2].toLowerCase(), name: match[1], kind });
  }
  const byId = new Map([...items.values()].map((item) => [item.id, item]));
  const keyOfPath = new Map<string, string>();
  for (const item of items.values()) {
    keyOfPath.set(item.path, item.path);
    keyOfPath.set(`${item.folder}.csv`, item.path);
    keyOfPath.set(`${item.folder}/`, item.path);
  }
  const refsFor = (from: string): Required<MarkdownRefs> => ({
    link: (target) => {
      const id = /^https?:\/\/(?:www\.)?notion\.(?:so|site)\/.*?([0-9a-f]{32})(?:[?#].*)?$/i.exec(
        target,
      )?.[1];
      if (id) {
        const item = byId.get(id.toLowerCase());
        return item ? builder.pageRef(item.path) : undefined;
      }
      const found = set.resolve(from, target);
      if (!found) return undefined;
      const key = keyOfPath.get(found.path);
      if (key) return builder.pageRef(key, found.anchor);
      const bytes = set.files.get(found.path);
      return bytes ? builder.assetRef(bytes, posix.basename(found.path)) : undefined;
    },
    image: (target) => {
      const found = set.resolve(from, target);
      const bytes = found && set.files.get(found.path);
      return bytes ? builder.assetRef(bytes, posix.basename(found.path)) : undefined;
    },
  });

  const pages = new Map<Item, ImportPage>();
  let done = 0;
  for (const item of items.values()) {
    context.signal.throwIfAborted();
    try {
      pages.set(item, await convertItem(item, set, refsFor(item.path), builder, context));
    } catch (error) {
      context.warn(`${item.path}: could not be converted (${(error as Error).message}), left out.`);
    }
    await context.progress(++done, items.size);
    await nextTurn();
  }

  // The tree: an item's subpages are the items of its folder, in the order its text names them.
  const childrenOf = new Map<string, Item[]>();
  const top: Item[] = [];
  for (const item of items.values()) {
    const parentFolder = posix.dirname(item.path);
    if (items.has(parentFolder)) {
      childrenOf.set(parentFolder, [...(childrenOf.get(parentFolder) ?? []), item]);
    } else {
      top.push(item);
    }
  }
  const build = (item: Item): ImportPage | undefined => {
    const page = pages.get(item);
    if (!page) return undefined;
    const text = set.files.get(item.path)?.toString('utf8') ?? '';
    const children = (childrenOf.get(item.folder) ?? [])
      .map((child) => ({ child, at: mentionAt(text, child) }))
      .sort(
        (a, b) => a.at - b.at || a.child.name.localeCompare(b.child.name, 'en', { numeric: true }),
      )
      .map(({ child }) => build(child))
      .filter((child): child is ImportPage => child !== undefined);
    return { ...page, children };
  };
  return top
    .sort((a, b) => a.name.localeCompare(b.name, 'en', { numeric: true }))
    .map(build)
    .filter((page): page is ImportPage => page !== undefined);
}

/** Where a page's text first links to `child` (its file, percent-encoded or not); else last. */
function mentionAt(text: string, child: Item): number {
  const file = posix.basename(child.path).replace(/_all(?=\.csv$)/, '');
  const candidates = [
    file,
    encodeURIComponent(file),
    encodeURI(file),
    file.replace(/ /g, '%20'),
    child.id,
  ];
  const positions = candidates.map((candidate) => text.indexOf(candidate)).filter((at) => at >= 0);
  return positions.length > 0 ? Math.min(...positions) : Number.MAX_SAFE_INTEGER;
}

async function convertItem(
  item: Item,
  set: FileSet,
  refs: Required<MarkdownRefs>,
  builder: LayoutBuilder,
  context: ConvertContext,
): Promise<ImportPage> {
  const bytes = set.files.get(item.path) as Buffer;
  if (item.kind === 'database') {
    return {
      title: item.name,
      body: databaseTable(bytes, item, set, refs),
      key: item.path,
      source: item.path,
      children: [],
    };
  }
  const text = bytes
    .toString('utf8')
    .replace(
      /<aside>\s*([\s\S]*?)\s*<\/aside>/g,
      (_match, body: string) => `{% hint style="info" %}\n${body.trim()}\n{% endhint %}`,
    );
  const converted = await convertFile(item.path, Buffer.from(text, 'utf8'), refs, builder, context);
  const page = converted.page;
  return { ...page, title: page.title === posix.basename(item.path) ? item.name : page.title };
}

/** A database's rows as a Markdown table, each row's name a link to its page when exported. */
function databaseTable(
  bytes: Buffer,
  item: Item,
  set: FileSet,
  refs: Required<MarkdownRefs>,
): string {
  let rows: string[][];
  try {
    rows = parse(bytes.toString('utf8').replace(/^\uFEFF/, ''), {
      relax_column_count: true,
      skip_empty_lines: true,
    });
  } catch {
    return '';
  }
  if (rows.length === 0) return '';
  const rowPages = new Map<string, string>();
  for (const path of set.files.keys()) {
    if (posix.dirname(path) !== item.folder) continue;
    const match = NOTION_NAME.exec(posix.basename(path));
    if (match?.[4] && match[4].toLowerCase() !== 'csv' && !rowPages.has(match[1]))
      rowPages.set(match[1], path);
  }
  const columns = Math.max(...rows.map((row) => row.length));
  const cell = (text: string) =>
    text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, '<br>').trim();
  const line = (row: string[]) =>
    `| ${Array.from({ length: columns }, (_, i) => row[i] ?? '').join(' | ')} |`.replace(
      / {2,}\|/g,
      ' |',
    );
  const [header, ...body] = rows;
  const out = [line(header.map(cell)), `|${' --- |'.repeat(columns)}`];
  for (const row of body) {
    const cells = row.map(cell);
    const page = rowPages.get(row[0] ?? '');
    const link = page
      ? refs.link(encodeURI(posix.relative(posix.dirname(item.path), page)))
      : undefined;
    if (link && cells[0]) cells[0] = `[${cells[0].replace(/[[\]]/g, (c) => `\\${c}`)}](${link})`;
    out.push(line(cells));
  }
  return out.join('\n');
}
