import { posix } from 'node:path';
import { childRefs, readPage, readRoot, type ChildRef, type FileNode } from '../tree/format';
import { getRequired, type ObjectStore } from '../tree/object-store';

/*
 * Where pages and files sit when a space is written as markdown files: GitBook's Git Sync
 * layout. Links between pages, and to files, are written in markdown as paths relative to the
 * linking page in this layout, by the Git export and by `format=markdown` reads alike, and are
 * read back the same way (see markdown-refs.ts).
 *
 * - A page with subpages is `<slug>/README.md`, its subpages sit in `<slug>/`; a group page is
 *   the folder `<slug>/` of its pages; other document pages are `<slug>.md`.
 * - The first top-level document page without subpages is the root `README.md`.
 * - Files are `.gitbook/assets/<name>`.
 * - Names are made unique per folder (`<slug>-2`), case-insensitively, and never `README` or
 *   `SUMMARY` at the top.
 * - A hidden page without subpages keeps the file it was imported from or exported to
 *   (`keep`, see keptPath) when that path is free: a markdown file SUMMARY.md did not list is
 *   imported as a hidden page wherever its folder is, and is written back to the same file.
 */

export const ASSETS_DIR = '.gitbook/assets';
export const DEFAULT_README = 'README.md';
export const DEFAULT_SUMMARY = 'SUMMARY.md';

/** A page as the layout needs it. */
export interface PathPage {
  id: string;
  type: string;
  slug?: string;
  /** The file to keep for the page, relative to the content root (see keptPath). */
  keep?: string;
  pages: readonly PathPage[];
}

/** A file as the layout needs it. */
export interface PathFile {
  id: string;
  name: string;
}

/** Where each page and file goes, relative to the content root, by id. */
export interface MarkdownPaths {
  pages: Map<string, string>;
  files: Map<string, string>;
}

export function planMarkdownPaths(
  pages: readonly PathPage[],
  files: readonly PathFile[],
): MarkdownPaths {
  const paths: MarkdownPaths = { pages: new Map(), files: new Map() };
  const readme = pages.find((page) => page.type === 'document' && page.pages.length === 0);
  // Names taken per folder (lowercase, without `.md`); slugs compare case-insensitively with
  // README.md and SUMMARY.md.
  const folders = new Map<string, Set<string>>([['', new Set(['readme', 'summary'])]]);
  const usedIn = (dir: string) => {
    const key = dir.toLowerCase();
    let used = folders.get(key);
    if (!used) folders.set(key, (used = new Set(['readme'])));
    return used;
  };
  if (readme) paths.pages.set(readme.id, DEFAULT_README);
  // Kept files first, in tree order: the first page keeping a path has it.
  const keep = (list: readonly PathPage[]) => {
    for (const page of list) {
      if (page.keep && page.type === 'document' && page.pages.length === 0) {
        if (page.id !== readme?.id) {
          const dir = posix.dirname(page.keep) === '.' ? '' : posix.dirname(page.keep);
          const name = posix.basename(page.keep).replace(/\.md$/i, '').toLowerCase();
          const used = usedIn(dir);
          if (!used.has(name)) {
            used.add(name);
            paths.pages.set(page.id, page.keep);
          }
        }
      }
      keep(page.pages);
    }
  };
  keep(pages);
  const place = (list: readonly PathPage[], dir: string) => {
    for (const page of list) {
      if (page.type === 'link' || page.type === 'computed' || paths.pages.has(page.id)) continue;
      const base = unique(page.slug || 'page', usedIn(dir));
      if (page.type === 'group') {
        place(page.pages, posix.join(dir, base));
      } else if (page.pages.length > 0) {
        paths.pages.set(page.id, posix.join(dir, base, DEFAULT_README));
        place(page.pages, posix.join(dir, base));
      } else {
        paths.pages.set(page.id, posix.join(dir, `${base}.md`));
      }
    }
  };
  place(pages, '');
  const names = new Set<string>();
  for (const file of files) {
    paths.files.set(file.id, posix.join(ASSETS_DIR, uniqueName(safeName(file.name), names)));
  }
  return paths;
}

/**
 * The file a page keeps (`keep` of PathPage): for a hidden page, the path of its file in the
 * repository (`git.path`), relative to the synced `directory`, when it is a markdown file the
 * layout could hold: inside the directory, under no folder starting with `.` (such as
 * `.gitbook/`), not a README.md or SUMMARY.md.
 */
export function keptPath(meta: Record<string, unknown>, directory = ''): string | undefined {
  if (meta.hidden !== true) return undefined;
  const git = meta.git as { path?: unknown } | undefined;
  if (typeof git?.path !== 'string') return undefined;
  const prefix = directory === '' ? '' : `${directory}/`;
  if (!git.path.startsWith(prefix)) return undefined;
  const path = git.path.slice(prefix.length);
  const segments = path.split('/');
  const name = segments[segments.length - 1].toLowerCase();
  if (
    !/^[^/]+\.md$/.test(name) ||
    name === DEFAULT_README.toLowerCase() ||
    name === DEFAULT_SUMMARY.toLowerCase() ||
    segments.some((segment) => segment === '' || segment.startsWith('.') || segment === '..')
  ) {
    return undefined;
  }
  return path;
}

function unique(base: string, used: Set<string>): string {
  let candidate = base;
  for (let n = 2; used.has(candidate.toLowerCase()); n++) candidate = `${base}-${n}`;
  used.add(candidate.toLowerCase());
  return candidate;
}

/** A file name that stays one path segment and no hidden file. */
function safeName(name: string): string {
  const cleaned = name.replace(/[/\\\0]/g, '-').replace(/^\.+/, '');
  return cleaned || 'file';
}

function uniqueName(name: string, used: Set<string>): string {
  const ext = posix.extname(name);
  const stem = name.slice(0, name.length - ext.length);
  let candidate = name;
  for (let n = 2; used.has(candidate.toLowerCase()); n++) candidate = `${stem}-${n}${ext}`;
  used.add(candidate.toLowerCase());
  return candidate;
}

/** The layout of a tree, read from a store (one page at a time, for drafts). */
export async function markdownPathsOfTree(
  store: ObjectStore,
  rootHash: string,
): Promise<MarkdownPaths> {
  const root = await readRoot(store, rootHash);
  const pagesOf = async (refs: ChildRef[]): Promise<PathPage[]> => {
    const pages: PathPage[] = [];
    for (const ref of refs) {
      const node = await readPage(store, ref.hash);
      const slug = node.meta.slug;
      const keep = keptPath(node.meta);
      pages.push({
        id: node.id,
        type: node.type,
        ...(typeof slug === 'string' ? { slug } : {}),
        ...(keep ? { keep } : {}),
        pages: await pagesOf(node.pages),
      });
    }
    return pages;
  };
  const files: PathFile[] = [];
  for (const hash of root.files) files.push(await getRequired<FileNode>(store, hash));
  return planMarkdownPaths(await pagesOf(await childRefs(store, root.pages)), files);
}
