import { collapseWhitespace, type HtmlHead } from './html-head';

/** What GitBook's `Embed` of `type: "link"` shows: a card with a title, a site and an icon. */
export interface LinkPreview {
  title: string;
  site: string;
  /** An http(s) URL of the site's icon. */
  icon?: string;
}

const MAX_TITLE_CHARS = 256;
const MAX_SITE_CHARS = 128;
const MAX_URL_CHARS = 2048;

const TITLE_METAS = ['og:title', 'twitter:title'];
const SITE_METAS = ['og:site_name', 'application-name', 'apple-mobile-web-app-title'];
/** `rel` values of icons, best first (a `mask-icon` is a monochrome mask, not an icon). */
const ICON_RELS = [
  ['icon'],
  ['shortcut', 'icon'],
  ['apple-touch-icon'],
  ['apple-touch-icon-precomposed'],
];

/**
 * The preview of the page at `url` (after redirects) from its head, or, for a page that is not
 * HTML (`head` null), from its URL: the OpenGraph or Twitter title, else the `<title>`, else the
 * URL's last segment or host; the OpenGraph site name, else the application name, else the host;
 * the page's declared icon, if any.
 */
export function linkPreview(head: HtmlHead | null, url: URL): LinkPreview {
  const metas = head ? metaContents(head) : new Map<string, string>();
  const title = firstOf(metas, TITLE_METAS) ?? nonEmpty(head?.title) ?? fallbackTitle(url);
  const site = firstOf(metas, SITE_METAS) ?? hostName(url);
  const icon = head ? iconOf(head, url) : undefined;
  return {
    title: title.slice(0, MAX_TITLE_CHARS),
    site: site.slice(0, MAX_SITE_CHARS),
    ...(icon ? { icon } : {}),
  };
}

/** `property` or `name` → `content` of the head's `<meta>` tags, the first of each name. */
function metaContents(head: HtmlHead): Map<string, string> {
  const contents = new Map<string, string>();
  for (const meta of head.metas) {
    const content = nonEmpty(meta.content);
    if (content === undefined) continue;
    for (const key of [meta.property, meta.name]) {
      const name = key?.trim().toLowerCase();
      if (name && !contents.has(name)) contents.set(name, content);
    }
  }
  return contents;
}

function firstOf(metas: Map<string, string>, names: string[]): string | undefined {
  for (const name of names) {
    const value = metas.get(name);
    if (value !== undefined) return value;
  }
  return undefined;
}

function nonEmpty(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const collapsed = collapseWhitespace(text);
  return collapsed === '' ? undefined : collapsed;
}

function hostName(url: URL): string {
  return url.hostname.startsWith('www.') ? url.hostname.slice(4) : url.hostname;
}

/** The URL's last path segment (decoded), else its host. */
function fallbackTitle(url: URL): string {
  const segments = url.pathname.split('/').filter((segment) => segment !== '');
  const last = segments[segments.length - 1];
  if (last === undefined) return hostName(url);
  try {
    return nonEmpty(decodeURIComponent(last)) ?? hostName(url);
  } catch {
    return last;
  }
}

/** The best icon the head declares, as an absolute http(s) URL. */
function iconOf(head: HtmlHead, url: URL): string | undefined {
  const base = resolve(head.base, url) ?? url;
  for (const rel of ICON_RELS) {
    for (const link of head.links) {
      const tokens = collapseWhitespace(link.rel ?? '')
        .toLowerCase()
        .split(' ')
        .filter((token) => token !== '');
      if (tokens.length !== rel.length || !rel.every((token) => tokens.includes(token))) continue;
      const icon = resolve(link.href, base);
      if (icon) return icon.href;
    }
  }
  return undefined;
}

/** `href` against `base`, when it makes an http(s) URL of reasonable length. */
function resolve(href: string | undefined, base: URL): URL | undefined {
  const trimmed = href?.trim();
  if (!trimmed) return undefined;
  try {
    const resolved = new URL(trimmed, base);
    if (resolved.protocol !== 'http:' && resolved.protocol !== 'https:') return undefined;
    return resolved.href.length <= MAX_URL_CHARS ? resolved : undefined;
  } catch {
    return undefined;
  }
}
