import robotsParser from 'robots-parser';
import { posix } from 'node:path';
import { all } from './dom';
import { readHtmlPage, type HtmlPage } from './html-page';
import { htmlToMarkdown } from './html-to-markdown';
import { LayoutBuilder, type ImportPage } from './layout-builder';
import { titleFromName } from './markdown-files';
import { nextTurn } from './turn';
import type { ConvertContext, CrawlOptions, ImportTree } from './types';

/** The name robots.txt rules are matched against. */
export const CRAWLER_AGENT = 'BinderyImporter';
/** Longest crawl delay honoured between two requests (a longer `Crawl-delay` is cut to it). */
const MAX_CRAWL_DELAY_MS = 10_000;
const MAX_IMAGE_BYTES = 20 * 1024 * 1024;
const MAX_IMAGES = 2_000;
/** Links to these are files, not pages: never fetched as pages. */
const NOT_PAGES =
  /\.(png|jpe?g|gif|svg|webp|ico|bmp|avif|pdf|zip|gz|tgz|tar|7z|rar|exe|dmg|msi|deb|rpm|mp[34]|mov|webm|avi|wav|ogg|woff2?|ttf|eot|css|js|mjs|json|xml|rss|atom|txt|csv|ya?ml)$/i;

interface Crawled {
  url: string;
  page: HtmlPage;
}

/** What a crawl may visit: the start URL's origin, below its folder. */
class Scope {
  readonly origin: string;
  private readonly prefix: string;
  private readonly exact: string;

  constructor(start: URL) {
    this.origin = start.origin;
    const path = start.pathname;
    if (path.endsWith('/')) {
      this.prefix = path;
      this.exact = path;
    } else if (/\.[a-z0-9]+$/i.test(posix.basename(path))) {
      // `/docs/index.html`: the folder `/docs/`.
      this.prefix = posix.dirname(path).replace(/\/?$/, '/');
      this.exact = path;
    } else {
      // `/docs`: `/docs` itself and what is below `/docs/`.
      this.prefix = `${path}/`;
      this.exact = path;
    }
  }

  includes(url: URL): boolean {
    return (
      url.origin === this.origin &&
      (url.pathname === this.exact || url.pathname.startsWith(this.prefix))
    );
  }

  /** The path segments of a page below the start folder (`index.html`, `.html` left out). */
  segments(url: URL): string[] {
    const path = url.pathname === this.exact ? '' : url.pathname.slice(this.prefix.length);
    const segments = path
      .split('/')
      .filter(Boolean)
      .map((segment) => {
        try {
          return decodeURIComponent(segment);
        } catch {
          return segment;
        }
      });
    const last = segments[segments.length - 1];
    if (last && /^index\.(html?|php)$/i.test(last)) segments.pop();
    else if (last) segments[segments.length - 1] = last.replace(/\.(html?|php)$/i, '');
    return segments;
  }
}

/** A URL without its fragment or query: the page it names. */
export function pageUrl(href: string, base: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(href, base);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  url.hash = '';
  url.search = '';
  return url;
}

/**
 * A website as a GitBook layout: from `startUrl`, breadth-first, the HTML pages of its origin
 * below its folder that links lead to (robots.txt's rules for CRAWLER_AGENT and `*` obeyed,
 * its crawl delay too, up to 10 s), `maxPages` at most; each page's content (html-page.ts) as
 * markdown, the page tree following the URLs' paths (a folder without a page of its own a page
 * named by it), links between crawled pages relative links, other links absolute, images
 * downloaded as assets (through the same `fetch`). Cancelled by `context.signal`.
 */
export async function crawl(options: CrawlOptions, context: ConvertContext): Promise<ImportTree> {
  const { signal } = context;
  const start = pageUrl(options.startUrl, options.startUrl);
  if (!start) throw new Error('The start URL must be an http(s) URL.');
  const scope = new Scope(start);
  const robots = await readRobots(options, start, context);
  const delay = Math.min(MAX_CRAWL_DELAY_MS, (robots?.getCrawlDelay(CRAWLER_AGENT) ?? 0) * 1000);
  const maxPages = Math.max(1, Math.floor(options.maxPages));

  const queue: string[] = [start.href];
  const queued = new Set<string>(queue);
  const crawled: Crawled[] = [];
  /** Every URL that led to a crawled page (before and after redirects) → its key. */
  const keyOf = new Map<string, string>();
  let disallowed = 0;
  let attempts = 0;
  while (queue.length > 0 && crawled.length < maxPages && attempts < maxPages * 3) {
    signal.throwIfAborted();
    const url = queue.shift() as string;
    if (robots && robots.isAllowed(url, CRAWLER_AGENT) === false) {
      disallowed++;
      continue;
    }
    if (attempts > 0 && delay > 0) await sleep(delay, signal);
    attempts++;
    let response: Awaited<ReturnType<CrawlOptions['fetch']>>;
    try {
      response = await options.fetch(url, signal);
    } catch (error) {
      signal.throwIfAborted();
      context.warn(`${url}: could not be fetched (${(error as Error).message}), skipped.`);
      continue;
    }
    if (response.status >= 400) {
      context.warn(`${url}: HTTP ${response.status}, skipped.`);
      continue;
    }
    const final = pageUrl(response.url || url, url);
    if (!final || !scope.includes(final)) continue;
    if (keyOf.has(final.href)) {
      keyOf.set(url, keyOf.get(final.href) as string);
      continue;
    }
    if (!isHtml(response.contentType, response.body)) continue;
    let page: HtmlPage;
    try {
      page = readHtmlPage(decode(response.body, response.contentType));
    } catch (error) {
      context.warn(`${url}: could not be read (${(error as Error).message}), skipped.`);
      continue;
    }
    keyOf.set(url, final.href);
    keyOf.set(final.href, final.href);
    crawled.push({ url: final.href, page });
    const base = baseOf(page, final.href);
    for (const href of page.links) {
      const next = pageUrl(href, base);
      if (!next || !scope.includes(next) || NOT_PAGES.test(next.pathname)) continue;
      if (queued.has(next.href)) continue;
      queued.add(next.href);
      queue.push(next.href);
    }
    await context.progress(crawled.length, Math.min(maxPages, crawled.length + queue.length));
  }
  if (disallowed > 0) context.warn(`${disallowed} page(s) left out: robots.txt disallows them.`);
  if (crawled.length === 0) context.warn(`No HTML page could be read from ${start.href}.`);

  const builder = new LayoutBuilder();
  const images = await downloadImages(crawled, options, builder, context);
  const pages = new Map<string, ImportPage>();
  for (const { url, page } of crawled) {
    signal.throwIfAborted();
    await nextTurn();
    let body: string;
    try {
      body = convertPage(url, page, keyOf, images, builder);
    } catch (error) {
      context.warn(`${url}: could not be converted (${(error as Error).message}), an empty page.`);
      body = '';
    }
    const segments = scope.segments(new URL(url));
    pages.set(url, {
      title: page.title || titleFromName(segments[segments.length - 1] ?? new URL(url).hostname),
      body,
      ...(page.description ? { description: page.description } : {}),
      key: url,
      source: url,
      children: [],
    });
  }
  await context.progress(crawled.length, crawled.length);
  return builder.build(pageTree(crawled, pages, scope));
}

/** A crawled page's content as markdown: links to crawled pages and downloaded images placeholders. */
function convertPage(
  url: string,
  page: HtmlPage,
  keyOf: Map<string, string>,
  images: Map<string, string>,
  builder: LayoutBuilder,
): string {
  return htmlToMarkdown(page.main, {
    link: (href) => {
      if (href.startsWith('#')) return href;
      if (/^(mailto|tel):/i.test(href)) return href;
      let absolute: URL;
      try {
        absolute = new URL(href, baseOf(page, url));
      } catch {
        return undefined;
      }
      if (absolute.protocol !== 'http:' && absolute.protocol !== 'https:') return undefined;
      const target = pageUrl(absolute.href, url);
      const key = target && keyOf.get(target.href);
      if (key) return builder.pageRef(key, absolute.hash.slice(1) || undefined);
      return absolute.href;
    },
    image: (src) => {
      if (src.startsWith('data:')) return builder.dataImageRef(src);
      try {
        const absolute = new URL(src, url).href;
        return images.get(absolute) ?? absolute;
      } catch {
        return undefined;
      }
    },
  });
}

/**
 * The pages nested by their URLs' paths, in the order they were found: the start page first,
 * `/docs/guide/` over `/docs/guide/install`, a folder no page was crawled for a page of its name.
 */
function pageTree(crawled: Crawled[], pages: Map<string, ImportPage>, scope: Scope): ImportPage[] {
  interface Node {
    page?: ImportPage;
    name: string;
    children: Map<string, Node>;
  }
  const root: Node = { name: '', children: new Map() };
  for (const { url } of crawled) {
    let node = root;
    for (const segment of scope.segments(new URL(url))) {
      let child = node.children.get(segment);
      if (!child) {
        child = { name: segment, children: new Map() };
        node.children.set(segment, child);
      }
      node = child;
    }
    // Two URLs for one path (`/a` and `/a/`): the first found.
    node.page ??= pages.get(url);
  }
  const toPage = (node: Node): ImportPage => ({
    ...(node.page ?? { title: titleFromName(node.name), body: '' }),
    children: [...node.children.values()].map(toPage),
  });
  const top = [...root.children.values()].map(toPage);
  return root.page ? [{ ...root.page, children: [] }, ...top] : top;
}

async function readRobots(
  options: CrawlOptions,
  start: URL,
  context: ConvertContext,
): Promise<ReturnType<typeof robotsParser> | undefined> {
  const url = `${start.origin}/robots.txt`;
  try {
    const response = await options.fetch(url, context.signal);
    if (response.status !== 200) return undefined;
    return robotsParser(url, response.body.toString('utf8'));
  } catch {
    context.signal.throwIfAborted();
    return undefined;
  }
}

/** The crawled pages' images, fetched once each: their URL → the asset placeholder. */
async function downloadImages(
  crawled: Crawled[],
  options: CrawlOptions,
  builder: LayoutBuilder,
  context: ConvertContext,
): Promise<Map<string, string>> {
  const wanted = new Set<string>();
  for (const { url, page } of crawled) {
    for (const img of all(page.main, 'img')) {
      const src = img.getAttribute('src') || img.getAttribute('data-src');
      if (!src || src.startsWith('data:')) continue;
      try {
        const absolute = new URL(src, baseOf(page, url));
        if (absolute.protocol === 'http:' || absolute.protocol === 'https:') {
          wanted.add(absolute.href);
        }
        // The page's converter resolves against the page itself: the absolute form for it.
        img.setAttribute('src', absolute.href);
      } catch {
        // Not a URL: the image is left as it is written.
      }
    }
  }
  const images = new Map<string, string>();
  let failed = 0;
  for (const url of [...wanted].slice(0, MAX_IMAGES)) {
    context.signal.throwIfAborted();
    try {
      const response = await options.fetch(url, context.signal);
      const type = response.contentType ?? '';
      if (
        response.status >= 400 ||
        response.body.length === 0 ||
        response.body.length > MAX_IMAGE_BYTES ||
        !(type.startsWith('image/') || (!type && NOT_PAGES.test(new URL(url).pathname)))
      ) {
        failed++;
        continue;
      }
      const name = posix.basename(new URL(response.url || url).pathname) || 'image';
      images.set(url, builder.assetRef(response.body, withExtension(name, type)));
    } catch {
      context.signal.throwIfAborted();
      failed++;
    }
  }
  if (failed > 0)
    context.warn(`${failed} image(s) could not be downloaded: they link to their URL.`);
  if (wanted.size > MAX_IMAGES) {
    context.warn(`More than ${MAX_IMAGES} images: the others link to their URL.`);
  }
  return images;
}

/** The URL a page's relative links are resolved against: its `<base href>`, else its own. */
function baseOf(page: HtmlPage, url: string): string {
  if (!page.base) return url;
  try {
    return new URL(page.base, url).href;
  } catch {
    return url;
  }
}

function withExtension(name: string, contentType: string): string {
  if (/\.[a-z0-9]{2,5}$/i.test(name)) return name;
  const subtype = /^image\/([\w.+-]+)/.exec(contentType)?.[1] ?? 'png';
  return `${name}.${subtype.replace('svg+xml', 'svg').replace('jpeg', 'jpg')}`;
}

function isHtml(contentType: string | undefined, body: Buffer): boolean {
  if (contentType) return /html/i.test(contentType);
  return /^\s*(<!doctype html|<html|<head|<body)/i.test(body.subarray(0, 512).toString('utf8'));
}

/** The body as text, in the charset its type names (UTF-8 otherwise). */
function decode(body: Buffer, contentType: string | undefined): string {
  const charset = /charset=["']?([\w-]+)/i.exec(contentType ?? '')?.[1];
  if (charset && !/^utf-?8$/i.test(charset)) {
    try {
      return new TextDecoder(charset).decode(body);
    } catch {
      // An unknown charset: read as UTF-8.
    }
  }
  return body.toString('utf8');
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
