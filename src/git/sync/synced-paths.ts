import { posix } from 'node:path';
import {
  ASSETS_DIR,
  DEFAULT_README,
  planMarkdownPaths,
  type MarkdownPaths,
} from '../../content-engine/refs/markdown-paths';
import type { LayoutFile, LayoutPage } from '../layout/layout';

/** Where the last sync had each page and file (relative to the content root), by id. */
export interface PreviousPaths {
  pages: ReadonlyMap<string, string>;
  files: ReadonlyMap<string, string>;
}

/**
 * Paths for an export into a repository synced before: every page and file keeps the path it
 * had (the repository's own names and folders: `intro.md`, `install.md` with subpages, a file
 * outside `.gitbook/assets/`), and what is new goes beside its parent's file as GitBook's
 * layout would place it: a subpage of `guide/README.md` or of `guide.md` in `guide/`, a page
 * of a group in the folder its other pages share, `<slug>.md` (`<slug>/README.md` with
 * subpages), names made unique. `occupied`: paths (lowercase) of the repository that belong to
 * neither, which new paths avoid. Without a previous sync, GitBook's default layout
 * (planMarkdownPaths).
 */
export function planSyncedPaths(
  pages: readonly LayoutPage[],
  files: readonly Pick<LayoutFile, 'id' | 'name'>[],
  previous: PreviousPaths,
  occupied: ReadonlySet<string> = new Set(),
): MarkdownPaths {
  if (previous.pages.size === 0 && previous.files.size === 0) {
    return planMarkdownPaths(pages, files);
  }
  const paths: MarkdownPaths = { pages: new Map(), files: new Map() };
  // New names avoid every taken name whatever its case (a checkout on a case-insensitive file
  // system would merge them); a path kept from the last sync only its own (the repository may
  // hold `Logo.png` and `logo.png` both).
  const taken = new Set([...occupied].map((path) => path.toLowerCase()));
  const exact = new Set(occupied);
  const claim = (path: string) => {
    taken.add(path.toLowerCase());
    exact.add(path);
  };
  const free = (path: string) => !taken.has(path.toLowerCase());
  const keepable = (path: string) => !exact.has(path);

  const keepPages = (list: readonly LayoutPage[]) => {
    for (const page of list) {
      const path = previous.pages.get(page.id);
      if (page.type === 'document' && path && keepable(path)) {
        paths.pages.set(page.id, path);
        claim(path);
      }
      keepPages(page.pages);
    }
  };
  keepPages(pages);

  /** The folder of the subpages of a page (or of a group) at `dir`. */
  const folderOf = (page: LayoutPage, dir: string): string => {
    const own = paths.pages.get(page.id);
    if (own) {
      return posix.basename(own).toLowerCase() === DEFAULT_README.toLowerCase()
        ? parentDir(own)
        : own.replace(/\.md$/i, '');
    }
    if (page.type === 'group') {
      const folders = new Set(
        page.pages.flatMap((child) => {
          const path = paths.pages.get(child.id);
          return path ? [parentDir(path)] : [];
        }),
      );
      if (folders.size === 1) return [...folders][0];
    }
    return posix.join(dir, page.slug || 'page');
  };
  const place = (list: readonly LayoutPage[], dir: string) => {
    for (const page of list) {
      if (page.type === 'document' && !paths.pages.has(page.id)) {
        const base = page.slug || 'page';
        const name = (n: number) => (n === 1 ? base : `${base}-${n}`);
        let n = 1;
        const pathFor = (candidate: string) =>
          page.pages.length > 0
            ? posix.join(dir, candidate, DEFAULT_README)
            : posix.join(dir, `${candidate}.md`);
        while (!free(pathFor(name(n))) || (dir === '' && /^(readme|summary)$/i.test(name(n)))) {
          n++;
        }
        paths.pages.set(page.id, pathFor(name(n)));
        claim(pathFor(name(n)));
      }
      if (page.type !== 'link') place(page.pages, folderOf(page, dir));
    }
  };
  place(pages, '');

  const newFiles: Pick<LayoutFile, 'id' | 'name'>[] = [];
  for (const file of files) {
    const path = previous.files.get(file.id);
    if (path && keepable(path)) {
      paths.files.set(file.id, path);
      claim(path);
    } else {
      newFiles.push(file);
    }
  }
  for (const file of newFiles) {
    const name = file.name.replace(/[/\\\0]/g, '-').replace(/^\.+/, '') || 'file';
    const ext = posix.extname(name);
    const stem = name.slice(0, name.length - ext.length);
    let candidate = posix.join(ASSETS_DIR, name);
    for (let n = 2; !free(candidate); n++) candidate = posix.join(ASSETS_DIR, `${stem}-${n}${ext}`);
    paths.files.set(file.id, candidate);
    claim(candidate);
  }
  return paths;
}

function parentDir(path: string): string {
  const dir = posix.dirname(path);
  return dir === '.' ? '' : dir;
}
