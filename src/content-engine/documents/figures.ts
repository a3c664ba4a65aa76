import type { Image } from 'mdast';
import { ContentRef, DocumentBlock, DocumentFragment, DocumentInline } from './document';
import { escapeAttribute, htmlAttributes } from './inline-syntax';

/*
 * Images beyond `![alt](url "title")`: GitBook writes an image with a caption or a size as
 * `<figure><img src="…" alt="…" width="…"><figcaption><p>caption</p></figcaption></figure>`,
 * and an images block's alignment as a `<div align="…">` around its figures. An image GitBook's
 * editor made has a caption, often empty (`<figcaption></figcaption>`: a caption fragment of
 * one empty paragraph); one read from `![]()` has none. An image with a dark-mode source is a
 * `<picture>` holding `<source srcset="dark.png" media="(prefers-color-scheme: dark)">` and the
 * `<img>` (Bindery's earlier `data-src-dark` reads too). The width of full-width and framed
 * blocks is `data-full-width` and `data-with-frame`. Inline images with a caption, a size or a dark source are an `<img>` tag
 * among text (`data-caption`, `data-size`). Captions are HTML (`<strong>`, `&#x26;`, `<br>`),
 * read as markdown, which reads that HTML too.
 */

export type Length = number | { unit: string; value: number };

/** Image data keys markdown's `![alt](url "title")` expresses. */
const PLAIN_IMAGE_KEYS = new Set(['ref', 'alt', 'title']);

export function isUrlRef(ref: unknown): ref is { kind: 'url'; url: string } {
  return (
    !!ref &&
    typeof ref === 'object' &&
    (ref as ContentRef).kind === 'url' &&
    typeof (ref as { url: unknown }).url === 'string'
  );
}

export function imageData(image: Image): Record<string, unknown> {
  return {
    ref: { kind: 'url', url: image.url },
    ...(image.alt ? { alt: image.alt } : {}),
    ...(image.title ? { title: image.title } : {}),
  };
}

export function captionFragment(image: DocumentBlock): DocumentFragment | undefined {
  return image.fragments?.find((fragment) => fragment.fragment === 'caption');
}

/** Whether an images block needs the HTML form. */
export function needsFigures(block: DocumentBlock, images: DocumentBlock[]): boolean {
  if (Object.keys(block.data ?? {}).length > 0) return true;
  return images.some(
    (image) =>
      Object.keys(image.data ?? {}).some((key) => !PLAIN_IMAGE_KEYS.has(key)) ||
      captionFragment(image) !== undefined,
  );
}

export function inlineImageNeedsHtml(inline: DocumentInline): boolean {
  return Object.keys(inline.data ?? {}).some((key) => !PLAIN_IMAGE_KEYS.has(key));
}

export function formatLength(length: unknown): string | undefined {
  if (typeof length === 'number') return String(length);
  if (length && typeof length === 'object') {
    const { unit, value } = length as { unit?: unknown; value?: unknown };
    if (typeof unit === 'string' && typeof value === 'number') return `${value}${unit}`;
  }
  return typeof length === 'string' ? length : undefined;
}

export function parseLength(text: string): Length | string {
  if (/^\d+(?:\.\d+)?$/.test(text)) return Number(text);
  const match = /^(\d+(?:\.\d+)?)([a-z%]+)$/i.exec(text);
  return match ? { unit: match[2], value: Number(match[1]) } : text;
}

function attributes(attrs: [string, string | undefined][]): string {
  return attrs
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([name, value]) => ` ${name}="${escapeAttribute(value)}"`)
    .join('');
}

type RefToUrl = (ref: unknown) => string;

/** `<img …>` for an image's data. */
export function imgTag(data: Record<string, unknown>, refUrl: RefToUrl, inline: boolean): string {
  const text = (key: string) => (typeof data[key] === 'string' ? (data[key] as string) : undefined);
  return `<img${attributes([
    ['src', refUrl(data.ref)],
    ['alt', text('alt') ?? ''],
    ['title', text('title')],
    ['width', formatLength(data.width)],
    ['height', formatLength(data.height)],
    ...(inline
      ? ([
          ['data-src-dark', data.refDark ? refUrl(data.refDark) : undefined],
          ['data-caption', text('caption')],
          ['data-size', text('size')],
        ] as [string, string | undefined][])
      : []),
  ])}>`;
}

/** An image of an images block: its `<img>`, in a `<picture>` with its dark-mode source. */
function pictureTag(data: Record<string, unknown>, refUrl: RefToUrl): string {
  const img = imgTag(data, refUrl, false);
  if (!data.refDark) return img;
  const source = `<source${attributes([
    ['srcset', refUrl(data.refDark)],
    ['media', DARK_MEDIA],
  ])}>`;
  return `<picture>${source}${img}</picture>`;
}

const DARK_MEDIA = '(prefers-color-scheme: dark)';

/**
 * An images block as figures; `captionOf` gives a caption's paragraphs as inline HTML (an empty
 * caption, one empty paragraph, is `<figcaption></figcaption>`).
 */
export function figuresHtml(
  block: DocumentBlock,
  images: DocumentBlock[],
  refUrl: RefToUrl,
  captionOf: (caption: DocumentFragment) => string[],
): string {
  const figures = images.map((image) => {
    const caption = captionFragment(image);
    const paragraphs = caption ? captionOf(caption) : [];
    const figcaption = !caption
      ? ''
      : paragraphs.length === 1 && paragraphs[0] === ''
        ? '<figcaption></figcaption>'
        : `<figcaption>${paragraphs.map((p) => `<p>${p}</p>`).join('')}</figcaption>`;
    return `<figure>${pictureTag(image.data ?? {}, refUrl)}${figcaption}</figure>`;
  });
  const data = block.data ?? {};
  if (Object.keys(data).length === 0) return figures.join('');
  // In a `<div>`, images without captions are written alone.
  const bare = images.every((image) => captionFragment(image) === undefined);
  const content = bare
    ? images.map((image) => pictureTag(image.data ?? {}, refUrl)).join('')
    : figures.join('');
  const flag = (key: string) => (typeof data[key] === 'boolean' ? String(data[key]) : undefined);
  const div = `<div${attributes([
    ['align', typeof data.align === 'string' ? data.align : undefined],
    ['data-full-width', flag('fullWidth')],
    ['data-with-frame', flag('withFrame')],
  ])}>`;
  return `${div}${content}</div>`;
}

export interface ParsedFigure {
  data: Record<string, unknown>;
  /** The caption paragraphs' markdown; undefined without `<figcaption>`, [] when it is empty. */
  captions: string[] | undefined;
}

function imageDataFromAttrs(
  attrs: Record<string, string>,
  inline: boolean,
): Record<string, unknown> {
  const data: Record<string, unknown> = { ref: { kind: 'url', url: attrs.src ?? '' } };
  if (attrs['data-src-dark'] !== undefined) {
    data.refDark = { kind: 'url', url: attrs['data-src-dark'] };
  }
  if (attrs.width !== undefined) data.width = parseLength(attrs.width);
  if (attrs.height !== undefined) data.height = parseLength(attrs.height);
  if (attrs.alt) data.alt = attrs.alt;
  if (attrs.title !== undefined) data.title = attrs.title;
  if (inline) {
    if (attrs['data-caption'] !== undefined) data.caption = attrs['data-caption'];
    if (attrs['data-size'] !== undefined) data.size = attrs['data-size'];
  }
  return data;
}

/** An inline `<img …>` tag's image data, or undefined. */
export function parseInlineImg(html: string): Record<string, unknown> | undefined {
  const tag = /^<img\s[^>]*>$/i.exec(html.trim());
  return tag ? imageDataFromAttrs(htmlAttributes(tag[0].slice(4)), true) : undefined;
}

/** Figures (in an optional `<div>`) as images block data and images; undefined otherwise. */
/** The dark-mode source of a `<picture>`: its `<source>` for `prefers-color-scheme: dark`. */
function darkSource(html: string): string | undefined {
  for (const [, attributes] of html.matchAll(/<source(\s[^>]*)>/gi)) {
    const attrs = htmlAttributes(attributes);
    if (attrs.media === DARK_MEDIA && attrs.srcset !== undefined) return attrs.srcset;
  }
  return undefined;
}

/** An images block's data from its `<div>`'s attributes. */
function divData(attributes: string | undefined): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  const attrs = htmlAttributes(attributes ?? '');
  if (attrs.align !== undefined) data.align = attrs.align;
  if (attrs['data-full-width'] !== undefined) data.fullWidth = attrs['data-full-width'] === 'true';
  if (attrs['data-with-frame'] !== undefined) data.withFrame = attrs['data-with-frame'] === 'true';
  return data;
}

export function parseFigures(
  html: string,
): { data: Record<string, unknown>; figures: ParsedFigure[] } | undefined {
  const text = html.trim();
  const wrapped = /^<div(\s[^>]*)?>([\s\S]*)<\/div>$/i.exec(text);
  const inner = wrapped ? wrapped[2] : text;
  // In a `<div>`, images without a caption are their `<img>` (or `<picture>`) alone, as GitBook
  // writes them; a `<picture>` may stand alone too.
  const alone = /^(?:<img\s[^>]*>|<picture>[\s\S]*?<\/picture>)+$/i;
  if (
    (wrapped && alone.test(inner)) ||
    (!wrapped && /^<picture>/i.test(inner) && alone.test(inner))
  ) {
    const figures = [...inner.matchAll(/<picture>[\s\S]*?<\/picture>|<img(\s[^>]*)>/gi)].map(
      (match) => {
        const img = /<img(\s[^>]*)>/i.exec(match[0]);
        const data = imageDataFromAttrs(htmlAttributes(img?.[1] ?? ''), false);
        const dark = darkSource(match[0]);
        if (dark !== undefined) data.refDark = { kind: 'url', url: dark };
        return { data, captions: undefined };
      },
    );
    return { data: wrapped ? divData(wrapped[1]) : {}, figures };
  }
  if (!/^(?:<figure>[\s\S]*?<\/figure>)+$/i.test(inner)) return undefined;
  const data = wrapped ? divData(wrapped[1]) : {};
  const figures: ParsedFigure[] = [];
  for (const [, body] of inner.matchAll(/<figure>([\s\S]*?)<\/figure>/gi)) {
    const img = /<img(\s[^>]*)?>/i.exec(body);
    if (!img) return undefined;
    const dark = darkSource(body);
    const caption = /<figcaption>([\s\S]*)<\/figcaption>/i.exec(body)?.[1];
    const captions =
      caption === undefined
        ? undefined
        : [...caption.matchAll(/<p>([\s\S]*?)(?<!\\)<\/p>/gi)].map((p) => p[1]);
    const data = imageDataFromAttrs(htmlAttributes(img[1] ?? ''), false);
    if (dark !== undefined) data.refDark = { kind: 'url', url: dark };
    figures.push({ data, captions });
  }
  return { data, figures };
}
