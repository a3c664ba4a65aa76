import type {
  Definition,
  Heading,
  Image,
  List,
  Nodes,
  Paragraph,
  PhrasingContent,
  Root,
  RootContent,
  Table,
  TableCell,
} from 'mdast';
import {
  DocumentBlock,
  DocumentInline,
  DocumentLeaf,
  DocumentMark,
  DocumentText,
  MARK_ORDER,
  MarkType,
  TableGridView,
  TableRecord,
  TableTextColumn,
} from './document';
import { orderIndex } from './order-index';

/**
 * mdast (CommonMark + GFM) to document blocks. Choices where markdown and documents differ:
 * - A soft line break is a space (as rendered); a hard break is a "\n" in the text.
 * - Link and image targets become `{kind: 'url', url}` refs, relative paths included: turning
 *   `../page.md` into a page ref needs the space's page tree, which a caller may apply later.
 * - Reference-style links and images are resolved against their definitions.
 * - A paragraph holding only images is an `images` block; an image among text is an
 *   `inline-image`.
 * - Headings deeper than 3 become heading-3; list looseness and image titles are dropped;
 *   table cells keep their plain text; HTML comments are dropped, other HTML is kept as text.
 */
export interface FromMdastContext {
  newKey: () => string;
  definitions: Map<string, Definition>;
}

export function definitionsOf(root: Root): Map<string, Definition> {
  const definitions = new Map<string, Definition>();
  const visit = (node: Nodes) => {
    if (node.type === 'definition' && !definitions.has(node.identifier)) {
      definitions.set(node.identifier, node);
    }
    if ('children' in node) node.children.forEach(visit);
  };
  visit(root);
  return definitions;
}

export function blocksFromMdast(nodes: RootContent[], ctx: FromMdastContext): DocumentBlock[] {
  return nodes.flatMap((node) => blockFromMdast(node, ctx));
}

function block(
  ctx: FromMdastContext,
  type: string,
  nodes: DocumentBlock['nodes'],
  data: Record<string, unknown> = {},
): DocumentBlock {
  return { object: 'block', key: ctx.newKey(), type, data, nodes };
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
      return [codeBlock(node.value, node.lang ?? undefined, ctx)];
    case 'blockquote':
      return [block(ctx, 'blockquote', blocksOrEmptyParagraph(node.children, ctx))];
    case 'thematicBreak':
      return [{ object: 'block', key: ctx.newKey(), type: 'divider', data: {}, isVoid: true }];
    case 'table':
      return [tableFromMdast(node, ctx)];
    case 'html':
      return isHtmlComment(node.value) ? [] : [textParagraph(node.value, ctx)];
    case 'definition':
    case 'footnoteDefinition':
    case 'yaml':
      return [];
    default:
      if ('children' in node) return blocksFromMdast(node.children as RootContent[], ctx);
      return 'value' in node ? [textParagraph(String(node.value), ctx)] : [];
  }
}

function isHtmlComment(html: string): boolean {
  return /^<!--[\s\S]*-->$/.test(html.trim());
}

export function blocksOrEmptyParagraph(
  nodes: RootContent[],
  ctx: FromMdastContext,
): DocumentBlock[] {
  const blocks = blocksFromMdast(nodes, ctx);
  return blocks.length > 0 ? blocks : [block(ctx, 'paragraph', inlinesFromMdast([], ctx))];
}

function textParagraph(text: string, ctx: FromMdastContext): DocumentBlock {
  return block(ctx, 'paragraph', [textNode([leaf(text, [])], ctx)]);
}

function paragraphFromMdast(node: Paragraph, ctx: FromMdastContext): DocumentBlock {
  const images = imagesOnly(node.children, ctx);
  if (images) {
    const children = images.map((image) => imageBlock(image, ctx));
    return { ...block(ctx, 'images', children), isVoid: false };
  }
  return block(ctx, 'paragraph', inlinesFromMdast(node.children, ctx));
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

function asImage(node: PhrasingContent, ctx: FromMdastContext): Image | undefined {
  if (node.type === 'image') return node;
  if (node.type !== 'imageReference') return undefined;
  const definition = ctx.definitions.get(node.identifier);
  if (!definition) return undefined;
  return { type: 'image', url: definition.url, alt: node.alt, title: definition.title };
}

function imageData(image: Image): Record<string, unknown> {
  return { ref: { kind: 'url', url: image.url }, ...(image.alt ? { alt: image.alt } : {}) };
}

function imageBlock(image: Image, ctx: FromMdastContext): DocumentBlock {
  return {
    object: 'block',
    key: ctx.newKey(),
    type: 'image',
    data: imageData(image),
    isVoid: true,
    fragments: [],
  };
}

function headingFromMdast(node: Heading, ctx: FromMdastContext): DocumentBlock {
  const level = Math.min(node.depth, 3);
  return block(ctx, `heading-${level}`, inlinesFromMdast(node.children, ctx));
}

function listFromMdast(node: List, ctx: FromMdastContext): DocumentBlock {
  const tasks = node.children.some((item) => typeof item.checked === 'boolean');
  const items = node.children.map((item) =>
    block(
      ctx,
      'list-item',
      blocksOrEmptyParagraph(item.children, ctx),
      tasks ? { checked: item.checked === true } : {},
    ),
  );
  if (tasks) return block(ctx, 'list-tasks', items);
  if (node.ordered) return block(ctx, 'list-ordered', items, { start: node.start ?? 1 });
  return block(ctx, 'list-unordered', items);
}

export function codeBlock(
  value: string,
  syntax: string | undefined,
  ctx: FromMdastContext,
): DocumentBlock {
  const lines = value
    .split('\n')
    .map((line) => block(ctx, 'code-line', [textNode([leaf(line, [])], ctx)]));
  return block(ctx, 'code', lines, syntax ? { syntax } : {});
}

function tableFromMdast(node: Table, ctx: FromMdastContext): DocumentBlock {
  const [header, ...rows] = node.children;
  const headerCells = header?.children ?? [];
  const columns: TableTextColumn[] = headerCells.map((cell, i) => ({
    id: ctx.newKey(),
    title: cellText(cell),
    type: 'text',
    textAlignment: node.align?.[i] ?? 'left',
  }));
  const records: Record<string, TableRecord> = {};
  rows.forEach((row, i) => {
    const values: Record<string, string> = {};
    columns.forEach((column, c) => {
      values[column.id] = row.children[c] ? cellText(row.children[c]) : '';
    });
    records[ctx.newKey()] = { orderIndex: orderIndex(i), values };
  });
  const view: TableGridView = {
    type: 'grid',
    columns: columns.map((c) => c.id),
    hideHeader: false,
  };
  const definition = Object.fromEntries(columns.map((column) => [column.id, column]));
  return {
    object: 'block',
    key: ctx.newKey(),
    type: 'table',
    data: { view, records, definition },
    isVoid: true,
    fragments: [],
  };
}

function cellText(cell: TableCell): string {
  return plainText(cell.children).trim();
}

function plainText(nodes: PhrasingContent[]): string {
  return nodes
    .map((node) => {
      if (node.type === 'break') return ' ';
      if (node.type === 'image') return node.alt ?? '';
      if ('children' in node) return plainText(node.children);
      return 'value' in node ? node.value.replace(/\n/g, ' ') : '';
    })
    .join('');
}

function leaf(text: string, marks: MarkType[]): DocumentLeaf {
  const ordered = MARK_ORDER.filter((mark) => marks.includes(mark));
  return {
    object: 'leaf',
    text,
    marks: ordered.map((type): DocumentMark => ({ object: 'mark', type })),
  };
}

function textNode(leaves: DocumentLeaf[], ctx: FromMdastContext): DocumentText {
  return { object: 'text', key: ctx.newKey(), leaves };
}

type InlinePiece = DocumentLeaf | DocumentInline;

/** Inline content: leaves grouped into text nodes between inlines; never empty. */
export function inlinesFromMdast(
  nodes: PhrasingContent[],
  ctx: FromMdastContext,
): (DocumentText | DocumentInline)[] {
  const pieces = nodes.flatMap((node) => piecesFromMdast(node, [], ctx));
  const out: (DocumentText | DocumentInline)[] = [];
  let leaves: DocumentLeaf[] = [];
  const flush = () => {
    if (leaves.length > 0) out.push(textNode(leaves, ctx));
    leaves = [];
  };
  for (const piece of pieces) {
    if (piece.object === 'inline') {
      flush();
      out.push(piece);
    } else {
      appendLeaf(leaves, piece);
    }
  }
  flush();
  return out.length > 0 ? out : [textNode([leaf('', [])], ctx)];
}

function sameMarks(a: DocumentLeaf, b: DocumentLeaf): boolean {
  return a.marks.map((m) => m.type).join() === b.marks.map((m) => m.type).join();
}

function appendLeaf(leaves: DocumentLeaf[], next: DocumentLeaf): void {
  const last = leaves[leaves.length - 1];
  if (last && sameMarks(last, next)) last.text += next.text;
  else if (next.text !== '') leaves.push(next);
}

const MARK_OF: Partial<Record<PhrasingContent['type'], MarkType>> = {
  strong: 'bold',
  emphasis: 'italic',
  delete: 'strikethrough',
};

function piecesFromMdast(
  node: PhrasingContent,
  marks: MarkType[],
  ctx: FromMdastContext,
): InlinePiece[] {
  switch (node.type) {
    case 'text':
      return [leaf(node.value.replace(/[ \t]*\r?\n[ \t]*/g, ' '), marks)];
    case 'break':
      return [leaf('\n', marks)];
    case 'inlineCode':
      return [leaf(node.value, [...marks, 'code'])];
    case 'html':
      return isHtmlComment(node.value) ? [] : [leaf(node.value, marks)];
    case 'strong':
    case 'emphasis':
    case 'delete':
      return node.children.flatMap((child) =>
        piecesFromMdast(child, [...marks, MARK_OF[node.type]!], ctx),
      );
    case 'link':
      return [link(node.url, node.children, marks, ctx)];
    case 'linkReference': {
      const definition = ctx.definitions.get(node.identifier);
      if (definition) return [link(definition.url, node.children, marks, ctx)];
      return node.children.flatMap((child) => piecesFromMdast(child, marks, ctx));
    }
    case 'image':
    case 'imageReference': {
      const image = asImage(node, ctx);
      return image ? [inlineImage(image, ctx)] : [leaf(node.alt ?? '', marks)];
    }
    case 'footnoteReference':
      return [leaf(`[^${node.label ?? node.identifier}]`, marks)];
    default:
      return [];
  }
}

function link(
  url: string,
  children: PhrasingContent[],
  marks: MarkType[],
  ctx: FromMdastContext,
): DocumentInline {
  const nodes = inlinesFromMdast(
    children.flatMap((child) => wrapMarks(child, marks)),
    ctx,
  );
  return {
    object: 'inline',
    key: ctx.newKey(),
    type: 'link',
    data: { ref: { kind: 'url', url } },
    nodes,
  };
}

/** Re-applies the marks around a link to its content, where documents keep them. */
function wrapMarks(node: PhrasingContent, marks: MarkType[]): PhrasingContent[] {
  const byMark = { bold: 'strong', italic: 'emphasis', strikethrough: 'delete' } as const;
  let wrapped: PhrasingContent = node;
  for (const mark of [...marks].reverse()) {
    if (mark === 'code') continue;
    wrapped = { type: byMark[mark as keyof typeof byMark], children: [wrapped] } as PhrasingContent;
  }
  return [wrapped];
}

function inlineImage(image: Image, ctx: FromMdastContext): DocumentInline {
  return {
    object: 'inline',
    key: ctx.newKey(),
    type: 'inline-image',
    data: imageData(image),
    isVoid: true,
  };
}
