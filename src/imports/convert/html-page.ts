import { Readability } from '@mozilla/readability';
import { all, cleanText, parseDocument, unwrap, type DomDocument, type DomElement } from './dom';
import { hintStyle } from './html-to-markdown';

export interface HtmlPage {
  document: DomDocument;
  /** The element holding the page's content, its navigation and chrome taken out. */
  main: DomElement;
  title?: string;
  description?: string;
  /** Every link's `href` in the document (navigation included), read before the clean-up. */
  links: string[];
  /** The document's `<base href>`, when it has one. */
  base?: string;
}

/** Where documentation themes put a page's content (Docusaurus, MkDocs, Sphinx, GitHub, …). */
const MAIN_SELECTORS = [
  '.theme-doc-markdown',
  '.md-content__inner',
  '[itemprop="articleBody"]',
  '.markdown-body',
  '.rst-content [role="main"]',
  '[role="main"] .body',
  'main article',
  'article',
  'main',
  '[role="main"]',
  '#main-content',
  '#content',
  '.content',
];

/** Navigation and page chrome found inside content containers. */
const CHROME = [
  'nav',
  'footer',
  'form',
  '.sidebar',
  '.toc',
  '.table-of-contents',
  '[class*="breadcrumb"]',
  '[class*="pagination"]',
  '.pager',
  '.edit-this-page',
  '[class*="editThisPage"]',
  '.theme-doc-footer',
  '.theme-doc-toc-mobile',
  '.md-source-file',
  '.feedback',
  '[role="navigation"]',
];

/**
 * An HTML page's content: the first container a docs theme uses for it, else what Readability
 * finds, else the body; its title (the content's first `<h1>`, taken out of it, else the
 * document's `<title>` without the site's name) and its meta description.
 */
export function readHtmlPage(html: string): HtmlPage {
  const document = parseDocument(html);
  const links = all(document, 'a[href], area[href]').map((a) => a.getAttribute('href') as string);
  const base = document.querySelector('base[href]')?.getAttribute('href') ?? undefined;
  const description = cleanText(
    document.querySelector('meta[name="description"]')?.getAttribute('content'),
  );
  let main = MAIN_SELECTORS.map((selector) => document.querySelector(selector)).find(
    (element): element is DomElement => element != null && cleanText(element.textContent) !== '',
  );
  if (!main) main = readability(document) ?? document.body;
  for (const element of all(main, CHROME.join(','))) {
    if (element.closest('pre, code')) continue;
    element.remove();
  }
  for (const header of all(main, 'header')) {
    if (header.querySelector('h1')) unwrap(header);
    else header.remove();
  }
  for (const aside of all(main, 'aside')) if (!hintStyle(aside)) aside.remove();
  let title: string | undefined;
  const h1 = main.querySelector('h1');
  if (h1 && cleanText(h1.textContent)) {
    title = cleanText(h1.textContent).replace(/\s*[¶#]$/, '');
    h1.remove();
  } else {
    const documentTitle = cleanText(document.title);
    title = documentTitle.split(/\s+[|–—·-]\s+/)[0] || undefined;
  }
  return {
    document,
    main,
    links,
    ...(base ? { base } : {}),
    ...(title ? { title } : {}),
    ...(description ? { description } : {}),
  };
}

/** Readability's pick of the content, in a document of its own; undefined when it finds none. */
function readability(document: DomDocument): DomElement | undefined {
  try {
    const clone = parseDocument(document.documentElement.outerHTML);
    const article = new Readability(clone as never, { keepClasses: true }).parse();
    if (!article?.content) return undefined;
    return parseDocument(article.content).body;
  } catch {
    return undefined;
  }
}
