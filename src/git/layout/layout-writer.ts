import { dump } from 'js-yaml';
import type { MarkdownPaths } from '../../content-engine/refs/markdown-paths';
import { slugFromPath, type LayoutPage } from './layout';
import { metaToFrontmatter } from './frontmatter-meta';

/** Where each page and file goes, relative to the content root (GitBook's layout). */
export type LayoutPaths = MarkdownPaths;

/** SUMMARY.md: top-level pages, then one `## Title` section per group page. */
export function renderSummary(pages: readonly LayoutPage[], paths: LayoutPaths): string {
  const lines = ['# Table of contents', ''];
  const items = (list: readonly LayoutPage[], depth: number) => {
    for (const page of list) {
      const target = page.type === 'link' ? (page.href ?? '') : paths.pages.get(page.id);
      if (target === undefined) continue;
      lines.push(`${'  '.repeat(depth)}* [${escapeLinkText(page.title)}](${linkTarget(target)})`);
      items(page.pages, depth + 1);
    }
  };
  for (const page of pages) {
    if (page.type === 'group') {
      lines.push('', `## ${page.title.replace(/\n/g, ' ')}`, '');
      items(page.pages, 0);
    } else {
      items([page], 0);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** A page's file: frontmatter (when it has metadata to keep), `# Title`, the body. */
export function renderPage(page: LayoutPage, path: string, paths: LayoutPaths): string {
  const meta = metaToFrontmatter(page.meta, path, {
    pathOf: (fileId) => paths.files.get(fileId),
    idAt: () => undefined,
  });
  // The slug goes in the frontmatter when the path does not give it (the root README.md, a
  // name made unique, a slug that is not a valid file name).
  if (page.slug && slugFromPath(path) !== page.slug) meta.slug = page.slug;
  const frontmatter =
    Object.keys(meta).length > 0 ? `---\n${dump(meta, { lineWidth: -1 })}---\n\n` : '';
  const body = page.markdown?.trim() ? `\n${page.markdown.replace(/\s+$/, '')}\n` : '';
  return `${frontmatter}# ${page.title.replace(/\n/g, ' ')}\n${body}`;
}

/** A path as a markdown link destination: in angle brackets when it has spaces. */
export function linkTarget(path: string): string {
  return /[\s()<>]/.test(path) ? `<${path.replace(/[<>]/g, encodeURIComponent)}>` : path;
}

function escapeLinkText(text: string): string {
  return text.replace(/\n/g, ' ').replace(/[[\]\\]/g, (c) => `\\${c}`);
}
