import { posix } from 'node:path';
import { isValidSlug, slugify } from '../../content-engine/tree/slug';

/**
 * GitBook's Git Sync layout, as Bindery writes and reads it. A repository (or its
 * `repoProjectDirectory`) holds:
 *
 * - `.gitbook.yaml`: `root` (the folder of the content) and `structure.readme` /
 *   `structure.summary` (the first page's file and the table of contents, relative to `root`);
 * - `SUMMARY.md`: the page tree as nested bullet lists of links to the pages' files, `## Title`
 *   headings for top-level group pages, absolute URLs for link pages;
 * - one markdown file per page: YAML frontmatter for its metadata, `# Title`, then its body. A
 *   page with subpages is `<slug>/README.md`, its subpages sit in `<slug>/`; the first top-level
 *   page without subpages is the root `README.md`;
 * - `.gitbook/assets/<name>`: the files.
 */

/**
 * Page metadata carried in frontmatter (PageMeta keys, src/content-engine/tree/format.ts), in GitBook's
 * form (see frontmatter-meta.ts).
 */
export const FRONTMATTER_KEYS = [
  'description',
  'emoji',
  'icon',
  'hidden',
  'noIndex',
  'noRobotsIndex',
  'layout',
  'cover',
] as const;

export type LayoutPageType = 'document' | 'group' | 'link';

/** A page as the layout knows it. */
export interface LayoutPage {
  id: string;
  type: LayoutPageType;
  title: string;
  slug?: string;
  /** Document pages: the body, without the title heading; undefined = an empty page. */
  markdown?: string;
  /** Page metadata kept in frontmatter (FRONTMATTER_KEYS), as PageMeta holds it. */
  meta: Record<string, unknown>;
  /** Link pages: where they point. */
  href?: string;
  /** Hidden pages: the file to keep, when free (see keptPath in markdown-paths.ts). */
  keep?: string;
  pages: LayoutPage[];
}

export interface LayoutFile {
  id: string;
  name: string;
  contentType?: string;
  data: Buffer;
}

export const GITBOOK_YAML = '.gitbook.yaml';
export {
  ASSETS_DIR,
  DEFAULT_README,
  DEFAULT_SUMMARY,
} from '../../content-engine/refs/markdown-paths';

/** The name a path gives its page: a file's name without `.md`, a folder README's folder. */
export function slugSource(path: string): string | undefined {
  const base = posix.basename(path).replace(/\.md$/i, '');
  if (base.toLowerCase() !== 'readme') return base;
  const dir = posix.dirname(path);
  return dir === '.' ? undefined : posix.basename(dir);
}

/** The slug a page's path gives it when its frontmatter has none. */
export function slugFromPath(path: string): string | undefined {
  const source = slugSource(path);
  if (source === undefined) return undefined;
  return isValidSlug(source) ? source : slugify(source);
}
