/**
 * What a link preview needs from an HTML page: its `<title>`, its `<meta>` tags (OpenGraph,
 * Twitter cards, `application-name`, `charset`), its `<link>` tags (icons) and its `<base>`.
 *
 * A small scanner rather than a parser: it walks the markup once, left to right, without
 * regular expressions, reading tags and their attributes as HTML does (quoted and unquoted
 * values, case-insensitive names, comments), skipping the text of `<script>`, `<style>` and
 * other raw-text elements, and stopping at `</head>` or `<body>`. Its cost is linear in the
 * input, whatever the input. It never builds markup: only attribute values and the title text
 * come out, entity-decoded, as plain strings.
 */

export interface HtmlHead {
  /** The text of the first `<title>`, whitespace collapsed; absent when there is none. */
  title?: string;
  /** `<meta>` tags, each as its attributes (names in lower case), in order. */
  metas: Record<string, string>[];
  /** `<link>` tags, likewise. */
  links: Record<string, string>[];
  /** The `href` of the first `<base>`, if any. */
  base?: string;
}

/** Elements whose content is text up to their end tag, not markup. */
const RAW_TEXT = new Set(['script', 'style', 'noscript', 'template', 'textarea', 'xmp', 'iframe']);
/** Tags after which there is no more head to read. */
const BODY_TAGS = new Set(['body', 'main', 'article', 'header', 'div']);
const MAX_TITLE_CHARS = 2048;
const MAX_TAGS = 500;

export function readHtmlHead(html: string): HtmlHead {
  const head: HtmlHead = { metas: [], links: [] };
  let at = 0;
  let tags = 0;
  while (at < html.length && tags < MAX_TAGS) {
    const open = html.indexOf('<', at);
    if (open < 0) break;
    if (html.startsWith('<!--', open)) {
      const end = html.indexOf('-->', open + 4);
      at = end < 0 ? html.length : end + 3;
      continue;
    }
    const next = html.charAt(open + 1);
    if (next === '!' || next === '?') {
      const end = html.indexOf('>', open + 2);
      at = end < 0 ? html.length : end + 1;
      continue;
    }
    if (next === '/') {
      const { name, end } = readName(html, open + 2);
      if (name === 'head') break;
      const close = html.indexOf('>', end);
      at = close < 0 ? html.length : close + 1;
      continue;
    }
    const { name, end } = readName(html, open + 1);
    if (name === '') {
      at = open + 1;
      continue;
    }
    tags += 1;
    const tag = readAttributes(html, end);
    at = tag.end;
    if (BODY_TAGS.has(name)) break;
    switch (name) {
      case 'meta':
        head.metas.push(tag.attributes);
        break;
      case 'link':
        head.links.push(tag.attributes);
        break;
      case 'base':
        if (head.base === undefined && tag.attributes.href !== undefined) {
          head.base = tag.attributes.href;
        }
        break;
      case 'title': {
        const close = indexOfEndTag(html, 'title', at);
        if (head.title === undefined) {
          head.title = collapseWhitespace(
            decodeEntities(html.slice(at, close < 0 ? html.length : close)),
          ).slice(0, MAX_TITLE_CHARS);
        }
        at = close < 0 ? html.length : close;
        break;
      }
      default:
        if (RAW_TEXT.has(name)) {
          const close = indexOfEndTag(html, name, at);
          at = close < 0 ? html.length : close;
        }
    }
  }
  return head;
}

const isAsciiLetter = (code: number) =>
  (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
const isWhitespace = (char: string) =>
  char === ' ' || char === '\t' || char === '\n' || char === '\r' || char === '\f';

/** A tag name at `from` (letters, then letters, digits, `-`, `:`), lower case. */
function readName(html: string, from: number): { name: string; end: number } {
  let end = from;
  if (!isAsciiLetter(html.charCodeAt(end))) return { name: '', end };
  while (end < html.length) {
    const char = html.charAt(end);
    if (isWhitespace(char) || char === '/' || char === '>') break;
    end += 1;
  }
  return { name: html.slice(from, end).toLowerCase(), end };
}

/** The attributes of a start tag from `from` up to its `>`; `end` is just after it. */
function readAttributes(
  html: string,
  from: number,
): { attributes: Record<string, string>; end: number } {
  const attributes: Record<string, string> = {};
  let at = from;
  while (at < html.length) {
    const char = html.charAt(at);
    if (char === '>') return { attributes, end: at + 1 };
    if (isWhitespace(char) || char === '/') {
      at += 1;
      continue;
    }
    const nameStart = at;
    while (at < html.length) {
      const c = html.charAt(at);
      if (isWhitespace(c) || c === '=' || c === '>' || (c === '/' && at > nameStart)) break;
      at += 1;
    }
    const name = html.slice(nameStart, at).toLowerCase();
    while (at < html.length && isWhitespace(html.charAt(at))) at += 1;
    let value = '';
    if (html.charAt(at) === '=') {
      at += 1;
      while (at < html.length && isWhitespace(html.charAt(at))) at += 1;
      const quote = html.charAt(at);
      if (quote === '"' || quote === "'") {
        const close = html.indexOf(quote, at + 1);
        const end = close < 0 ? html.length : close;
        value = html.slice(at + 1, end);
        at = end + 1;
      } else {
        const valueStart = at;
        while (at < html.length && !isWhitespace(html.charAt(at)) && html.charAt(at) !== '>') {
          at += 1;
        }
        value = html.slice(valueStart, at);
      }
    }
    if (name !== '' && !(name in attributes)) attributes[name] = decodeEntities(value);
  }
  return { attributes, end: html.length };
}

/** Where `</name` starts from `from` on (any case), or -1. */
function indexOfEndTag(html: string, name: string, from: number): number {
  let at = from;
  for (;;) {
    const open = html.indexOf('</', at);
    if (open < 0) return -1;
    const candidate = html.slice(open + 2, open + 2 + name.length);
    const after = html.charAt(open + 2 + name.length);
    if (
      candidate.toLowerCase() === name &&
      (after === '' || after === '>' || after === '/' || isWhitespace(after))
    ) {
      return open;
    }
    at = open + 2;
  }
}

/** Runs of whitespace become one space; none at either end. */
export function collapseWhitespace(text: string): string {
  let out = '';
  let pendingSpace = false;
  for (const char of text) {
    if (isWhitespace(char) || char === '\u00a0') {
      pendingSpace = out !== '';
      continue;
    }
    if (pendingSpace) out += ' ';
    pendingSpace = false;
    out += char;
  }
  return out;
}

/** Named character references common in titles and descriptions. */
const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  ndash: '\u2013',
  mdash: '\u2014',
  hellip: '\u2026',
  lsquo: '\u2018',
  rsquo: '\u2019',
  ldquo: '\u201c',
  rdquo: '\u201d',
  laquo: '\u00ab',
  raquo: '\u00bb',
  middot: '\u00b7',
  bull: '\u2022',
  copy: '\u00a9',
  reg: '\u00ae',
  trade: '\u2122',
};
const MAX_ENTITY_LENGTH = 10;

/** `&amp;`, `&#39;`, `&#x27;` and the names above decoded; anything else left as written. */
export function decodeEntities(text: string): string {
  let out = '';
  let at = 0;
  for (;;) {
    const amp = text.indexOf('&', at);
    if (amp < 0) return out + text.slice(at);
    out += text.slice(at, amp);
    const semi = text.indexOf(';', amp + 1);
    const reference = semi < 0 || semi - amp > MAX_ENTITY_LENGTH ? '' : text.slice(amp + 1, semi);
    const decoded = reference === '' ? undefined : decodeReference(reference);
    if (decoded === undefined) {
      out += '&';
      at = amp + 1;
    } else {
      out += decoded;
      at = semi + 1;
    }
  }
}

function decodeReference(reference: string): string | undefined {
  if (reference.charAt(0) !== '#') return NAMED_ENTITIES[reference];
  const hex = reference.charAt(1) === 'x' || reference.charAt(1) === 'X';
  const digits = reference.slice(hex ? 2 : 1);
  if (digits === '') return undefined;
  for (const char of digits) {
    if (!(hex ? '0123456789abcdefABCDEF' : '0123456789').includes(char)) return undefined;
  }
  const code = parseInt(digits, hex ? 16 : 10);
  // No NUL, surrogates or out-of-range code points (PostgreSQL and JSON would choke on some).
  if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return '\ufffd';
  return String.fromCodePoint(code);
}
