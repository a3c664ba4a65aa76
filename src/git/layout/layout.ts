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
 * Page metadata the repository holds (PageMeta keys, src/content-engine/tree/format.ts): what
 * frontmatter carries, in GitBook's form (see frontmatter-meta.ts), the title SUMMARY.md gives
 * the page (`linkTitle`, when it is not the page's heading) and how the page's file was written
 * (`gitForm`, PageGitForm). An import replaces them.
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
  'linkTitle',
  'gitForm',
] as const;

/**
 * How a page's file was written where GitBook would write it otherwise (PageMeta `gitForm`),
 * so that an export writes it back as it was: kept with the page in the revision, and only
 * where it differs from GitBook's form. Never part of the API's page.
 */
export interface PageGitForm {
  /** The file's head (frontmatter, blank lines, heading) as read: see page-head.ts. */
  head?: string;
  /** What follows the body, when it is not one line end. */
  tail?: string;
  /**
   * Links to pages and files the file wrote otherwise than GitBook would (a folder's README.md
   * as `../plans/README.md` where GitBook writes `../plans/`, `./page.md`, `%20`, …): the
   * targets as written (backslash escapes taken off), with their anchors.
   */
  links?: string[];
  /** A markdown file SUMMARY.md did not list: imported as a hidden page, and left out of it. */
  unlisted?: true;
  /** The title attribute of the page's SUMMARY.md link (`[Title](page.md "Attribute")`). */
  summaryTitle?: string;
  /**
   * The text of the page's SUMMARY.md entry as written, when GitBook would escape it otherwise
   * (`Install \\(Linux\\)`, `monitor_agent`): written back while it still says the title.
   */
  summaryText?: string;
  /**
   * A SUMMARY.md entry without a link (`* Obsolete installation` over its items): an empty page
   * with no file, written back as such while it has no content of its own.
   */
  linkless?: true;
  /** Computed pages: their YAML block in SUMMARY.md as written, when not GitBook's form. */
  yaml?: string;
}

export type LayoutPageType = 'document' | 'group' | 'link' | 'computed';

/** A page as the layout knows it. */
export interface LayoutPage {
  id: string;
  type: LayoutPageType;
  title: string;
  slug?: string;
  /** Document pages: the body, without the title heading; undefined = an empty page. */
  markdown?: string;
  /**
   * Page metadata the repository holds (FRONTMATTER_KEYS; for computed pages `computed`, their
   * source: GitBook's `ComputedContentSourceRevision`), as PageMeta holds it.
   */
  meta: Record<string, unknown>;
  /** Link pages: where they point, a URL... */
  href?: string;
  /** ...or a page of the space (and an anchor in it): GitBook's link pages to pages. */
  target?: { page: string; anchor?: string };
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
