import type { Position } from 'unist';
import type {
  Definition,
  FootnoteDefinition,
  Heading,
  Html,
  Image,
  List,
  ListItem,
  Nodes,
  Paragraph,
  PhrasingContent,
  Root,
  RootContent,
} from 'mdast';
import { DocumentBlock, DocumentFragment, DocumentInline, DocumentText } from './document';
import { imageData, parseFigures, parseInlineImg } from './figures';
import { fromBlockEscapeHatch, htmlAttributes, restoreRaw, restoreText } from './inline-syntax';
import { asImage, block, FromMdastContext, isHtmlComment, rekey } from './from-mdast-context';
import { InlinePiece, inlinesFromMdast, leaf, textNode } from './inlines-from-mdast';
import { tableFromMdast } from './tables';
import { tableFromHast } from './html-tables';
import { codeFromHast } from './html-forms';
import type { Element } from 'hast';

/**
 * mdast (CommonMark + GFM) to document blocks. Choices where markdown and documents differ:
 * - A soft line break is a space (as rendered); a hard break is a "\n" in the text.
 * - Link and image targets become `{kind: 'url', url}` refs, relative paths included: turning
 *   `../page.md` into a page ref needs the space's page tree, which a caller may apply later.
 * - Reference-style links and images are resolved against their definitions.
 * - A paragraph holding only images is an `images` block; an image among text is an
 *   `inline-image`.
 * - Headings deeper than 3 are heading-3 with their depth in `data.level` (GitBook has three
 *   levels; the depth is kept so that the markdown reads back the same).
 * - List looseness is dropped; HTML comments are dropped, other HTML is kept as text.
 * - Footnotes are annotations (see inlines-from-mdast.ts).
 */
export function definitionsOf(root: Root): {
  definitions: Map<string, Definition>;
  footnotes: Map<string, FootnoteDefinition>;
} {
  const definitions = new Map<string, Definition>();
  const footnotes = new Map<string, FootnoteDefinition>();
  const visit = (node: Nodes) => {
    if (node.type === 'definition' && !definitions.has(node.identifier)) {
      definitions.set(node.identifier, node);
    }
    if (node.type === 'footnoteDefinition' && !footnotes.has(node.identifier)) {
      footnotes.set(node.identifier, node);
    }
    if ('children' in node) node.children.forEach(visit);
  };
  visit(root);
  return { definitions, footnotes };
}

/**
 * Blocks of flow content. GitBook writes an empty paragraph as nothing, so blocks separated by
 * three blank lines have one between them, by five two (`trailing`: blank lines after the last
 * node, within its container, where one in two is an empty paragraph).
 */
export function blocksFromMdast(
  content: RootContent[],
  ctx: FromMdastContext,
  trailing = 0,
): DocumentBlock[] {
  const blocks: DocumentBlock[] = [];
  const nodes = joinDivs(content);
  nodes.forEach((node, i) => {
    const previous = nodes[i - 1];
    // Footnote definitions end the page, after its blocks (and their empty paragraphs).
    if (
      previous &&
      !isDefinition(previous) &&
      (node.type === 'footnoteDefinition' || !isDefinition(node))
    ) {
      const blank = linesBetween(previous, node);
      for (let n = Math.floor((blank - 1) / 2); n > 0; n--) blocks.push(emptyParagraph(ctx));
    }
    const read = blockFromMdast(node, ctx);
    const at = node.position;
    if (ctx.lines && at) {
      for (const block of read) {
        ctx.lines.of.set(block, [
          at.start.line - 1 + ctx.lines.offset,
          at.end.line - 1 + ctx.lines.offset,
        ]);
      }
    }
    blocks.push(...read);
  });
  for (let n = Math.floor(trailing / 2); n > 0; n--) blocks.push(emptyParagraph(ctx));
  return blocks;
}

/**
 * A `<div>` alone on its line, HTML, and `</div>` alone on its line, as one HTML node: GitBook's
 * earlier form of aligned figures (`<div align="center">`, a blank line, `<figure>…`, a blank
 * line, `</div>`), which markdown reads as three HTML blocks.
 */
function joinDivs(nodes: RootContent[]): RootContent[] {
  const out: RootContent[] = [];
  for (let i = 0; i < nodes.length; i++) {
    const [open, inner, close] = nodes.slice(i, i + 3);
    if (
      open.type === 'html' &&
      /^<div(\s[^>]*)?>$/i.test(open.value.trim()) &&
      inner?.type === 'html' &&
      parseFigures(inner.value) !== undefined &&
      close?.type === 'html' &&
      /^<\/div>$/i.test(close.value.trim())
    ) {
      const position =
        open.position && close.position
          ? { start: open.position.start, end: close.position.end }
          : undefined;
      out.push({
        type: 'html',
        value: `${open.value.trim()}${inner.value.trim()}${close.value.trim()}`,
        ...(position ? { position } : {}),
      });
      i += 2;
    } else out.push(nodes[i]);
  }
  return out;
}

function isDefinition(node: RootContent): boolean {
  return node.type === 'definition' || node.type === 'footnoteDefinition';
}

/** Blank lines between two nodes (0 when either has no position). */
function linesBetween(a: { position?: Position }, b: { position?: Position }): number {
  const end = a.position?.end.line;
  const start = b.position?.start.line;
  return end === undefined || start === undefined ? 0 : Math.max(0, start - end - 1);
}

function emptyParagraph(ctx: FromMdastContext): DocumentBlock {
  return block(ctx, 'paragraph', inlinesFromMdast([], ctx));
}

function blockFromMdast(node: RootContent, ctx: FromMdastContext): DocumentBlock[] {
  switch (node.type) {
    case 'paragraph':
      return [paragraphFromMdast(node, ctx)];
    case 'heading':
      return [headingFromMdast(node, ctx)];
    case 'list':
      return [listFromMdast(node, ctx)];
    case 'code':
      return [
        codeBlock(
          restoreRaw(node.value, ctx.tokens),
          node.lang ? restoreText(node.lang, ctx.tokens) : undefined,
          ctx,
        ),
      ];
    case 'blockquote':
      return [block(ctx, 'blockquote', blocksOrEmptyParagraph(node.children, ctx))];
    case 'thematicBreak':
      return [{ object: 'block', key: ctx.newKey(), type: 'divider', data: {}, isVoid: true }];
    case 'table':
      return [tableFromMdast(node, ctx)];
    case 'html':
      return htmlBlock(node, ctx);
    case 'definition':
    case 'footnoteDefinition':
    case 'yaml':
      return [];
    default:
      if ('children' in node) return blocksFromMdast(node.children as RootContent[], ctx);
      return 'value' in node ? [textParagraph(String(node.value), ctx)] : [];
  }
}

function htmlBlock(node: Html, ctx: FromMdastContext): DocumentBlock[] {
  const value = restoreRaw(node.value, ctx.tokens);
  const hatched = fromBlockEscapeHatch(value);
  if (hatched) return [rekey(hatched as unknown as DocumentBlock, ctx.newKey)];
  if (isHtmlComment(value)) return [];
  if (/^<pre[\s>]/i.test(value.trim())) {
    const pre = ctx
      .parseHtml(value.trim())
      .children.find((node): node is Element => node.type === 'element' && node.tagName === 'pre');
    if (pre) return [codeFromHast(pre, ctx)];
  }
  if (/^<table[\s>]/i.test(value.trim())) {
    const table = ctx
      .parseHtml(value.trim())
      .children.find(
        (node): node is Element => node.type === 'element' && node.tagName === 'table',
      );
    const block = table && tableFromHast(table, ctx);
    if (block) return [block];
  }
  const figures = parseFigures(value);
  if (figures) {
    const images = figures.figures.map((figure) => {
      const captions = figure.captions?.flatMap((caption) => ctx.blocksOf(caption));
      return imageBlock(
        figure.data,
        ctx,
        captions && captions.length === 0 ? [emptyParagraph(ctx)] : captions,
      );
    });
    return [{ ...block(ctx, 'images', images, figures.data), isVoid: false }];
  }
  if (/^<p><\/p>$/i.test(value.trim())) return [block(ctx, 'paragraph', inlinesFromMdast([], ctx))];
  // A paragraph of line breaks alone (`<br>` on its line) is an HTML block to markdown.
  const breaks = /^(?:<br\s*\/?>)+$/i.exec(value.trim());
  if (breaks) {
    const text = '\n'.repeat((breaks[0].match(/<br/gi) ?? []).length);
    return [block(ctx, 'paragraph', [textNode([leaf(text, [])], ctx)])];
  }
  // GitBook's drawing: its picture file, `<img src="….drawing.svg" class="gitbook-drawing">`.
  const drawing = /^<img\s[^>]*>$/i.test(value.trim()) ? htmlAttributes(value.trim().slice(4)) : {};
  if (/(?:^|\s)gitbook-drawing(?:\s|$)/.test(drawing.class ?? '')) {
    const ref = { kind: 'url', url: drawing.src ?? '' };
    return [{ object: 'block', key: ctx.newKey(), type: 'drawing', data: { ref }, isVoid: true }];
  }
  // `<img>` tags alone on their line are an HTML block to markdown, inline images to GitBook.
  const tags = value.trim().match(/<img\s[^>]*>/gi) ?? [];
  if (tags.length > 0 && tags.join('') === value.trim()) {
    const images = tags.map((tag): DocumentInline => ({
      object: 'inline',
      key: ctx.newKey(),
      type: 'inline-image',
      data: parseInlineImg(tag)!,
      isVoid: true,
    }));
    return [block(ctx, 'paragraph', images)];
  }
  return [textParagraph(value, ctx)];
}

export function blocksOrEmptyParagraph(
  nodes: RootContent[],
  ctx: FromMdastContext,
  trailing = 0,
): DocumentBlock[] {
  const blocks = blocksFromMdast(nodes, ctx, trailing);
  return blocks.length > 0 ? blocks : [block(ctx, 'paragraph', inlinesFromMdast([], ctx))];
}

function textParagraph(text: string, ctx: FromMdastContext): DocumentBlock {
  return block(ctx, 'paragraph', [textNode([leaf(text, [])], ctx)]);
}

function paragraphFromMdast(node: Paragraph, ctx: FromMdastContext): DocumentBlock {
  // A `<picture>` alone is no HTML block to markdown (`picture` is not a block element).
  const { start, end } = node.position ?? {};
  if (start?.offset !== undefined && end?.offset !== undefined) {
    const raw = restoreRaw(ctx.source.slice(start.offset, end.offset), ctx.tokens);
    if (/^<picture>[\s\S]*<\/picture>$/i.test(raw.trim())) {
      const [picture] = htmlBlock({ type: 'html', value: raw }, ctx);
      if (picture?.type === 'images') return picture;
    }
  }
  const images = imagesOnly(node.children, ctx);
  if (images) {
    const children = images.map((image) => imageBlock(imageData(image), ctx));
    return { ...block(ctx, 'images', children), isVoid: false };
  }
  return block(ctx, 'paragraph', inlinesFromMdast(withFinalBreak(node, ctx), ctx));
}

/**
 * A paragraph's inline content, its final hard break restored: GitBook writes a break that
 * ends a paragraph as it writes any (`\` and a line end), which CommonMark reads as a backslash.
 */
function withFinalBreak(node: Paragraph, ctx: FromMdastContext): PhrasingContent[] {
  const last = node.children[node.children.length - 1];
  const end = node.position?.end.offset;
  if (last?.type !== 'text' || !last.value.endsWith('\\') || end === undefined) {
    return node.children;
  }
  const backslashes = /\\*$/.exec(ctx.source.slice(0, end))![0].length;
  if (backslashes % 2 === 0) return node.children;
  return [
    ...node.children.slice(0, -1),
    { ...last, value: last.value.slice(0, -1) },
    { type: 'break' },
  ];
}

/** The images of a paragraph made only of images (and whitespace), or undefined. */
function imagesOnly(nodes: PhrasingContent[], ctx: FromMdastContext): Image[] | undefined {
  const images: Image[] = [];
  for (const node of nodes) {
    const image = asImage(node, ctx);
    if (image) images.push(image);
    else if (node.type !== 'text' || node.value.trim() !== '') return undefined;
  }
  return images.length > 0 ? images : undefined;
}

function imageBlock(
  data: Record<string, unknown>,
  ctx: FromMdastContext,
  caption?: DocumentBlock[],
): DocumentBlock {
  const fragments: DocumentFragment[] =
    caption !== undefined
      ? [
          {
            object: 'fragment',
            key: ctx.newKey(),
            fragment: 'caption',
            type: 'caption',
            nodes: caption,
          },
        ]
      : [];
  return { object: 'block', key: ctx.newKey(), type: 'image', data, isVoid: true, fragments };
}

/** GitBook's heading anchor, ` <a href="#id" id="id"></a>` at the end of the heading. */
const HEADING_ANCHOR = /^<a href="#([^"]*)" id="\1">(<\/a>)?$/;

function headingFromMdast(node: Heading, ctx: FromMdastContext): DocumentBlock {
  const level = Math.min(node.depth, 3);
  const data: Record<string, unknown> = node.depth > 3 ? { level: node.depth } : {};
  let children = node.children;
  const last = children.length - 1;
  const closed = children[last]?.type === 'html' && (children[last] as Html).value === '</a>';
  const anchor = children[closed ? last - 1 : last];
  const match = anchor?.type === 'html' ? HEADING_ANCHOR.exec(anchor.value) : null;
  const at = closed ? last - 1 : last;
  const before = children[at - 1];
  if (
    match &&
    Boolean(match[2]) !== closed &&
    before?.type === 'text' &&
    before.value.endsWith(' ')
  ) {
    data.id = match[1];
    children = [...children.slice(0, at - 1), { ...before, value: before.value.slice(0, -1) }];
  }
  return block(ctx, `heading-${level}`, inlinesFromMdast(children, ctx), data);
}

function listFromMdast(node: List, ctx: FromMdastContext): DocumentBlock {
  const tasks = node.children.some((item) => typeof item.checked === 'boolean');
  // A list mixing task items and plain items stays one task list; plain items have no `checked`.
  // GitBook's lists are tight: blank lines between two items are the empty paragraphs that end
  // the first (two lines each).
  const items = node.children.map((item, i) =>
    block(
      ctx,
      'list-item',
      listItemBlocks(
        item,
        ctx,
        i + 1 < node.children.length ? linesBetween(item, node.children[i + 1]) : 0,
      ),
      typeof item.checked === 'boolean' ? { checked: item.checked } : {},
    ),
  );
  if (tasks) return block(ctx, 'list-tasks', items);
  if (node.ordered) return block(ctx, 'list-ordered', items, { start: node.start ?? 1 });
  return block(ctx, 'list-unordered', items);
}

/** A line that may be a block tag once the list item's indentation is gone. */
const TAG_LINE = /^\s*(?:\{%|\$\$|<\/?details)/m;

/**
 * A list item's blocks. Block tags are cut before parsing, at the start of a line only, so a
 * tag inside a list item (indented) reaches remark as text: an item with such lines is read
 * again, its content without the indentation, tags and all.
 */
function listItemBlocks(item: ListItem, ctx: FromMdastContext, trailing: number): DocumentBlock[] {
  const first = item.children[0]?.position?.start;
  const start = item.position?.start;
  const end = item.position?.end.offset;
  if (first?.offset === undefined || start?.offset === undefined || end === undefined) {
    return blocksOrEmptyParagraph(item.children, ctx, trailing);
  }
  const source = restoreRaw(ctx.source.slice(first.offset, end), ctx.tokens);
  if (!TAG_LINE.test(source)) return blocksOrEmptyParagraph(item.children, ctx, trailing);
  // The item's content column: after its marker and the spaces that follow it.
  const marker = /^(?:[-*+]|\d{1,9}[.)])(?: {1,4}(?! )| )?/.exec(ctx.source.slice(start.offset));
  const indent = start.column - 1 + (marker?.[0].length ?? 2);
  const content = source
    .split('\n')
    .map((line, i) => (i === 0 ? line : line.replace(new RegExp(`^ {0,${indent}}`), '')))
    .join('\n');
  return ctx.documentBlocksOf(content);
}

export function codeBlock(
  value: string,
  syntax: string | undefined,
  ctx: { newKey: () => string },
): DocumentBlock {
  const key = ctx.newKey;
  const lines = value.split('\n').map((line): DocumentBlock => ({
    object: 'block',
    key: key(),
    type: 'code-line',
    data: {},
    nodes: [{ object: 'text', key: key(), leaves: [leaf(line, [])] } as DocumentText],
  }));
  return {
    object: 'block',
    key: key(),
    type: 'code',
    data: syntax ? { syntax } : {},
    nodes: lines,
  };
}

export type { FromMdastContext, InlinePiece };
