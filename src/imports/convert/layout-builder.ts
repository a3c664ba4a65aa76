import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import { dump } from 'js-yaml';
import type { ImportTree } from './types';

/**
 * A page of an import before it has a file: converters give its title and markdown body,
 * where links to other pages and to assets are placeholders (`pageRef`, `assetRef`), rewritten
 * to relative paths once every page has its file.
 */
export interface ImportPage {
  title: string;
  /** GitBook markdown without the page's `# title` heading. */
  body: string;
  description?: string;
  /** Where the page came from (a URL, the uploaded file's path). */
  source?: string;
  /** Key of the page for `pageRef` (the source path or URL); none when nothing links to it. */
  key?: string;
  /** A file name to prefer over the title's slug (Docusaurus `slug`, …). */
  slug?: string;
  children: ImportPage[];
}

const PAGE_REF = 'bindery-import-page:';
const ASSET_REF = 'bindery-import-asset:';
const REF = new RegExp(`(${PAGE_REF}|${ASSET_REF})(\\d+)`, 'g');

export const ASSETS_DIR = '.gitbook/assets';

/**
 * Collects pages and assets and writes them as GitBook's Git Sync layout: `SUMMARY.md` for the
 * tree, `README.md` for the first top-level page without subpages, `<slug>/README.md` for a
 * page with subpages and `<slug>.md` for the others, assets under `.gitbook/assets/`.
 */
export class LayoutBuilder {
  private readonly pageKeys = new Map<string, number>();
  private readonly assets: { name: string; bytes: Buffer }[] = [];
  private readonly assetsByHash = new Map<string, number>();
  private readonly assetNames = new Set<string>();

  /** A placeholder link to the page of `key`, `#anchor` kept: rewritten to its file. */
  pageRef(key: string, anchor?: string): string {
    let id = this.pageKeys.get(key);
    if (id === undefined) {
      id = this.pageKeys.size;
      this.pageKeys.set(key, id);
    }
    return `${PAGE_REF}${id}${anchor ? `#${anchor}` : ''}`;
  }

  /** Adds an asset (the same bytes once) and gives the placeholder of its path. */
  assetRef(bytes: Buffer, name: string): string {
    const hash = createHash('sha256').update(bytes).digest('hex');
    let id = this.assetsByHash.get(hash);
    if (id === undefined) {
      id = this.assets.length;
      const fileName = uniqueName(assetFileName(name), this.assetNames);
      this.assetNames.add(fileName.toLowerCase());
      this.assets.push({ name: fileName, bytes });
      this.assetsByHash.set(hash, id);
    }
    return `${ASSET_REF}${id}`;
  }

  /** An inline image (`data:image/png;base64,…`) as an asset; undefined for anything else. */
  dataImageRef(src: string, name = 'image'): string | undefined {
    const match = /^data:image\/([\w.+-]+)(?:;[\w=-]+)*?;base64,([\s\S]*)$/i.exec(src);
    if (!match) return undefined;
    const bytes = Buffer.from(match[2], 'base64');
    if (bytes.length === 0) return undefined;
    const ext = match[1].toLowerCase().replace('svg+xml', 'svg').replace('jpeg', 'jpg');
    return this.assetRef(bytes, `${name}.${ext}`);
  }

  get assetCount(): number {
    return this.assets.length;
  }

  /** The layout of `pages`: every placeholder a path relative to the page holding it. */
  build(pages: ImportPage[]): ImportTree {
    const files = new Map<string, Buffer>();
    const sources = new Map<string, string>();
    const placed: { page: ImportPage; path: string }[] = [];
    const pathOfKey = new Map<string, string>();
    const place = (list: ImportPage[], dir: string, top: boolean) => {
      const taken = new Set<string>(top ? ['readme', 'summary'] : ['readme']);
      list.forEach((page, index) => {
        let path: string;
        if (top && index === 0 && page.children.length === 0) {
          path = 'README.md';
        } else {
          const slug = uniqueName(slugify(page.slug ?? page.title), taken);
          taken.add(slug);
          path = page.children.length > 0 ? `${dir}${slug}/README.md` : `${dir}${slug}.md`;
          if (page.children.length > 0) place(page.children, `${dir}${slug}/`, false);
        }
        placed.push({ page, path });
        if (page.key !== undefined && !pathOfKey.has(page.key)) pathOfKey.set(page.key, path);
      });
    };
    place(pages, '', true);
    const pathOfId = new Map<number, string>();
    for (const [key, id] of this.pageKeys) {
      const path = pathOfKey.get(key);
      if (path) pathOfId.set(id, path);
    }
    for (const { page, path } of placed) {
      const body = this.resolve(page.body, path, pathOfId);
      files.set(path, Buffer.from(pageFile(page, body), 'utf8'));
      if (page.source !== undefined) sources.set(path, page.source);
    }
    files.set('SUMMARY.md', Buffer.from(summary(pages, placed), 'utf8'));
    for (const asset of this.assets) files.set(`${ASSETS_DIR}/${asset.name}`, asset.bytes);
    return { files, sources };
  }

  private resolve(body: string, path: string, pathOfId: Map<number, string>): string {
    const dir = posix.dirname(path);
    return body.replace(REF, (match, kind: string, id: string) => {
      const target =
        kind === PAGE_REF
          ? pathOfId.get(Number(id))
          : this.assets[Number(id)] && `${ASSETS_DIR}/${this.assets[Number(id)].name}`;
      // A page that was not imported: a link to nothing, written as an anchor-less `#`.
      if (!target) return '#';
      const relative = posix.relative(dir === '.' ? '' : dir, target);
      if (kind === PAGE_REF && target.endsWith('/README.md')) {
        // GitBook writes a folder's README.md as the folder (`../plans/`, `./`).
        const folder = posix.dirname(relative);
        return folder === '.' ? './' : `${folder}/`;
      }
      return relative;
    });
  }
}

/** The markdown file of a page: front matter (description), `# title`, body. */
function pageFile(page: ImportPage, body: string): string {
  const description = page.description?.replace(/\s+/g, ' ').trim();
  const head = description ? `---\n${dump({ description }, { lineWidth: 80 })}---\n\n` : '';
  const text = body.replace(/^\s*\n/, '').replace(/\s+$/, '');
  return `${head}# ${headingText(page.title)}\n${text ? `\n${text}\n` : ''}`;
}

function headingText(title: string): string {
  return (
    title
      .replace(/\s+/g, ' ')
      .trim()
      .replace(/[\\*_`[\]<]/g, (c) => `\\${c}`) || 'Untitled'
  );
}

function summary(pages: ImportPage[], placed: { page: ImportPage; path: string }[]): string {
  const pathOf = new Map(placed.map(({ page, path }) => [page, path]));
  const lines: string[] = ['# Table of contents', ''];
  const walk = (list: ImportPage[], depth: number) => {
    for (const page of list) {
      const path = pathOf.get(page) ?? '';
      const target = /[\s()<>]/.test(path) ? `<${path}>` : path;
      lines.push(`${'  '.repeat(depth)}* [${summaryTitle(page.title)}](${target})`);
      walk(page.children, depth + 1);
    }
  };
  walk(pages, 0);
  return `${lines.join('\n')}\n`;
}

function summaryTitle(title: string): string {
  return (
    title
      .replace(/\s+/g, ' ')
      .trim()
      .replace(/[\\*_`[\]]/g, (c) => `\\${c}`) || 'Untitled'
  );
}

/** Runs of anything but letters, digits and combining marks, in any script. */
const SEPARATORS = /[^\p{L}\p{N}\p{M}]+/gu;

/**
 * A file name for a title, as GitBook names pages' files: lower-cased (NFKC), letters and
 * digits of every script kept, every run of anything else one `-`, at most 100 characters.
 */
export function slugify(title: string): string {
  const slug = title
    .normalize('NFKC')
    .toLowerCase()
    .normalize('NFKC')
    .replace(SEPARATORS, '-')
    .replace(/^-+|-+$/g, '');
  return Array.from(slug).slice(0, 100).join('').replace(/-+$/, '') || 'page';
}

/** `base`, else `base-2`, `base-3`…: the first not in `taken` (compared lower-cased). */
function uniqueName(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base.toLowerCase())) return base;
  const dot = base.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [base.slice(0, dot), base.slice(dot)] : [base, ''];
  for (let n = 2; ; n++) {
    const candidate = `${stem}-${n}${ext}`;
    if (!taken.has(candidate.toLowerCase())) return candidate;
  }
}

/** An asset's file name: its base name with only letters, digits, `.`, `-`, `_`. */
function assetFileName(name: string): string {
  const base = posix.basename(name.replace(/\\/g, '/')).replace(/[?#].*$/, '');
  let decoded = base;
  try {
    decoded = decodeURIComponent(base);
  } catch {
    // Not percent-encoded: the name as it is.
  }
  const clean = decoded
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N}._-]+/gu, '-')
    .replace(/^[-.]+|-+$/g, '');
  return Array.from(clean).slice(-100).join('') || 'file';
}
