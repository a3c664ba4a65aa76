import stringify from 'json-stable-stringify';
import type { DocumentMark, MarkType } from './document';

/*
 * The inline parts of the dialect that CommonMark does not know: inline math (`$$x^2$$`), emoji
 * shortcodes (`:tada:`), the HTML marks (`<kbd>`, `<sup>`, `<sub>`, `<mark style="…">`) and the
 * escape hatch that carries a node markdown cannot express as JSON in an HTML comment.
 *
 * Math and emoji are found on the source text before remark parses it and replaced by
 * placeholders (private-use characters), so that markdown inside a formula (`$$a*b*c$$`) is
 * not read as emphasis and an escaped `\$\$` or `\:tada:` (remark forgets escapes) stays text.
 * Wherever a placeholder lands outside text (code, URLs, HTML), the raw source is put back.
 */

export type InlineToken =
  | { kind: 'math'; formula: string; raw: string }
  | { kind: 'emoji'; code: string; raw: string }
  | { kind: 'text'; text: string; raw: string };

// Placeholders begin and end with punctuation (⸨ ⸩), as what they replace does, so that the
// emphasis next to them parses the same; the private-use characters make them unique.
const OPEN = '\u2E28\uE000';
const CLOSE = '\uE001\u2E29';
const PLACEHOLDER = /\u2E28\uE000(\d+)\uE001\u2E29/g;

/**
 * Common shortcodes (GitHub's names) and their codepoints, as GitBook's `emoji` inline stores
 * them (`data.code`, lowercase hex, `-` between codepoints). Other emoji are written with their
 * code as the name (`:1f9ed:`), which reads back the same.
 */
const EMOJI: Record<string, string> = {
  smile: '1f604',
  grinning: '1f600',
  smiley: '1f603',
  laughing: '1f606',
  wink: '1f609',
  blush: '1f60a',
  joy: '1f602',
  heart_eyes: '1f60d',
  thinking: '1f914',
  sunglasses: '1f60e',
  cry: '1f622',
  scream: '1f631',
  tada: '1f389',
  rocket: '1f680',
  fire: '1f525',
  sparkles: '2728',
  star: '2b50',
  zap: '26a1',
  warning: '26a0-fe0f',
  heart: '2764-fe0f',
  thumbsup: '1f44d',
  thumbsdown: '1f44e',
  clap: '1f44f',
  wave: '1f44b',
  pray: '1f64f',
  eyes: '1f440',
  bulb: '1f4a1',
  memo: '1f4dd',
  book: '1f4d6',
  books: '1f4da',
  lock: '1f512',
  key: '1f511',
  link: '1f517',
  gear: '2699-fe0f',
  wrench: '1f527',
  hammer: '1f528',
  bug: '1f41b',
  package: '1f4e6',
  chart_with_upwards_trend: '1f4c8',
  calendar: '1f4c6',
  bell: '1f514',
  mag: '1f50d',
  white_check_mark: '2705',
  heavy_check_mark: '2714-fe0f',
  x: '274c',
  question: '2753',
  exclamation: '2757',
  information_source: '2139-fe0f',
  no_entry: '26d4',
  construction: '1f6a7',
  globe_with_meridians: '1f310',
  computer: '1f4bb',
  hourglass: '231b',
  muscle: '1f4aa',
  100: '1f4af',
};

const EMOJI_NAME = new Map(Object.entries(EMOJI).map(([name, code]) => [code, name]));
const EMOJI_CODE = /^[0-9a-f]{4,6}(?:-[0-9a-f]{4,6})*$/;

export function emojiShortcode(code: string): string {
  return `:${EMOJI_NAME.get(code) ?? code}:`;
}

function emojiCode(name: string): string | undefined {
  if (Object.hasOwn(EMOJI, name)) return EMOJI[name];
  return EMOJI_CODE.test(name) ? name : undefined;
}

/**
 * What text must escape so that it does not read back as something else (remark `unsafe`):
 * math, emoji and block tags. GFM's literal autolinks are not read (GitBook reads `https://…` in
 * text as text), so they need no escape.
 */
const IN_TEXT = {
  inConstruct: 'phrasing' as const,
  notInConstruct: [
    'autolink' as const,
    'destinationLiteral' as const,
    'destinationRaw' as const,
    'reference' as const,
    'titleQuote' as const,
    'titleApostrophe' as const,
  ],
};

export const INLINE_UNSAFE = [
  { ...IN_TEXT, character: '$', after: '\\$' },
  { ...IN_TEXT, character: '$', before: '\\$' },
  { ...IN_TEXT, character: '%', before: '\\{' },
  {
    ...IN_TEXT,
    character: ':',
    after: `(?:${Object.keys(EMOJI).join('|')}|[0-9a-f]{4,6}(?:-[0-9a-f]{4,6})*):`,
  },
];

// An escape is skipped whole, so `\$\$` and `\:tada:` are never delimiters.
const INLINE_SYNTAX = /\\[\s\S]|\$\$([^\n]+?)\$\$|:([a-z0-9_+-]+):/g;

/** The source with inline math and emoji replaced by placeholders, and what they stand for. */
export function protectInlineSyntax(markdown: string): { text: string; tokens: InlineToken[] } {
  const tokens: InlineToken[] = [];
  const text = markdown.replace(INLINE_SYNTAX, (raw, formula?: string, name?: string) => {
    let token: InlineToken | undefined;
    // `https\://`, `www\.` and `a\@b` (Bindery escaped literal autolinks before it stopped
    // reading them) read as their character wherever they are, as remark forgets the escape.
    if (/^\\[:.@]$/.test(raw)) token = { kind: 'text', text: raw[1], raw };
    else if (formula !== undefined) token = { kind: 'math', formula, raw };
    else if (name !== undefined) {
      const code = emojiCode(name);
      if (code) token = { kind: 'emoji', code, raw };
    }
    if (!token) return raw;
    tokens.push(token);
    return `${OPEN}${tokens.length - 1}${CLOSE}`;
  });
  return { text, tokens };
}

/** A raw value (code, HTML) with its placeholders turned back into the source they replaced. */
export function restoreRaw(value: string, tokens: InlineToken[]): string {
  if (!value.includes(OPEN)) return value;
  return value.replace(PLACEHOLDER, (raw, index: string) => tokens[Number(index)]?.raw ?? raw);
}

/** A value markdown unescapes (URLs, titles, alt text) with its placeholders put back. */
export function restoreText(value: string, tokens: InlineToken[]): string {
  if (!value.includes(OPEN)) return value;
  return value.replace(PLACEHOLDER, (raw, index: string) => {
    const token = tokens[Number(index)];
    if (!token) return raw;
    return token.kind === 'text' ? token.text : token.raw;
  });
}

/** Text cut at its placeholders: strings and the tokens between them. */
export function splitTokens(value: string, tokens: InlineToken[]): (string | InlineToken)[] {
  if (!value.includes(OPEN)) return [value];
  const parts: (string | InlineToken)[] = [];
  let last = 0;
  for (const match of value.matchAll(PLACEHOLDER)) {
    const token = tokens[Number(match[1])];
    if (!token) continue;
    parts.push(value.slice(last, match.index));
    parts.push(token);
    last = match.index + match[0].length;
  }
  parts.push(value.slice(last));
  return parts;
}

/** Marks written as HTML elements, and their tag names. */
export const HTML_MARK_TAGS: Partial<Record<MarkType, string>> = {
  keyboard: 'kbd',
  superscript: 'sup',
  subscript: 'sub',
  color: 'mark',
};

/** Also read: the HTML GitBook writes inside `<summary>` and `<figcaption>`. */
const MARK_OF_TAG: Record<string, MarkType> = {
  kbd: 'keyboard',
  sup: 'superscript',
  sub: 'subscript',
  mark: 'color',
  strong: 'bold',
  b: 'bold',
  em: 'italic',
  i: 'italic',
  s: 'strikethrough',
  del: 'strikethrough',
  code: 'code',
};

/**
 * A color mark as GitBook writes it, `<mark style="color:red;background-color:blue;">`; a color
 * left at `default` is not written, and an absent one reads as `default`.
 */
export function htmlMarkOpen(mark: DocumentMark): string {
  const tag = HTML_MARK_TAGS[mark.type as MarkType];
  if (mark.type !== 'color') return `<${tag}>`;
  const style = [
    ['color', mark.data?.text],
    ['background-color', mark.data?.background],
  ]
    .filter(([, value]) => typeof value === 'string' && value !== 'default')
    .map(([property, value]) => `${property}:${escapeAttribute(String(value))};`)
    .join('');
  return style ? `<mark style="${style}">` : '<mark>';
}

export function htmlMarkClose(mark: DocumentMark): string {
  return `</${HTML_MARK_TAGS[mark.type as MarkType]}>`;
}

/** The mark an opening tag stands for (`<sup>` → superscript). */
export function markOfOpeningTag(html: string): DocumentMark | undefined {
  const match = /^<([a-z]+)(?:\s+style="([^"]*)")?\s*>$/i.exec(html.trim());
  const type = match && MARK_OF_TAG[match[1].toLowerCase()];
  if (!match || !type || (match[2] !== undefined && type !== 'color')) return undefined;
  if (type !== 'color') return { object: 'mark', type };
  const style = unescapeAttribute(match[2] ?? '');
  const property = (name: string) =>
    new RegExp(`(?:^|;)\\s*${name}\\s*:\\s*([^;]+)`).exec(style)?.[1].trim() ?? 'default';
  return {
    object: 'mark',
    type,
    data: { text: property('color'), background: property('background-color') },
  };
}

/** The tag name a closing tag closes (`</sup>` → `sup`). */
export function closingTagName(html: string): string | undefined {
  return /^<\/([a-z]+)\s*>$/i.exec(html.trim())?.[1].toLowerCase();
}

export function openingTagName(html: string): string | undefined {
  return /^<([a-z]+)(?:\s[^>]*)?>$/i.exec(html.trim())?.[1].toLowerCase();
}

/**
 * An attribute value in double quotes, as GitBook writes HTML (hast-util-to-html): `&` and `"`
 * as hexadecimal references.
 */
export function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&#x26;').replace(/"/g, '&#x22;');
}

function codePoint(code: number, raw: string): string {
  return code <= 0x10ffff ? String.fromCodePoint(code) : raw;
}

export function unescapeAttribute(value: string): string {
  return value
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&#x([0-9a-f]{1,6});/gi, (raw, hex: string) => codePoint(parseInt(hex, 16), raw))
    .replace(/&#(\d{1,7});/g, (raw, decimal: string) => codePoint(Number(decimal), raw))
    .replace(/&amp;/g, '&');
}

/**
 * Text between HTML tags, read raw: `<` cannot open a tag, and a backtick cannot open a code
 * span that would swallow the closing tag.
 */
export function escapeHtmlText(value: string): string {
  return value.replace(/&/g, '&#x26;').replace(/</g, '&#x3C;').replace(/`/g, '&#x60;');
}

/** The attributes of an HTML start tag, unescaped. */
export function htmlAttributes(tag: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  for (const [, name, value] of tag.matchAll(/\s([a-z][\w-]*)(?:="([^"]*)")?/gi)) {
    attrs[name.toLowerCase()] = unescapeAttribute(value ?? '');
  }
  return attrs;
}

/*
 * The escape hatch: a node with no markdown form is written as its JSON, a block in an HTML
 * comment (`<!-- bindery:block {…} -->`), an inline in an empty span
 * (`<span data-bindery-inline="{…}"></span>`: a comment at the start of a paragraph would begin
 * an HTML block). Markdown renderers show neither; reading restores the node. In the comment,
 * `<` and `>` are JSON escapes so that it cannot end early.
 */
const BLOCK_HATCH = /^<!-- bindery:block (\{[\s\S]*\}) -->$/;
const INLINE_HATCH = /^<span data-bindery-inline="([^"]*)">$/;

/**
 * A node's JSON without its keys, which reading gives anew; fields in sorted order, so that the
 * text does not depend on the order a document was stored in.
 */
function keyless(node: object): string {
  return stringify(node, { replacer: (field, value) => (field === 'key' ? undefined : value) })!;
}

export function blockEscapeHatch(node: object): string {
  const json = keyless(node).replace(/</g, '\\u003c').replace(/>/g, '\\u003e');
  return `<!-- bindery:block ${json} -->`;
}

export function inlineEscapeHatchOpen(node: object): string {
  // Bindery's own form: named references, easier to read than GitBook's.
  const json = keyless(node).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return `<span data-bindery-inline="${json}">`;
}

/** The JSON an inline escape hatch holds (in HTML forms, as an attribute of an empty span). */
export function inlineEscapeHatchJson(node: object): string {
  return keyless(node);
}

function parseJsonObject(json: string): Record<string, unknown> | undefined {
  try {
    const node: unknown = JSON.parse(json);
    return node && typeof node === 'object' && !Array.isArray(node)
      ? (node as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

export function fromBlockEscapeHatch(html: string): Record<string, unknown> | undefined {
  const match = BLOCK_HATCH.exec(html.trim());
  return match ? parseJsonObject(match[1]) : undefined;
}

/** The node of an inline escape hatch's opening tag. */
export function fromInlineEscapeHatch(html: string): Record<string, unknown> | undefined {
  const match = INLINE_HATCH.exec(html.trim());
  return match ? parseJsonObject(unescapeAttribute(match[1])) : undefined;
}
