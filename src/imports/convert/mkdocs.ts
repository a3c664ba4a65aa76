import { CORE_SCHEMA, load } from 'js-yaml';
import { posix } from 'node:path';
import type { ImportPage } from './layout-builder';
import { titleFromName } from './markdown-files';

/** MkDocs' configuration: where the pages are (`docs_dir`) and its `nav`, when it has one. */
export interface MkDocsConfig {
  docsDir: string;
  nav?: unknown[];
}

/** `mkdocs.yml` (or `.yaml`) at the root of the files, read; undefined without one. */
export function readMkDocsConfig(files: ReadonlyMap<string, Buffer>): MkDocsConfig | undefined {
  const data = files.get('mkdocs.yml') ?? files.get('mkdocs.yaml');
  if (!data) return undefined;
  let parsed: unknown;
  try {
    // Python tags (`!!python/name:…` of extensions) mean nothing here: read as plain strings.
    const text = data.toString('utf8').replace(/!!python\/[^\s]+/g, '');
    parsed = load(text, { schema: CORE_SCHEMA, maxDepth: 20 });
  } catch {
    return { docsDir: 'docs' };
  }
  const config = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as {
    docs_dir?: unknown;
    nav?: unknown;
  };
  const docsDir =
    typeof config.docs_dir === 'string' ? config.docs_dir.replace(/^\.\/|\/+$/g, '') : 'docs';
  return { docsDir, ...(Array.isArray(config.nav) ? { nav: config.nav } : {}) };
}

/**
 * The page tree MkDocs' `nav` gives: `- Title: page.md` a page (titled by its own heading, else
 * by the nav), `- Section: [...]` a page over its entries (the section's `index.md` its content
 * when it is its first entry), `- page.md` a page; links to URLs are left out. Pages the nav does
 * not list follow at the top level, in path order.
 */
export function navTree(
  config: MkDocsConfig,
  pageAt: (path: string) => ImportPage | undefined,
  all: string[],
): ImportPage[] {
  const placed = new Set<string>();
  const prefix = config.docsDir ? `${config.docsDir}/` : '';
  const take = (file: string, title?: string): ImportPage | undefined => {
    const path = `${prefix}${file.replace(/^\.\//, '')}`;
    const page = pageAt(path);
    if (!page || placed.has(path)) return undefined;
    placed.add(path);
    // A page without a heading is titled by the nav rather than by its file's name.
    const untitled = page.title === titleFromName(posix.basename(path));
    return { ...page, title: untitled && title ? title : page.title };
  };
  const read = (entries: unknown[]): ImportPage[] => {
    const pages: ImportPage[] = [];
    for (const entry of entries) {
      if (typeof entry === 'string') {
        const page = /^[a-z]+:\/\//i.test(entry) ? undefined : take(entry);
        if (page) pages.push(page);
        continue;
      }
      if (typeof entry !== 'object' || entry === null) continue;
      for (const [title, value] of Object.entries(entry as Record<string, unknown>)) {
        if (typeof value === 'string') {
          const page = /^[a-z]+:\/\//i.test(value) ? undefined : take(value, title);
          if (page) pages.push(page);
        } else if (Array.isArray(value)) {
          const first = value[0];
          const indexFile =
            typeof first === 'string' && /(^|\/)index\.md$/i.test(first)
              ? first
              : typeof first === 'object' && first !== null
                ? Object.values(first as Record<string, unknown>).find(
                    (v): v is string => typeof v === 'string' && /(^|\/)index\.md$/i.test(v),
                  )
                : undefined;
          const own = indexFile ? take(indexFile, title) : undefined;
          const children = read(indexFile ? value.slice(1) : value);
          if (own || children.length > 0) {
            pages.push({ ...(own ?? { title, body: '' }), title: own?.title ?? title, children });
          }
        }
      }
    }
    return pages;
  };
  const pages = read(config.nav ?? []);
  for (const path of all) {
    if (placed.has(path)) continue;
    const page = pageAt(path);
    if (page) pages.push(page);
  }
  return pages;
}
