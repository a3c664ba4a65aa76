import TurndownService from 'turndown';
import { strikethrough, taskListItems } from 'turndown-plugin-gfm';
import { all, cleanText, parseDocument, unwrap, type DomElement, type DomNode } from './dom';

export interface HtmlToMarkdownOptions {
  /**
   * A link's `href` → the target to write (a page placeholder, an absolute URL, `#anchor`);
   * `undefined` drops the link and keeps its text. Default: the href as it is.
   */
  link?(href: string): string | undefined;
  /** An image's `src` → the source to write (an asset placeholder, a URL); `undefined` drops it. */
  image?(src: string, alt: string): string | undefined;
}

/** Elements that are never content. */
const REMOVED = [
  'script',
  'style',
  'noscript',
  'template',
  'link',
  'meta',
  'button',
  'select',
  'textarea',
  'input:not([type="checkbox"])',
  'svg',
  'canvas',
  '.headerlink',
  'a.hash-link',
  'a.anchor',
  'a.anchorjs-link',
  'a.header-anchor',
  '.copy-button',
  '.screen-reader-only',
  '.sr-only',
];

/**
 * GitBook markdown of an HTML element (or fragment): headings, paragraphs and marks, lists,
 * GFM tables, fenced code with its language, images, links, admonitions and callouts as
 * `{% hint %}`, videos and frames as `{% embed %}`. The element is changed in the process.
 */
export function htmlToMarkdown(
  root: DomElement | string,
  options: HtmlToMarkdownOptions = {},
): string {
  const element = typeof root === 'string' ? parseDocument(root).body : root;
  prepare(element, options);
  const markdown = service().turndown(element as unknown as TurndownService.Node);
  return tidy(markdown);
}

/** Rewrites the DOM into what the turndown rules below expect. */
function prepare(root: DomElement, options: HtmlToMarkdownOptions): void {
  for (const element of all(root, REMOVED.join(','))) element.remove();
  // Code: line numbers out, `<br>` as line ends, the language on the `<pre>`.
  for (const gutter of all(root, '.linenos, .lineno, .linenodiv, td.gutter, .line-numbers-rows')) {
    gutter.remove();
  }
  for (const pre of all(root, 'pre')) {
    for (const br of all(pre, 'br')) br.replaceWith('\n');
    const language = codeLanguage(pre);
    if (language) pre.setAttribute('data-language', language);
    const title = codeTitle(pre);
    if (title) pre.setAttribute('data-code-title', title);
    // Pygments' table of line numbers and code: the code alone.
    const table = pre.closest('table.highlighttable, table.highlight');
    if (table) table.replaceWith(pre);
  }
  for (const iframe of all(root, 'iframe, video, embed')) {
    const src = iframe.getAttribute('src') ?? iframe.querySelector('source')?.getAttribute('src');
    if (src && /^https?:\/\//i.test(src)) {
      const div = iframe.ownerDocument.createElement('div');
      div.setAttribute('data-embed', src);
      iframe.replaceWith(div);
    } else {
      iframe.remove();
    }
  }
  for (const img of all(root, 'img')) {
    const src = img.getAttribute('src') || img.getAttribute('data-src') || '';
    const alt = cleanText(img.getAttribute('alt'));
    // Inline images (`data:`) only through the callback, which may keep them as files.
    const written = !src
      ? undefined
      : options.image
        ? options.image(src, alt)
        : src.startsWith('data:')
          ? undefined
          : src;
    if (written === undefined) {
      img.remove();
      continue;
    }
    img.setAttribute('src', written);
    img.removeAttribute('srcset');
  }
  // Headings that link to themselves (`<h2><a href="#install">Install</a></h2>`): their text.
  for (const a of all(root, 'h1 a, h2 a, h3 a, h4 a, h5 a, h6 a')) {
    if ((a.getAttribute('href') ?? '#').startsWith('#')) unwrap(a);
  }
  for (const a of all(root, 'a')) {
    const href = a.getAttribute('href');
    const written = href === null ? undefined : options.link ? options.link(href) : href;
    if (written === undefined || written === '') unwrap(a);
    else
      a.setAttribute(
        'href',
        written.replace(/[\s()]/g, (c) => encodeURIComponent(c)),
      );
  }
  for (const element of all(root, 'div, aside, section, blockquote, figure, p')) {
    const style = hintStyle(element);
    if (!style) continue;
    element.setAttribute('data-hint', style);
    const title = element.querySelector(
      '.admonition-title, .markdown-alert-title, [class*="admonitionHeading"], .confluence-information-macro-icon',
    );
    if (
      title &&
      (GENERIC_TITLES.has(cleanText(title.textContent).toLowerCase()) ||
        title.className.includes('icon'))
    ) {
      title.remove();
    }
  }
  // Layout tables (a table in a table): their cells' content as blocks.
  for (const table of all(root, 'table').reverse()) {
    if (table.querySelector('table')) {
      for (const cell of all(table, 'td, th')) {
        const div = cell.ownerDocument.createElement('div');
        for (const child of Array.from(cell.childNodes)) div.appendChild(child);
        table.before(div);
      }
      table.remove();
    }
  }
  for (const caption of all(root, 'table > caption')) caption.remove();
}

const GENERIC_TITLES = new Set([
  'note',
  'info',
  'information',
  'tip',
  'hint',
  'important',
  'warning',
  'caution',
  'danger',
  'error',
  'success',
  'example',
  'abstract',
  'question',
  'quote',
  'bug',
]);

const HINT_CONTAINERS =
  /(?:^|\s)(admonition|theme-admonition|alert|callout|notice|markdown-alert|confluence-information-macro|aui-message)(?:\s|$)/;

/** The hint style of an admonition, callout or alert; undefined for other elements. */
export function hintStyle(element: DomElement): string | undefined {
  const className = element.className || '';
  if (['aside', 'blockquote', 'figure'].includes(element.localName)) {
    if (!/callout|admonition|alert/.test(className)) return undefined;
  } else if (!HINT_CONTAINERS.test(className)) {
    return undefined;
  }
  if (className.includes('confluence-information-macro')) {
    // Confluence's colours: note is yellow, warning red, tip green.
    if (/-macro-warning/.test(className)) return 'danger';
    if (/-macro-note/.test(className)) return 'warning';
    if (/-macro-tip/.test(className)) return 'success';
    return 'info';
  }
  const words = className.toLowerCase();
  if (/danger|error|bug|fail|critical/.test(words)) return 'danger';
  if (/warn|caution|attention|important/.test(words)) return 'warning';
  if (/tip|success|check|done|hint/.test(words)) return 'success';
  return 'info';
}

const LANGUAGE_CLASS =
  /(?:^|\s)(?:language|lang|highlight-source|highlight-text|highlight|brush:?|sourceCode)-?([A-Za-z0-9_+#-]+)(?:\s|$)/;

/** The language of a `<pre>` block, from its classes, its `<code>`'s, or its wrappers'. */
export function codeLanguage(pre: DomElement): string | undefined {
  const candidates: (DomElement | null | undefined)[] = [pre.querySelector('code'), pre];
  for (let parent = pre.parentElement, depth = 0; parent && depth < 3; depth++) {
    candidates.push(parent);
    parent = parent.parentElement;
  }
  for (const element of candidates) {
    if (!element) continue;
    const data =
      element.getAttribute('data-lang') ??
      element.getAttribute('data-language') ??
      /brush:\s*([\w+#-]+)/.exec(element.getAttribute('data-syntaxhighlighter-params') ?? '')?.[1];
    if (data) return normalizeLanguage(data);
    const match = LANGUAGE_CLASS.exec(element.className || '');
    if (match && !/^(none|plaintext|text|nohighlight|default|python3?-console)$/i.test(match[1])) {
      return normalizeLanguage(match[1]);
    }
  }
  return undefined;
}

function normalizeLanguage(language: string): string | undefined {
  const lower = language.toLowerCase();
  if (/^(none|text|plain|plaintext|nohighlight)$/.test(lower)) return undefined;
  return lower;
}

/** A code block's title: `data-title`, or the title bar a docs theme puts before it. */
function codeTitle(pre: DomElement): string | undefined {
  const own = pre.getAttribute('data-title');
  if (own) return cleanText(own);
  const container = pre.closest(
    '[class*="codeBlockContainer"], .code-block, .highlight, .codehilite',
  );
  const bar = container?.querySelector('[class*="codeBlockTitle"], .filename, .code-block-caption');
  return bar ? cleanText(bar.textContent) || undefined : undefined;
}

let shared: TurndownService | undefined;

function service(): TurndownService {
  if (shared) return shared;
  const turndown = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '*',
    emDelimiter: '_',
    strongDelimiter: '**',
    hr: '***',
    br: '\\',
    blankReplacement: (content, node) => {
      const element = node as unknown as DomElement;
      if (element.nodeName === 'TD' || element.nodeName === 'TH') return tableCell('', element);
      if (element.nodeName === 'TR') return tableRow('', element);
      if (element.hasAttribute?.('data-embed')) return embed(element);
      return (node as unknown as { isBlock?: boolean }).isBlock ? '\n\n' : '';
    },
  });
  turndown.use([strikethrough, taskListItems]);
  const escape = turndown.escape.bind(turndown);
  // GitBook's tags (`{% … %}`) and inline math read from text: written so they stay text.
  turndown.escape = (text: string) =>
    escape(text).replace(/\{%/g, '{\\%').replace(/\$\$/g, '\\$\\$');
  turndown.addRule('code', {
    filter: (node) => node.nodeName === 'PRE',
    replacement: (_content, node) => {
      const element = node as unknown as DomElement;
      const code = (element.textContent ?? '').replace(/\n$/, '');
      const language = element.getAttribute('data-language') ?? '';
      const fence = '`'.repeat(Math.max(3, longestRun(code, '`') + 1));
      const block = `${fence}${language}\n${code}\n${fence}`;
      const title = element.getAttribute('data-code-title');
      return title
        ? `\n\n{% code title="${title.replace(/"/g, '&quot;')}" %}\n${block}\n{% endcode %}\n\n`
        : `\n\n${block}\n\n`;
    },
  });
  turndown.addRule('hint', {
    filter: (node) => (node as unknown as DomElement).hasAttribute?.('data-hint') ?? false,
    replacement: (content, node) => {
      const style = (node as unknown as DomElement).getAttribute('data-hint');
      const body = content.trim();
      return body ? `\n\n{% hint style="${style}" %}\n${body}\n{% endhint %}\n\n` : '';
    },
  });
  turndown.addRule('embed', {
    filter: (node) => (node as unknown as DomElement).hasAttribute?.('data-embed') ?? false,
    replacement: (_content, node) => embed(node as unknown as DomElement),
  });
  turndown.addRule('figure', {
    filter: (node) =>
      node.nodeName === 'FIGURE' &&
      !node.hasAttribute('data-hint') &&
      node.querySelector('img') != null,
    replacement: (_content, node) => {
      const element = node as unknown as DomElement;
      const img = element.querySelector('img') as DomElement;
      const caption = cleanText(element.querySelector('figcaption')?.textContent);
      const alt = cleanText(img.getAttribute('alt'));
      const src = img.getAttribute('src') ?? '';
      if (!caption) return `\n\n![${escapeAlt(alt)}](${src})\n\n`;
      return `\n\n<figure><img src="${attribute(src)}" alt="${attribute(alt)}"><figcaption><p>${html(caption)}</p></figcaption></figure>\n\n`;
    },
  });
  turndown.addRule('link', {
    filter: (node) => node.nodeName === 'A' && node.getAttribute('href') !== null,
    replacement: (content, node) => {
      const text = content.trim();
      if (!text) return '';
      const href = (node as unknown as DomElement).getAttribute('href') ?? '';
      return `[${text.replace(/\n+/g, ' ')}](${href})`;
    },
  });
  turndown.addRule('image', {
    filter: 'img',
    replacement: (_content, node) => {
      const element = node as unknown as DomElement;
      const alt = cleanText(element.getAttribute('alt'));
      return `![${escapeAlt(alt)}](${element.getAttribute('src') ?? ''})`;
    },
  });
  turndown.addRule('tableCell', {
    filter: ['th', 'td'],
    replacement: (content, node) => tableCell(content, node as unknown as DomElement),
  });
  turndown.addRule('tableRow', {
    filter: 'tr',
    replacement: (content, node) => tableRow(content, node as unknown as DomElement),
  });
  turndown.addRule('tableSection', {
    filter: ['thead', 'tbody', 'tfoot'],
    replacement: (content) => content,
  });
  turndown.addRule('table', {
    filter: 'table',
    replacement: (content) => {
      const rows = content.split('\n').filter((line) => line.trim() !== '');
      return rows.length > 0 ? `\n\n${rows.join('\n')}\n\n` : '';
    },
  });
  shared = turndown;
  return turndown;
}

function embed(element: DomElement): string {
  return `\n\n{% embed url="${attribute(element.getAttribute('data-embed') ?? '')}" %}\n\n`;
}

function tableCell(content: string, cell: DomElement): string {
  const text = content
    .trim()
    .replace(/\n{2,}/g, '<br><br>')
    .replace(/\n/g, '<br>')
    .replace(/\\<br>/g, '<br>')
    .replace(/\|/g, '\\|');
  const span = Math.max(1, Math.min(50, Number(cell.getAttribute('colspan')) || 1));
  return `| ${text} ${'| '.repeat(span - 1)}`;
}

function tableRow(content: string, row: DomElement): string {
  const table = row.closest('table');
  const rows = table ? all(table, 'tr').filter((tr) => tr.closest('table') === table) : [row];
  const width = (tr: DomElement) =>
    Array.from(tr.children)
      .filter((cell) => cell.nodeName === 'TD' || cell.nodeName === 'TH')
      .reduce(
        (sum, cell) => sum + Math.max(1, Math.min(50, Number(cell.getAttribute('colspan')) || 1)),
        0,
      );
  const columns = Math.max(1, ...rows.map(width));
  const padding = '| '.repeat(Math.max(0, columns - width(row)));
  const line = `${content.trim()} ${padding}|`.replace(/ {2,}\|/g, ' |');
  if (rows[0] !== row) return `\n${line}\n`;
  return `\n${line}\n|${' --- |'.repeat(columns)}\n`;
}

function longestRun(text: string, char: string): number {
  let longest = 0;
  let run = 0;
  for (const c of text) {
    run = c === char ? run + 1 : 0;
    longest = Math.max(longest, run);
  }
  return longest;
}

function escapeAlt(alt: string): string {
  return alt.replace(/[[\]\\]/g, (c) => `\\${c}`);
}

function attribute(value: string): string {
  return value.replace(/&/g, '&#x26;').replace(/"/g, '&#x22;').replace(/</g, '&#x3C;');
}

function html(text: string): string {
  return text.replace(/&/g, '&#x26;').replace(/</g, '&#x3C;');
}

/** The markdown without blank lines around it, ending with one line end. */
function tidy(markdown: string): string {
  const text = markdown.replace(/^\s*\n/, '').trimEnd();
  return text ? `${text}\n` : '';
}

/** Markdown text of a node's text (for titles). */
export function textOf(node: DomNode | null | undefined): string {
  return cleanText(node?.textContent);
}
