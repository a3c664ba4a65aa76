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
 */

export const ASSETS_DIR = '.gitbook/assets';
export const DEFAULT_README = 'README.md';
export const DEFAULT_SUMMARY = 'SUMMARY.md';

/** A page as the layout needs it. */
export interface PathPage {
  id: string;
  type: string;
  slug?: string;
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
  // Slugs compare case-insensitively with README.md and SUMMARY.md.
  const taken = new Set<string>(['readme', 'summary']);
  if (readme) paths.pages.set(readme.id, DEFAULT_README);
  const place = (list: readonly PathPage[], dir: string, used: Set<string>) => {
    for (const page of list) {
      if (page.type === 'link' || page.id === readme?.id) continue;
      const base = unique(page.slug || 'page', used);
      if (page.type === 'group') {
        place(page.pages, posix.join(dir, base), new Set(['readme']));
      } else if (page.pages.length > 0) {
        paths.pages.set(page.id, posix.join(dir, base, DEFAULT_README));
        place(page.pages, posix.join(dir, base), new Set(['readme']));
      } else {
        paths.pages.set(page.id, posix.join(dir, `${base}.md`));
      }
    }
  };
  place(pages, '', taken);
  const names = new Set<string>();
  for (const file of files) {
    paths.files.set(file.id, posix.join(ASSETS_DIR, uniqueName(safeName(file.name), names)));
  }
  return paths;
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
      pages.push({
        id: node.id,
        type: node.type,
        ...(typeof slug === 'string' ? { slug } : {}),
        pages: await pagesOf(node.pages),
      });
    }
    return pages;
  };
  const files: PathFile[] = [];
  for (const hash of root.files) files.push(await getRequired<FileNode>(store, hash));
  return planMarkdownPaths(await pagesOf(await childRefs(store, root.pages)), files);
}
