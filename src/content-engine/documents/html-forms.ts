import type { Element, ElementContent, Properties, Root as HastRoot } from 'hast';
import {
  ContentRef,
  DocumentBlock,
  DocumentInline,
  DocumentLeaf,
  DocumentMark,
  DocumentNode,
  DocumentText,
  MARK_ORDER,
  MarkType,
} from './document';
import { formatLength, parseLength } from './figures';
import { rekey } from './from-mdast-context';
import { inlineEscapeHatchJson, markOfOpeningTag } from './inline-syntax';
import { groupPieces, InlinePiece, leaf, markKey, sortMarks } from './inlines-from-mdast';
import { nestMarks } from './mark-nesting';

/*
 * GitBook's HTML forms hold document content as HTML, not markdown: table cells, figure captions,
 * `<summary>`. GitBook writes them with hast-util-to-html (hexadecimal references, `&#x26;` and
 * `&#x3C;` in text, `&#x26;` and `&#x22;` in attributes, flags as bare attributes), so Bindery
 * builds the same trees (hast) and writes them with the same library, and reads them with
 * hast-util-from-html (parse5). This file maps content both ways: marks are elements
 * (`<strong>`, `<em>`, `<code>`, `<s>`, `<kbd>`, `<sup>`, `<sub>`, `<mark style>`), a hard break
 * `<br>`, links `<a href>`, inline images `<img>`; blocks `<p>`, `<ul>`/`<ol>`/`<li>`,
 * `<pre><code>`. A single paragraph is its content alone, as GitBook writes a one-line cell.
 */

export interface HtmlReadContext {
  newKey: () => string;
}

export interface HtmlWriteContext {
  refToUrl: (ref: ContentRef) => string | undefined;
}

const MARK_OF_ELEMENT: Record<string, MarkType> = {
  strong: 'bold',
  b: 'bold',
  em: 'italic',
  i: 'italic',
  s: 'strikethrough',
  del: 'strikethrough',
  strike: 'strikethrough',
  code: 'code',
  kbd: 'keyboard',
  sup: 'superscript',
  sub: 'subscript',
  mark: 'color',
};

const ELEMENT_OF_MARK: Partial<Record<MarkType, string>> = {
  bold: 'strong',
  italic: 'em',
  strikethrough: 's',
  code: 'code',
  keyboard: 'kbd',
  superscript: 'sup',
  subscript: 'sub',
  color: 'mark',
};

export function element(
  tagName: string,
  properties: Properties = {},
  children: ElementContent[] = [],
): Element {
  return { type: 'element', tagName, properties, children };
}

function text(value: string): ElementContent {
  return { type: 'text', value };
}

function className(node: Element): string[] {
  const value = node.properties.className;
  return Array.isArray(value) ? value.map(String) : typeof value === 'string' ? [value] : [];
}

function stringProperty(node: Element, name: string): string | undefined {
  const value = node.properties[name];
  if (value === undefined || value === null || value === false) return undefined;
  return Array.isArray(value) ? value.join(' ') : String(value);
}

/** The source of an attribute-less opening tag, for marks read by the markdown reader too. */
function openingTag(node: Element): string {
  const style = stringProperty(node, 'style');
  return style === undefined ? `<${node.tagName}>` : `<${node.tagName} style="${style}">`;
}

// ---------------------------------------------------------------------------------------------
// Reading

/** The text of a hast subtree, `<br>` as a line end. */
export function hastText(nodes: readonly ElementContent[]): string {
  return nodes
    .map((node) => {
      if (node.type === 'text') return node.value;
      if (node.type === 'element') return node.tagName === 'br' ? '\n' : hastText(node.children);
      return '';
    })
    .join('');
}

function inline(
  ctx: HtmlReadContext,
  type: string,
  data: Record<string, unknown>,
  nodes?: DocumentInline['nodes'],
): DocumentInline {
  const base: DocumentInline = { object: 'inline', key: ctx.newKey(), type, data };
  return nodes ? { ...base, nodes } : { ...base, isVoid: true };
}

/** An `<img>`'s image data. */
export function imageDataOf(node: Element, inlineImage: boolean): Record<string, unknown> {
  const data: Record<string, unknown> = {
    ref: { kind: 'url', url: stringProperty(node, 'src') ?? '' },
  };
  const dark = stringProperty(node, 'dataSrcDark');
  if (dark !== undefined) data.refDark = { kind: 'url', url: dark };
  const width = stringProperty(node, 'width');
  if (width !== undefined) data.width = parseLength(width);
  const height = stringProperty(node, 'height');
  if (height !== undefined) data.height = parseLength(height);
  const alt = stringProperty(node, 'alt');
  if (alt) data.alt = alt;
  const title = stringProperty(node, 'title');
  if (title !== undefined) data.title = title;
  if (inlineImage) {
    const caption = stringProperty(node, 'dataCaption');
    if (caption !== undefined) data.caption = caption;
    const size = stringProperty(node, 'dataSize');
    if (size !== undefined) data.size = size;
  }
  return data;
}

function piecesOf(
  nodes: readonly ElementContent[],
  marks: DocumentMark[],
  ctx: HtmlReadContext,
): InlinePiece[] {
  return nodes.flatMap((node) => pieceOf(node, marks, ctx));
}

function pieceOf(node: ElementContent, marks: DocumentMark[], ctx: HtmlReadContext): InlinePiece[] {
  if (node.type === 'text') return [leaf(node.value, marks)];
  if (node.type !== 'element') return [];
  const name = node.tagName;
  if (name === 'br') return [leaf('\n', marks)];
  if (name === 'img') return [inline(ctx, 'inline-image', imageDataOf(node, true))];
  const classes = className(node);
  const icon = classes.length === 1 ? /^fa-([a-z0-9-]+)$/.exec(classes[0]) : null;
  if (name === 'i' && icon && ['', `:${icon[1]}:`].includes(hastText(node.children))) {
    return [inline(ctx, 'icon', { icon: icon[1] })];
  }
  if (name === 'code' && classes.join(' ') === 'expression') {
    return [inline(ctx, 'expression', { expression: hastText(node.children) })];
  }
  const hatch = name === 'span' ? stringProperty(node, 'dataBinderyInline') : undefined;
  if (hatch !== undefined) {
    try {
      const hatched: unknown = JSON.parse(hatch);
      if (hatched && typeof hatched === 'object' && !Array.isArray(hatched)) {
        return [rekey(hatched as DocumentInline, ctx.newKey)];
      }
    } catch {
      // Not Bindery's: the span's content, as any span's.
    }
  }
  if (name === 'a') {
    const href = stringProperty(node, 'href') ?? '';
    const ref: ContentRef = { kind: 'url', url: href };
    const button = /^button (primary|secondary)$/.exec(classes.join(' '));
    if (button) {
      const data: Record<string, unknown> = {
        label: hastText(node.children),
        kind: button[1],
        ref,
      };
      const icon = stringProperty(node, 'dataIcon');
      if (icon !== undefined) data.icon = icon;
      const size = stringProperty(node, 'dataSize');
      if (size !== undefined) data.size = size;
      return [inline(ctx, 'button', data)];
    }
    if (node.children.length === 0) return [inline(ctx, 'mention', { ref })];
    const title = stringProperty(node, 'title');
    const nodes = groupPieces(piecesOf(node.children, marks, ctx), ctx);
    return [inline(ctx, 'link', title !== undefined ? { ref, title } : { ref }, nodes)];
  }
  const markType = MARK_OF_ELEMENT[name];
  if (markType) {
    const mark =
      markType === 'color'
        ? (markOfOpeningTag(openingTag(node)) ?? { object: 'mark', type: 'color' })
        : ({ object: 'mark', type: markType } as DocumentMark);
    return piecesOf(node.children, [...marks, mark], ctx);
  }
  return piecesOf(node.children, marks, ctx);
}

/** Inline HTML content as document text and inlines (never empty). */
export function inlinesFromHast(
  nodes: readonly ElementContent[],
  ctx: HtmlReadContext,
): (DocumentText | DocumentInline)[] {
  return groupPieces(piecesOf(nodes, [], ctx), ctx);
}

const BLOCK_ELEMENTS = new Set(['p', 'ul', 'ol', 'pre', 'blockquote', 'h1', 'h2', 'h3', 'hr']);

function block(
  ctx: HtmlReadContext,
  type: string,
  nodes: DocumentBlock['nodes'],
  data: Record<string, unknown> = {},
): DocumentBlock {
  return { object: 'block', key: ctx.newKey(), type, data, nodes };
}

function paragraph(nodes: readonly ElementContent[], ctx: HtmlReadContext): DocumentBlock {
  return block(ctx, 'paragraph', inlinesFromHast(nodes, ctx));
}

/**
 * HTML content as blocks: block elements as blocks, runs of inline content between them as
 * paragraphs; [] for none.
 */
export function blocksFromHast(
  nodes: readonly ElementContent[],
  ctx: HtmlReadContext,
): DocumentBlock[] {
  const blocks: DocumentBlock[] = [];
  let run: ElementContent[] = [];
  const flush = () => {
    if (run.length > 0) blocks.push(paragraph(run, ctx));
    run = [];
  };
  for (const node of nodes) {
    if (node.type !== 'element' || !BLOCK_ELEMENTS.has(node.tagName)) {
      if (node.type === 'text' || node.type === 'element') run.push(node);
      continue;
    }
    flush();
    blocks.push(blockOf(node, ctx));
  }
  flush();
  return blocks;
}

function blockOf(node: Element, ctx: HtmlReadContext): DocumentBlock {
  switch (node.tagName) {
    case 'ul':
    case 'ol': {
      const items = node.children
        .filter((child): child is Element => child.type === 'element' && child.tagName === 'li')
        .map((item) => {
          const content = blocksFromHast(item.children, ctx);
          return block(ctx, 'list-item', content.length > 0 ? content : [paragraph([], ctx)]);
        });
      if (node.tagName === 'ul') return block(ctx, 'list-unordered', items);
      const start = Number(stringProperty(node, 'start') ?? 1);
      return block(ctx, 'list-ordered', items, { start: Number.isFinite(start) ? start : 1 });
    }
    case 'pre':
      return codeFromHast(node, ctx);
    case 'blockquote': {
      const content = blocksFromHast(node.children, ctx);
      return block(ctx, 'blockquote', content.length > 0 ? content : [paragraph([], ctx)]);
    }
    case 'hr':
      return { object: 'block', key: ctx.newKey(), type: 'divider', data: {}, isVoid: true };
    case 'h1':
    case 'h2':
    case 'h3':
      return block(ctx, `heading-${node.tagName[1]}`, inlinesFromHast(node.children, ctx));
    default:
      return paragraph(node.children, ctx);
  }
}

/**
 * GitBook's `<pre>` code block: `<pre class="language-x" data-title="…" data-overflow="wrap"
 * data-line-numbers><code class="lang-x">`, each line followed by a line end, formatting as
 * elements (a bold line is `<strong>line\n</strong>`). GitBook writes it for code whose lines
 * hold formatting, and for code with options in a list item, where no `{% code %}` goes.
 */
export function codeFromHast(pre: Element, ctx: HtmlReadContext): DocumentBlock {
  const code = pre.children.find(
    (child): child is Element => child.type === 'element' && child.tagName === 'code',
  );
  const pieces = piecesOf(code?.children ?? pre.children, [], ctx);
  // Lines end at line ends, whatever element they are in; the last line end ends the code.
  const lines: InlinePiece[][] = [[]];
  for (const piece of pieces) {
    if (piece.object !== 'leaf') {
      lines[lines.length - 1].push(piece);
      continue;
    }
    piece.text.split('\n').forEach((part, i) => {
      if (i > 0) lines.push([]);
      if (part !== '') lines[lines.length - 1].push({ ...piece, text: part });
    });
  }
  if (lines.length > 1 && lines[lines.length - 1].length === 0) lines.pop();
  const data: Record<string, unknown> = {};
  const syntax = /^lang(?:uage)?-(.+)$/.exec(className(code ?? pre)[0] ?? '')?.[1];
  if (syntax) data.syntax = syntax;
  const title = stringProperty(pre, 'dataTitle');
  if (title !== undefined) data.title = title;
  const overflow = stringProperty(pre, 'dataOverflow');
  if (overflow === 'wrap' || overflow === 'scroll') data.overflow = overflow;
  for (const [property, option] of CODE_FLAGS) {
    const value = pre.properties[property];
    if (value === true || value === '' || value === 'true') data[option] = true;
    else if (value === 'false') data[option] = false;
  }
  const count = Number(stringProperty(pre, 'dataCollapsedLineCount'));
  if (Number.isInteger(count) && count >= 1) data.collapsedLineCount = count;
  const codeLines = lines.map((line) => block(ctx, 'code-line', groupPieces(line, ctx)));
  return block(ctx, 'code', codeLines, data);
}

const CODE_FLAGS: [string, string][] = [
  ['dataLineNumbers', 'lineNumbers'],
  ['dataFullWidth', 'fullWidth'],
  ['dataExpandable', 'expandable'],
];

// ---------------------------------------------------------------------------------------------
// Writing

function marksOf(leaf: DocumentLeaf): DocumentMark[] {
  return sortMarks(leaf.marks.filter((mark) => MARK_ORDER.includes(mark.type as MarkType)));
}

/** A color mark's `style` (`color:red;background-color:blue;`), `default` colors left out. */
function colorStyle(mark: DocumentMark): string | undefined {
  const style = [
    ['color', mark.data?.text],
    ['background-color', mark.data?.background],
  ]
    .filter(([, value]) => typeof value === 'string' && value !== 'default')
    .map(([property, value]) => `${property}:${String(value)};`)
    .join('');
  return style || undefined;
}

function textWithBreaks(value: string): ElementContent[] {
  return value.split('\n').flatMap((line, i): ElementContent[] => {
    const parts: ElementContent[] = i > 0 ? [element('br')] : [];
    return line === '' ? parts : [...parts, text(line)];
  });
}

/**
 * Leaves as elements, their marks nested as in markdown (mark-nesting.ts). Line ends are
 * `<br>`, but in code (`raw`).
 */
function leavesToHast(leaves: DocumentLeaf[], raw = false): ElementContent[] {
  return nestMarks<ElementContent>(
    leaves.map((leaf) => ({ ...leaf, marks: marksOf(leaf) })),
    (mark) => Boolean(ELEMENT_OF_MARK[mark.type as MarkType]),
    (leaf) => (leaf.text === '' ? [] : raw ? [text(leaf.text)] : textWithBreaks(leaf.text)),
    (mark, children) => {
      if (children.length === 0) return [];
      const style = mark.type === 'color' ? colorStyle(mark) : undefined;
      return [element(ELEMENT_OF_MARK[mark.type as MarkType]!, style ? { style } : {}, children)];
    },
  );
}

function mergeLeaves(leaves: DocumentLeaf[]): DocumentLeaf[] {
  const merged: DocumentLeaf[] = [];
  const key = (leaf: DocumentLeaf) => marksOf(leaf).map(markKey).join();
  for (const leaf of leaves) {
    const last = merged[merged.length - 1];
    if (last && key(last) === key(leaf)) {
      merged[merged.length - 1] = { ...last, text: last.text + leaf.text };
    } else if (leaf.text !== '') merged.push(leaf);
  }
  return merged;
}

function refUrl(ref: unknown, ctx: HtmlWriteContext): string | undefined {
  if (!ref || typeof ref !== 'object') return undefined;
  return ctx.refToUrl(ref as ContentRef);
}

/** An image's data as `<img>` properties, in GitBook's order. */
export function imgProperties(
  data: Record<string, unknown>,
  ctx: HtmlWriteContext,
  inlineImage: boolean,
): Properties {
  const textOf = (key: string) =>
    typeof data[key] === 'string' ? (data[key] as string) : undefined;
  const properties: Properties = {
    src: refUrl(data.ref, ctx) ?? '',
    alt: textOf('alt') ?? '',
  };
  const add = (name: string, value: string | undefined) => {
    if (value !== undefined) properties[name] = value;
  };
  add('title', textOf('title'));
  add('width', formatLength(data.width));
  add('height', formatLength(data.height));
  add('dataSrcDark', data.refDark ? refUrl(data.refDark, ctx) : undefined);
  if (inlineImage) {
    add('dataCaption', textOf('caption'));
    add('dataSize', textOf('size'));
  }
  return properties;
}

function inlineToHast(node: DocumentInline, ctx: HtmlWriteContext): ElementContent[] | undefined {
  const data = node.data ?? {};
  const stringData = (key: string) =>
    typeof data[key] === 'string' ? (data[key] as string) : undefined;
  switch (node.type) {
    case 'link': {
      const href = refUrl(data.ref, ctx);
      const children = inlinesToHast(node.nodes ?? [], ctx);
      const extra = Object.keys(data).some((key) => key !== 'ref' && key !== 'title');
      if (href === undefined || !children || children.length === 0 || extra) return undefined;
      const title = stringData('title');
      return [element('a', title !== undefined ? { href, title } : { href }, children)];
    }
    case 'mention': {
      const href = refUrl(data.ref, ctx);
      return href === undefined ? undefined : [element('a', { href })];
    }
    case 'inline-image':
      return [element('img', imgProperties(data, ctx, true))];
    case 'icon': {
      const icon = stringData('icon');
      if (!icon || Object.keys(data).length !== 1 || !/^[a-z0-9-]+$/.test(icon)) return undefined;
      return [element('i', { className: [`fa-${icon}`] }, [text(`:${icon}:`)])];
    }
    case 'expression': {
      const expression = stringData('expression');
      return expression === undefined
        ? undefined
        : [element('code', { className: ['expression'] }, [text(expression)])];
    }
    case 'button': {
      const href = refUrl(data.ref, ctx);
      const label = stringData('label');
      const kind = stringData('kind');
      if (
        href === undefined ||
        label === undefined ||
        (kind !== 'primary' && kind !== 'secondary')
      ) {
        return undefined;
      }
      const properties: Properties = { href, className: ['button', kind] };
      if (stringData('icon') !== undefined) properties.dataIcon = stringData('icon');
      if (stringData('size') !== undefined) properties.dataSize = stringData('size');
      return [element('a', properties, [text(label)])];
    }
    default:
      return undefined;
  }
}

/** Text and inlines as HTML content; undefined when one has no HTML form. */
export function inlinesToHast(
  nodes: readonly DocumentNode[],
  ctx: HtmlWriteContext,
): ElementContent[] | undefined {
  const out: ElementContent[] = [];
  let leaves: DocumentLeaf[] = [];
  const flush = () => {
    out.push(...leavesToHast(mergeLeaves(leaves)));
    leaves = [];
  };
  for (const node of nodes) {
    if (node.object === 'text') leaves.push(...node.leaves);
    else if (node.object === 'inline') {
      flush();
      // An inline HTML has no form for keeps its JSON, as in markdown (inline-syntax.ts).
      out.push(
        ...(inlineToHast(node, ctx) ?? [
          element('span', { dataBinderyInline: inlineEscapeHatchJson(node) }),
        ]),
      );
    } else return undefined;
  }
  flush();
  return out;
}

const CODE_OPTIONS = new Set([
  'syntax',
  'title',
  'overflow',
  'lineNumbers',
  'fullWidth',
  'expandable',
  'collapsedLineCount',
]);

/** A code block as GitBook's `<pre>` (codeFromHast); undefined when it has no such form. */
export function codeToHast(code: DocumentBlock, ctx: HtmlWriteContext): Element | undefined {
  const data = code.data ?? {};
  if (!Object.keys(data).every((key) => CODE_OPTIONS.has(key))) return undefined;
  const lines = (code.nodes ?? []).filter((line): line is DocumentBlock => line.object === 'block');
  const content: ElementContent[] = [];
  for (const line of lines) {
    if (line.type !== 'code-line') return undefined;
    // Runs of leaves, and inlines (links) between them; the line end goes with the last
    // leaf, in its formatting.
    const parts: (DocumentLeaf[] | DocumentInline)[] = [];
    for (const node of line.nodes ?? []) {
      if (node.object === 'text') {
        const last = parts[parts.length - 1];
        if (Array.isArray(last)) last.push(...node.leaves);
        else parts.push([...node.leaves]);
      } else if (node.object === 'inline') parts.push(node);
      else return undefined;
    }
    const last = parts[parts.length - 1];
    if (Array.isArray(last) && last.length > 0) {
      const end = last[last.length - 1];
      last[last.length - 1] = { ...end, text: `${end.text}\n` };
    } else parts.push([leaf('\n', [])]);
    for (const part of parts) {
      if (Array.isArray(part)) content.push(...leavesToHast(mergeLeaves(part), true));
      else {
        const inline = inlinesToHast([part], ctx);
        if (!inline) return undefined;
        content.push(...inline);
      }
    }
  }
  const syntax = typeof data.syntax === 'string' ? data.syntax : undefined;
  const properties: Properties = syntax ? { className: [`language-${syntax}`] } : {};
  if (typeof data.title === 'string') properties.dataTitle = data.title;
  if (typeof data.overflow === 'string') properties.dataOverflow = data.overflow;
  for (const [property, option] of CODE_FLAGS) {
    if (data[option] === true) properties[property] = true;
    else if (data[option] === false) properties[property] = 'false';
  }
  if (typeof data.collapsedLineCount === 'number') {
    properties.dataCollapsedLineCount = data.collapsedLineCount;
  }
  return element('pre', properties, [
    element('code', syntax ? { className: [`lang-${syntax}`] } : {}, content),
  ]);
}

function blockToHast(node: DocumentBlock, ctx: HtmlWriteContext): ElementContent | undefined {
  if (node.type === 'code') return codeToHast(node, ctx);
  const children = (node.nodes ?? []).filter(
    (child): child is DocumentBlock => child.object === 'block',
  );
  if (Object.keys(node.data ?? {}).some((key) => key !== 'start')) return undefined;
  switch (node.type) {
    case 'paragraph': {
      const content = inlinesToHast(node.nodes ?? [], ctx);
      return content && element('p', {}, content);
    }
    case 'list-unordered':
    case 'list-ordered': {
      const items = children.map((item) => {
        const content = blocksToHast(item.nodes as DocumentBlock[], ctx);
        return content && element('li', {}, content);
      });
      if (items.some((item) => item === undefined)) return undefined;
      const start = Number(node.data?.start ?? 1);
      return element(
        node.type === 'list-ordered' ? 'ol' : 'ul',
        node.type === 'list-ordered' && start !== 1 ? { start } : {},
        items as Element[],
      );
    }
    default:
      return undefined;
  }
}

/**
 * Blocks as HTML content: one paragraph is its content alone, several blocks each their
 * element; undefined when one has no HTML form.
 */
export function blocksToHast(
  blocks: readonly DocumentBlock[],
  ctx: HtmlWriteContext,
): ElementContent[] | undefined {
  if (blocks.length === 1 && blocks[0].type === 'paragraph') {
    if (Object.keys(blocks[0].data ?? {}).length > 0) return undefined;
    return inlinesToHast(blocks[0].nodes ?? [], ctx);
  }
  const out: ElementContent[] = [];
  for (const node of blocks) {
    const written = blockToHast(node, ctx);
    if (!written) return undefined;
    out.push(written);
  }
  return out;
}

export type { HastRoot };
