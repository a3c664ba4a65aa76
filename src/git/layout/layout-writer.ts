import { CORE_SCHEMA, dump, load } from 'js-yaml';
import type { MarkdownPaths } from '../../content-engine/refs/markdown-paths';
import { slugify } from '../../content-engine/tree/slug';
import { slugFromPath, type LayoutPage, type PageGitForm } from './layout';
import { frontmatterToMeta, metaToFrontmatter, type FileLocations } from './frontmatter-meta';
import { canonicalHead, plain, renderHead, splitHead } from './page-head';

/** Where each page and file goes, relative to the content root (GitBook's layout). */
export type LayoutPaths = MarkdownPaths;

/**
 * SUMMARY.md as GitBook writes it: `# Table of contents`, the top-level pages, then one
 * `## Title` section per group page, sections one blank line apart; an entry per page, nested
 * by two spaces, titled by its `linkTitle` when it has one; link pages to a URL or to a page
 * (`page.md#anchor`); computed pages as the YAML block of their source. Hidden pages GitBook
 * would not list (see summaryPages) are left out by the caller.
 */
export function renderSummary(pages: readonly LayoutPage[], paths: LayoutPaths): string {
  const sections: string[][] = [];
  let loose: string[] | undefined;
  const items = (list: readonly LayoutPage[], depth: number, into: string[]) => {
    for (const page of list) {
      const indent = '  '.repeat(depth);
      if (page.type === 'computed') {
        const computed = page.meta.computed;
        if (typeof computed === 'object' && computed !== null) {
          into.push(...computedItem(computed as Record<string, unknown>, page, indent));
        }
        continue;
      }
      const target = summaryTarget(page, paths);
      const form = page.meta.gitForm as PageGitForm | undefined;
      const title = typeof page.meta.linkTitle === 'string' ? page.meta.linkTitle : page.title;
      const text =
        form?.summaryText !== undefined && unescapeLinkText(form.summaryText) === title.trim()
          ? form.summaryText
          : escapeLinkText(title);
      if (target === undefined) {
        // Without a file: an entry without a link, as it was read (see PageGitForm.linkless).
        if (!form?.linkless) continue;
        into.push(`${indent}* ${text}`);
      } else {
        const tooltip =
          form?.summaryTitle !== undefined ? ` "${form.summaryTitle.replace(/"/g, '\\"')}"` : '';
        into.push(`${indent}* [${text}](${linkTarget(target)}${tooltip})`);
      }
      items(page.pages, depth + 1, into);
    }
  };
  for (const page of pages) {
    if (page.type === 'group') {
      const section = [`## ${page.title.replace(/\n/g, ' ')}`];
      const entries: string[] = [];
      items(page.pages, 0, entries);
      if (entries.length > 0) section.push('', ...entries);
      sections.push(section);
      loose = undefined;
    } else {
      if (!loose) sections.push((loose = []));
      items([page], 0, loose);
    }
  }
  const body = sections.filter((section) => section.length > 0).map((s) => s.join('\n'));
  return `${['# Table of contents', ...body].join('\n\n')}\n`;
}

/** The summary's link of a page: its file, the URL of a link, the page (and anchor) it links to. */
function summaryTarget(page: LayoutPage, paths: LayoutPaths): string | undefined {
  if (page.type !== 'link') return paths.pages.get(page.id);
  if (page.target) {
    const path = paths.pages.get(page.target.page);
    if (path === undefined) return page.href || undefined;
    return page.target.anchor !== undefined ? `${path}#${page.target.anchor}` : path;
  }
  return page.href ?? '';
}

/**
 * A computed page in SUMMARY.md: its source as a YAML code block in the list item, keys in
 * GitBook's order (`props`, `type`, `dependencies`), or as the file wrote it while it says the
 * same.
 */
function computedItem(
  computed: Record<string, unknown>,
  page: LayoutPage,
  indent: string,
): string[] {
  const form = page.meta.gitForm as PageGitForm | undefined;
  let yaml = computedYaml(computed);
  if (form?.yaml !== undefined) {
    try {
      const written: unknown = load(form.yaml, { schema: CORE_SCHEMA, maxDepth: 20 });
      if (JSON.stringify(sorted(written)) === JSON.stringify(sorted(computed))) {
        yaml = form.yaml;
      }
    } catch {
      // Not YAML any more: GitBook's form.
    }
  }
  const lines = yaml.replace(/\n$/, '').split('\n');
  return [
    `${indent}* \`\`\`yaml`,
    ...lines.map((line) => (line === '' ? '' : `${indent}  ${line}`)),
    `${indent}  \`\`\``,
  ];
}

const COMPUTED_ORDER = ['props', 'type', 'dependencies'];

/** A computed page's source as GitBook writes it in SUMMARY.md (without the indentation). */
export function computedYaml(computed: Record<string, unknown>): string {
  return dump(plain(gitbookOrder(computed)));
}

function gitbookOrder(computed: Record<string, unknown>): Record<string, unknown> {
  const ordered: Record<string, unknown> = {};
  for (const key of COMPUTED_ORDER) if (computed[key] !== undefined) ordered[key] = computed[key];
  for (const [key, value] of Object.entries(computed)) {
    if (!(key in ordered)) ordered[key] = value;
  }
  return ordered;
}

/** A value with its keys sorted at every level (to compare two regardless of key order). */
function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sorted((value as Record<string, unknown>)[key])]),
  );
}

/**
 * A page's frontmatter values: its metadata in GitBook's form (frontmatter-meta.ts), and its
 * slug when the path does not give it (a name made unique aside).
 */
export function pageFrontmatter(
  page: Pick<LayoutPage, 'meta' | 'slug' | 'title'>,
  path: string,
  files: FileLocations,
): Record<string, unknown> {
  const values = metaToFrontmatter(page.meta, path, files);
  if (page.slug && !slugImplied(page.slug, path, page.title)) values.slug = page.slug;
  return values;
}

/**
 * Whether a slug is the one an import gives the page at `path` titled `title` without a `slug`
 * key: the file's (or folder's) name, the title's for the root README.md, either made unique
 * among its siblings (`-2`, …).
 */
function slugImplied(slug: string, path: string, title: string): boolean {
  const implied = slugFromPath(path) ?? slugify(title);
  return slug === implied || new RegExp(`^${escapeRegExp(implied)}-\\d+$`).test(slug);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A page's file: its head (frontmatter when it has metadata to keep, `# Title`), then its body,
 * in GitBook's form, or as the file it was read from wrote them (PageGitForm) where the page
 * still says the same.
 */
export function renderPage(page: LayoutPage, path: string, paths: LayoutPaths): string {
  const files = fileLocations(paths);
  const form = page.meta.gitForm as PageGitForm | undefined;
  const values = pageFrontmatter(page, path, files);
  const body = page.markdown?.trim() ? page.markdown.replace(/\s+$/, '') : undefined;
  const hasBody = body !== undefined;
  let head: string;
  if (form?.head !== undefined) {
    const { parts } = splitHead(form.head);
    head = renderHead({
      values,
      base: writtenValues(parts.yaml, page, path, files, form),
      title: page.title,
      hasBody,
      source: parts,
    });
  } else if (form?.unlisted && page.meta.hidden === true) {
    // Hidden because SUMMARY.md does not list it: the file need not say so.
    const { hidden: _hidden, ...rest } = values;
    head = canonicalHead(rest, page.title, hasBody);
  } else {
    head = canonicalHead(values, page.title, hasBody);
  }
  return `${head}${body !== undefined ? `${body}${form?.tail ?? '\n'}` : ''}`;
}

/** What Bindery would write for the frontmatter a file's head has (`yaml`; null: none). */
function writtenValues(
  yaml: string | null,
  page: LayoutPage,
  path: string,
  files: FileLocations,
  form: PageGitForm,
): Record<string, unknown> {
  let frontmatter: Record<string, unknown> = {};
  if (yaml !== null && yaml.trim() !== '') {
    try {
      const parsed: unknown = load(yaml, { schema: CORE_SCHEMA, maxDepth: 20 });
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
        frontmatter = parsed as Record<string, unknown>;
      }
    } catch {
      frontmatter = {};
    }
  }
  const meta = frontmatterToMeta(frontmatter, path, files);
  if (form.unlisted && meta.hidden === undefined) meta.hidden = true;
  const slug = typeof frontmatter.slug === 'string' ? frontmatter.slug : undefined;
  return pageFrontmatter({ meta, slug, title: page.title }, path, files);
}

const locations = new WeakMap<LayoutPaths, FileLocations>();

/** The files of `paths` both ways (built once per layout). */
function fileLocations(paths: LayoutPaths): FileLocations {
  let found = locations.get(paths);
  if (!found) {
    const byPath = new Map([...paths.files].map(([id, path]) => [path, id]));
    found = { pathOf: (id) => paths.files.get(id), idAt: (path) => byPath.get(path) };
    locations.set(paths, found);
  }
  return found;
}

/** A path as a markdown link destination: in angle brackets when it has spaces. */
export function linkTarget(path: string): string {
  return /[\s()<>]/.test(path) ? `<${path.replace(/[<>]/g, encodeURIComponent)}>` : path;
}

/** Link text as GitBook escapes it in SUMMARY.md. */
export function escapeLinkText(text: string): string {
  return text.replace(/\n/g, ' ').replace(/[[\]\\_*`]/g, (c) => `\\${c}`);
}

/** Link text of SUMMARY.md as the title it gives (backslash escapes taken off). */
export function unescapeLinkText(text: string): string {
  return text.replace(/\\(.)/g, '$1').trim();
}
