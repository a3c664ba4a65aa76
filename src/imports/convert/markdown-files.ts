import { CORE_SCHEMA, load } from 'js-yaml';

/** Rewrites a link or image target found in a page; `undefined` keeps it as written. */
export interface MarkdownRefs {
  link?(target: string): string | undefined;
  image?(target: string): string | undefined;
}

export interface MarkdownPage {
  title?: string;
  description?: string;
  /** `sidebar_position`, `nav_order`, `weight`, `order`: the page's place among its siblings. */
  order?: number;
  /** Docusaurus' `slug`: its last segment names the page's file. */
  slug?: string;
  /** GitBook markdown without front matter or the leading `# title`. */
  body: string;
}

/**
 * A markdown file of MkDocs, Docusaurus, GitHub or plain CommonMark as a GitBook page: its
 * front matter read (title, description, order, slug), its `# title` taken out, admonitions
 * (`!!! note`, `:::tip`, `> [!NOTE]`) as hints, content tabs (`=== "Tab"`, `<Tabs>`/`<TabItem>`)
 * as GitBook tabs, code titles (`title="…"` after the language) as `{% code title %}`, MDX
 * imports and exports dropped, and link and image targets rewritten by `refs`.
 */
export function convertMarkdown(text: string, refs: MarkdownRefs = {}): MarkdownPage {
  const source = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const { data, content } = frontMatter(source);
  let body = convertBlocks(content.split('\n'), refs).join('\n');
  let title = stringField(data.title);
  const heading = /^\s*#[ \t]+(.+?)[ \t#]*(?:\n|$)/.exec(body);
  const setext = /^\s*([^\n]+)\n=+[ \t]*(?:\n|$)/.exec(body);
  if (heading || setext) {
    const match = (heading ?? setext) as RegExpExecArray;
    title = unescapeHeading(match[1]);
    body = body.slice(match[0].length);
  }
  const order = numberField(data.sidebar_position ?? data.nav_order ?? data.weight ?? data.order);
  const slug = stringField(data.slug)?.replace(/\/+$/, '').split('/').pop();
  return {
    ...(title ? { title } : {}),
    ...(stringField(data.description ?? data.summary)
      ? { description: stringField(data.description ?? data.summary) }
      : {}),
    ...(order !== undefined ? { order } : {}),
    ...(slug ? { slug } : {}),
    body: body.replace(/^\s*\n/, '').trimEnd(),
  };
}

/** A title from a file or folder name: `02-getting_started.md` → `Getting started`. */
export function titleFromName(name: string): string {
  const stem = name
    .replace(/\.[A-Za-z0-9]+$/, '')
    .replace(/^\d+[-_. ]+(?=\S)/, '')
    .replace(/[-_]+/g, ' ')
    .trim();
  return stem ? stem.charAt(0).toUpperCase() + stem.slice(1) : name;
}

/** The order a file or folder name gives (`02-intro.md` → 2). */
export function orderFromName(name: string): number | undefined {
  const match = /^(\d+)[-_. ]/.exec(name);
  return match ? Number(match[1]) : undefined;
}

function frontMatter(text: string): { data: Record<string, unknown>; content: string } {
  const toml = /^\+\+\+[ \t]*\n([\s\S]*?)\n\+\+\+[ \t]*(?:\n|$)/.exec(text);
  if (toml) return { data: tomlFields(toml[1]), content: text.slice(toml[0].length) };
  const match = /^---[ \t]*\n([\s\S]*?)\n(?:---|\.\.\.)[ \t]*(?:\n|$)/.exec(text);
  if (!match) return { data: {}, content: text };
  let data: unknown;
  try {
    data = load(match[1], { schema: CORE_SCHEMA, maxDepth: 10 });
  } catch {
    data = {};
  }
  return {
    data: typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {},
    content: text.slice(match[0].length),
  };
}

/** Hugo's TOML front matter: its top-level `key = "string"` and `key = number` lines. */
function tomlFields(text: string): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const line of text.split('\n')) {
    if (/^\s*\[/.test(line)) break; // a table: the top-level keys are over
    const match =
      /^\s*([\w-]+)\s*=\s*(?:"((?:\\.|[^"\\])*)"|'([^']*)'|(-?\d+(?:\.\d+)?))\s*(?:#.*)?$/.exec(
        line,
      );
    if (!match) continue;
    data[match[1]] =
      match[4] !== undefined ? Number(match[4]) : (match[3] ?? match[2].replace(/\\(.)/g, '$1'));
  }
  return data;
}

function stringField(value: unknown): string | undefined {
  if (typeof value === 'number') return String(value);
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}

function numberField(value: unknown): number | undefined {
  const number = typeof value === 'string' ? Number(value) : value;
  return typeof number === 'number' && Number.isFinite(number) ? number : undefined;
}

function unescapeHeading(text: string): string {
  return text
    .replace(/\s*\{#[^}]*\}\s*$/, '')
    .replace(/\\([\\`*_{}[\]()#+\-.!<>])/g, '$1')
    .trim();
}

const FENCE = /^(\s*)(`{3,}|~{3,})(.*)$/;
const MKDOCS_ADMONITION = /^(!!!|\?\?\?\+?)\s+([\w-]+)(?:\s+"(.*)")?\s*$/;
const DOCUSAURUS_ADMONITION = /^(:{3,})\s*([\w-]+)(?:\[(.*)\]|\s+(.*))?\s*$/;
const GITHUB_ALERT = /^>\s*\[!(\w+)\]\s*$/;
const MKDOCS_TAB = /^===\+?\s+"(.*)"\s*$/;

/** The lines with their block constructs in GitBook's forms. */
function convertBlocks(lines: string[], refs: MarkdownRefs): string[] {
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const fence = FENCE.exec(line);
    if (fence) {
      const [, indent, marker, info] = fence;
      const block: string[] = [];
      let j = i + 1;
      for (; j < lines.length; j++) {
        const close = lines[j].trim();
        if (close.startsWith(marker[0].repeat(marker.length)) && /^(`+|~+)$/.test(close)) break;
        block.push(lines[j]);
      }
      out.push(...codeBlock(indent, marker, info, block));
      i = j;
      continue;
    }
    if (
      /^\s*(import|export)\s.+$/.test(line) &&
      /\bfrom\s+['"]|^\s*export\s+(const|default|function)/.test(line)
    ) {
      continue; // MDX
    }
    // MDX components alone on their line (`<DocCardList />`), MDX comments, `[TOC]` markers.
    if (/^\s*(<[A-Z][\w.]*\b[^>]*\/>|\{\/\*.*\*\/\}|\[\[?toc\]?\])\s*$/i.test(line)) continue;
    const mkdocs = MKDOCS_ADMONITION.exec(line);
    if (mkdocs) {
      const { block, end } = indentedBlock(lines, i + 1);
      out.push(...hint(mkdocs[2], mkdocs[3], convertBlocks(block, refs)));
      i = end - 1;
      continue;
    }
    const docusaurus = DOCUSAURUS_ADMONITION.exec(line);
    if (docusaurus) {
      const colons = docusaurus[1].length;
      const block: string[] = [];
      let depth = 0;
      let j = i + 1;
      for (; j < lines.length; j++) {
        const inner = lines[j].trim();
        if (inner === ':'.repeat(colons) && depth === 0) break;
        if (new RegExp(`^:{${colons}}\\s*\\w`).test(inner)) depth++;
        else if (inner === ':'.repeat(colons)) depth--;
        block.push(lines[j]);
      }
      out.push(...hint(docusaurus[2], docusaurus[3] ?? docusaurus[4], convertBlocks(block, refs)));
      i = j;
      continue;
    }
    const alert = GITHUB_ALERT.exec(line);
    if (alert) {
      const block: string[] = [];
      let j = i + 1;
      for (; j < lines.length && /^>/.test(lines[j]); j++)
        block.push(lines[j].replace(/^>\s?/, ''));
      out.push(...hint(alert[1], undefined, convertBlocks(block, refs)));
      i = j - 1;
      continue;
    }
    if (MKDOCS_TAB.test(line)) {
      const tabs: { title: string; lines: string[] }[] = [];
      let j = i;
      while (j < lines.length && MKDOCS_TAB.test(lines[j])) {
        const title = (MKDOCS_TAB.exec(lines[j]) as RegExpExecArray)[1];
        const { block, end } = indentedBlock(lines, j + 1);
        tabs.push({ title, lines: convertBlocks(block, refs) });
        j = end;
        while (j < lines.length && lines[j].trim() === '' && MKDOCS_TAB.test(lines[j + 1] ?? ''))
          j++;
      }
      out.push(...tabBlock(tabs));
      i = j - 1;
      continue;
    }
    if (/^\s*<Tabs\b[^>]*>\s*$/.test(line)) {
      const block: string[] = [];
      let j = i + 1;
      for (; j < lines.length && !/^\s*<\/Tabs>\s*$/.test(lines[j]); j++) block.push(lines[j]);
      out.push(
        ...tabBlock(
          tabItems(block).map((tab) => ({ ...tab, lines: convertBlocks(tab.lines, refs) })),
        ),
      );
      i = j;
      continue;
    }
    out.push(rewriteInline(line, refs));
  }
  return out;
}

/** The lines indented by four spaces (or a tab) from `start`, dedented, blank lines kept. */
function indentedBlock(lines: string[], start: number): { block: string[]; end: number } {
  const block: string[] = [];
  let end = start;
  for (let j = start; j < lines.length; j++) {
    if (lines[j].trim() === '') {
      block.push('');
      continue;
    }
    if (!/^( {4}|\t)/.test(lines[j])) break;
    block.push(lines[j].replace(/^( {4}|\t)/, ''));
    end = j + 1;
  }
  return { block: block.slice(0, end - start), end };
}

const HINT_STYLES: Record<string, string> = {
  danger: 'danger',
  error: 'danger',
  bug: 'danger',
  failure: 'danger',
  fail: 'danger',
  missing: 'danger',
  caution: 'warning',
  warning: 'warning',
  attention: 'warning',
  important: 'warning',
  tip: 'success',
  hint: 'success',
  success: 'success',
  check: 'success',
  done: 'success',
};

function hint(type: string, title: string | undefined, body: string[]): string[] {
  const style = HINT_STYLES[type.toLowerCase()] ?? 'info';
  const lines = trimBlank(body);
  const heading = title?.trim() ? [`**${title.trim()}**`, ''] : [];
  return [`{% hint style="${style}" %}`, ...heading, ...lines, '{% endhint %}'];
}

function tabBlock(tabs: { title: string; lines: string[] }[]): string[] {
  const out = ['{% tabs %}'];
  for (const tab of tabs) {
    out.push(
      `{% tab title="${tab.title.replace(/"/g, "'")}" %}`,
      ...trimBlank(tab.lines),
      '{% endtab %}',
      '',
    );
  }
  out.pop();
  out.push('{% endtabs %}');
  return out;
}

/** Docusaurus' `<TabItem value="…" label="…">…</TabItem>` items, dedented. */
function tabItems(lines: string[]): { title: string; lines: string[] }[] {
  const tabs: { title: string; lines: string[] }[] = [];
  let current: { title: string; lines: string[] } | undefined;
  for (const line of lines) {
    const open = /^\s*<TabItem\b([^>]*)>(.*)$/.exec(line);
    if (open) {
      const attrs = open[1];
      const title =
        /\blabel=(?:"([^"]*)"|'([^']*)'|\{["'`]([^"'`]*)["'`]\})/
          .exec(attrs)
          ?.slice(1)
          .find(Boolean) ??
        /\bvalue=(?:"([^"]*)"|'([^']*)')/.exec(attrs)?.slice(1).find(Boolean) ??
        `Tab ${tabs.length + 1}`;
      current = { title, lines: [] };
      tabs.push(current);
      const rest = open[2].replace(/<\/TabItem>\s*$/, '');
      if (rest.trim()) current.lines.push(rest.trim());
      if (/<\/TabItem>\s*$/.test(open[2])) current = undefined;
      continue;
    }
    if (/^\s*<\/TabItem>\s*$/.test(line)) {
      current = undefined;
      continue;
    }
    current?.lines.push(line);
  }
  for (const tab of tabs) tab.lines = dedent(tab.lines);
  return tabs;
}

function dedent(lines: string[]): string[] {
  const indents = lines
    .filter((line) => line.trim())
    .map((line) => /^ */.exec(line)?.[0].length ?? 0);
  const cut = indents.length > 0 ? Math.min(...indents) : 0;
  return lines.map((line) => line.slice(Math.min(cut, /^ */.exec(line)?.[0].length ?? 0)));
}

function trimBlank(lines: string[]): string[] {
  let start = 0;
  let end = lines.length;
  while (start < end && lines[start].trim() === '') start++;
  while (end > start && lines[end - 1].trim() === '') end--;
  return lines.slice(start, end);
}

/**
 * A fenced code block: the language alone after the fence, a `title="…"` (Docusaurus,
 * MkDocs) or line numbers as GitBook's `{% code %}` around it.
 */
function codeBlock(indent: string, marker: string, info: string, block: string[]): string[] {
  const meta = info.trim().replace(/^\{\s*|\s*\}$/g, '');
  const language = /^\.?([\w+#-]+)/.exec(meta)?.[1] ?? '';
  const title = /\btitle=(?:"([^"]*)"|'([^']*)')/
    .exec(meta)
    ?.slice(1)
    .find((v) => v !== undefined);
  const numbered = /\b(showLineNumbers|linenums|lineNumbers)\b/.test(meta);
  const fenced = [`${indent}${marker}${language}`, ...block, `${indent}${marker}`];
  if (title === undefined && !numbered) return fenced;
  const options = [
    ...(title !== undefined ? [`title="${title.replace(/"/g, "'")}"`] : []),
    ...(numbered ? ['lineNumbers="true"'] : []),
  ];
  return [`${indent}{% code ${options.join(' ')} %}`, ...fenced, `${indent}{% endcode %}`];
}

const LINK =
  /(!?)\[((?:\\.|[^\]\\])*)\]\(\s*(<[^>\n]*>|(?:[^\s()]|\([^\s()]*\))*)(\s+(?:"[^"]*"|'[^']*'))?\s*\)/g;
const HTML_REF = /(<(?:img|a|source)\b[^>]*?\b(?:src|href)=)(["'])(.*?)\2/gi;
const DEFINITION = /^(\s{0,3}\[[^\]]+\]:\s*)(<[^>]*>|\S+)(.*)$/;

/** A line with its link and image targets rewritten, code spans left alone. */
function rewriteInline(line: string, refs: MarkdownRefs): string {
  const definition = DEFINITION.exec(line);
  if (definition) {
    const target = unwrapTarget(definition[2]);
    const written = refs.link?.(target) ?? refs.image?.(target);
    return written === undefined ? line : `${definition[1]}${wrapTarget(written)}${definition[3]}`;
  }
  return line
    .split(/(`+[^`]*`+)/)
    .map((part, index) => {
      if (index % 2 === 1) return part;
      return escapeLiquid(part)
        .replace(LINK, (match, bang: string, text: string, target: string, title = '') => {
          const raw = unwrapTarget(target);
          const written = bang ? refs.image?.(raw) : refs.link?.(raw);
          return written === undefined ? match : `${bang}[${text}](${wrapTarget(written)}${title})`;
        })
        .replace(HTML_REF, (match, head: string, quote: string, target: string) => {
          const written = /^<a\b/i.test(head) ? refs.link?.(target) : refs.image?.(target);
          return written === undefined ? match : `${head}${quote}${written}${quote}`;
        });
    })
    .join('');
}

/** GitBook's block tags; `include` only with a quoted path (GitBook's reusable content). */
const GITBOOK_TAGS =
  /^\{%\s*(end)?(hint|tabs?|code|content-ref|page-ref|embed|file|stepper|step|columns?|if|else|elif|swagger|openapi[\w-]*|prompt|updates?|drawing|include\s+["'])/;

/**
 * Liquid tags of Jekyll or Hugo (`{% include note.html %}`, `{% raw %}`) escaped, so they stay
 * text and are not read as GitBook's tags; GitBook's own tags are kept.
 */
function escapeLiquid(text: string): string {
  return text.replace(/\{%[^\n]*?%\}/g, (tag) =>
    GITBOOK_TAGS.test(tag) ? tag : `{\\${tag.slice(1)}`,
  );
}

function unwrapTarget(target: string): string {
  return target.startsWith('<') && target.endsWith('>') ? target.slice(1, -1) : target;
}

function wrapTarget(target: string): string {
  return /[\s()<>]/.test(target) ? `<${target.replace(/[<>]/g, encodeURIComponent)}>` : target;
}
