import type { FootnoteReference, Html, PhrasingContent } from 'mdast';
import {
  DocumentInline,
  DocumentLeaf,
  DocumentMark,
  DocumentText,
  MARK_ORDER,
  MarkType,
} from './document';
import { imageData, parseInlineImg } from './figures';
import { mentionLabel } from './link-labels';
import { asImage, FromMdastContext, isHtmlComment, rekey } from './from-mdast-context';
import {
  closingTagName,
  fromInlineEscapeHatch,
  htmlAttributes,
  markOfOpeningTag,
  openingTagName,
  restoreRaw,
  restoreText,
  splitTokens,
  unescapeAttribute,
} from './inline-syntax';

/*
 * Inline mdast to document text and inlines. Beyond CommonMark and GFM:
 * - `<kbd>`, `<sup>`, `<sub>` and `<mark style="…">` around text (opening and closing tag in
 *   the same parent) are the keyboard, superscript, subscript and color marks; `<br>` is a
 *   hard break (as in table cells).
 * - A footnote reference is an `annotation` whose `annotation-body` fragment holds the
 *   footnote's blocks. The annotated text is the `<span>…</span>` just before the reference
 *   (`<span>annotated text</span>[^1]`); a bare reference (`word[^1]`) annotates its own label.
 * - A link without text is a `mention` of its target.
 * - `<code class="expression">…</code>` is an `expression`; an `<img>` tag an inline image with
 *   the data markdown images lack; `<!-- bindery:inline {…} -->` any other inline.
 * - Inline math and emoji shortcodes were set aside before parsing (inline-syntax.ts).
 */

export type InlinePiece = DocumentLeaf | DocumentInline;

export function markKey(mark: DocumentMark): string {
  return mark.data ? `${mark.type}${JSON.stringify(mark.data)}` : mark.type;
}

export function sortMarks(marks: DocumentMark[]): DocumentMark[] {
  const rank = (mark: DocumentMark) => {
    const index = MARK_ORDER.indexOf(mark.type as MarkType);
    return index < 0 ? MARK_ORDER.length : index;
  };
  const unique = marks.filter(
    (mark, i) => marks.findIndex((other) => other.type === mark.type) === i,
  );
  return [...unique].sort((a, b) => rank(a) - rank(b));
}

export function leaf(text: string, marks: (MarkType | DocumentMark)[]): DocumentLeaf {
  const objects = marks.map((mark): DocumentMark =>
    typeof mark === 'string' ? { object: 'mark', type: mark } : mark,
  );
  return { object: 'leaf', text, marks: sortMarks(objects) };
}

export function textNode(leaves: DocumentLeaf[], ctx: { newKey: () => string }): DocumentText {
  return { object: 'text', key: ctx.newKey(), leaves };
}

/** Inline content: leaves grouped into text nodes between inlines; never empty. */
export function inlinesFromMdast(
  nodes: PhrasingContent[],
  ctx: FromMdastContext,
  marks: DocumentMark[] = [],
): (DocumentText | DocumentInline)[] {
  return groupPieces(piecesOf(nodes, marks, ctx), ctx);
}

export function groupPieces(
  pieces: InlinePiece[],
  ctx: { newKey: () => string },
): (DocumentText | DocumentInline)[] {
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
  return a.marks.map(markKey).join() === b.marks.map(markKey).join();
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

function inline(
  ctx: FromMdastContext,
  type: string,
  data: Record<string, unknown>,
  nodes?: DocumentInline['nodes'],
): DocumentInline {
  const base: DocumentInline = { object: 'inline', key: ctx.newKey(), type, data };
  return nodes ? { ...base, nodes } : { ...base, isVoid: true };
}

/** The index of the tag closing the `name` element opened at `from`, or -1. */
function closingIndex(nodes: PhrasingContent[], from: number, name: string): number {
  let depth = 0;
  for (let i = from + 1; i < nodes.length; i++) {
    const node = nodes[i];
    if (node.type !== 'html') continue;
    if (openingTagName(node.value) === name) depth++;
    else if (closingTagName(node.value) === name) {
      if (depth === 0) return i;
      depth--;
    }
  }
  return -1;
}

function piecesOf(
  nodes: PhrasingContent[],
  marks: DocumentMark[],
  ctx: FromMdastContext,
): InlinePiece[] {
  const out: InlinePiece[] = [];
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i];
    const element = node.type === 'html' ? htmlElement(nodes, i, marks, ctx) : undefined;
    if (element) {
      out.push(...element.pieces);
      i = element.end;
    } else {
      out.push(...pieceOf(node, marks, ctx));
    }
  }
  return out;
}

/** An HTML element of the dialect starting at `nodes[at]`: its pieces and last index. */
function htmlElement(
  nodes: PhrasingContent[],
  at: number,
  marks: DocumentMark[],
  ctx: FromMdastContext,
): { pieces: InlinePiece[]; end: number } | undefined {
  const html = restoreRaw((nodes[at] as Html).value, ctx.tokens);
  if (/^<br\s*\/?>$/i.test(html)) return { pieces: [leaf('\n', marks)], end: at };
  const image = parseInlineImg(html);
  if (image) return { pieces: [inline(ctx, 'inline-image', image)], end: at };
  const name = openingTagName(html);
  const close = name ? closingIndex(nodes, at, name) : -1;
  if (close < 0) return undefined;
  const inner = nodes.slice(at + 1, close);
  const hatched = fromInlineEscapeHatch(html);
  if (hatched) {
    return { pieces: [rekey(hatched as unknown as DocumentInline, ctx.newKey)], end: close };
  }
  const mark = markOfOpeningTag(html);
  if (mark) return { pieces: piecesOf(inner, [...marks, mark], ctx), end: close };
  // Elements whose content is read raw, as it was written (escaped HTML text).
  const start = nodes[at].position?.end.offset;
  const end = nodes[close].position?.start.offset;
  const raw = () => unescapeAttribute(restoreRaw(ctx.source.slice(start, end), ctx.tokens));
  if (name === 'code' && /^<code class="expression">$/.test(html) && start !== undefined) {
    return { pieces: [inline(ctx, 'expression', { expression: raw() })], end: close };
  }
  // GitBook's icon, `<i class="fa-check">:check:</i>` (its name inside; empty reads too).
  const icon = /^<i class="fa-([a-z0-9-]+)">$/.exec(html);
  const named = icon && start !== undefined ? raw() === `:${icon[1]}:` : false;
  if (icon && (close === at + 1 || named)) {
    return { pieces: [inline(ctx, 'icon', { icon: icon[1] })], end: close };
  }
  const attrs = name === 'a' ? htmlAttributes(html.slice(2, -1)) : {};
  const button = /^button (primary|secondary)$/.exec(attrs.class ?? '');
  if (button && attrs.href !== undefined && start !== undefined) {
    const data: Record<string, unknown> = {
      label: raw(),
      kind: button[1],
      ref: { kind: 'url', url: attrs.href },
    };
    if (attrs['data-icon'] !== undefined) data.icon = attrs['data-icon'];
    if (attrs['data-size'] !== undefined) data.size = attrs['data-size'];
    return { pieces: [inline(ctx, 'button', data)], end: close };
  }
  const reference = nodes[close + 1];
  if (name === 'span' && html === '<span>' && reference?.type === 'footnoteReference') {
    const text = piecesOf(inner, marks, ctx).filter(
      (piece): piece is DocumentLeaf => piece.object === 'leaf',
    );
    return { pieces: [annotation(reference, text, ctx)], end: close + 1 };
  }
  return undefined;
}

function annotation(
  reference: FootnoteReference,
  annotated: DocumentLeaf[],
  ctx: FromMdastContext,
): DocumentInline {
  const definition = ctx.footnotes.get(reference.identifier);
  const open = ctx.openFootnotes ?? new Set<string>();
  let body = ctx.flow([], ctx);
  if (definition && !open.has(reference.identifier)) {
    open.add(reference.identifier);
    body = ctx.flow(definition.children, { ...ctx, openFootnotes: open });
    open.delete(reference.identifier);
  }
  const leaves: DocumentLeaf[] = [];
  annotated.forEach((piece) => appendLeaf(leaves, { ...piece }));
  return {
    object: 'inline',
    key: ctx.newKey(),
    type: 'annotation',
    isVoid: false,
    nodes: [textNode(leaves.length > 0 ? leaves : [leaf('', [])], ctx)],
    fragments: [
      {
        object: 'fragment',
        key: ctx.newKey(),
        fragment: 'annotation-body',
        type: 'annotation-body',
        nodes: body,
      },
    ],
  };
}

function textPieces(value: string, marks: DocumentMark[], ctx: FromMdastContext): InlinePiece[] {
  return splitTokens(value, ctx.tokens).map((part) => {
    if (typeof part === 'string') return leaf(part.replace(/[ \t]*\r?\n[ \t]*/g, ' '), marks);
    if (part.kind === 'text') return leaf(part.text, marks);
    if (part.kind === 'math') return inline(ctx, 'inline-math', { formula: part.formula });
    return inline(ctx, 'emoji', { code: part.code });
  });
}

function pieceOf(
  node: PhrasingContent,
  marks: DocumentMark[],
  ctx: FromMdastContext,
): InlinePiece[] {
  switch (node.type) {
    case 'text':
      return textPieces(node.value, marks, ctx);
    case 'break':
      return [leaf('\n', marks)];
    case 'inlineCode':
      // A code span across lines is on one: its line endings are spaces (CommonMark).
      return [
        leaf(restoreRaw(node.value.replace(/\n[ \t]*/g, ' '), ctx.tokens), [...marks, 'code']),
      ];
    case 'html':
      return isHtmlComment(node.value) ? [] : [leaf(restoreRaw(node.value, ctx.tokens), marks)];
    case 'strong':
    case 'emphasis':
    case 'delete': {
      const mark: DocumentMark = { object: 'mark', type: MARK_OF[node.type]! };
      return piecesOf(node.children, [...marks, mark], ctx);
    }
    case 'link':
      return [link(node.url, node.title, node.children, marks, ctx)];
    case 'linkReference': {
      const definition = ctx.definitions.get(node.identifier);
      if (definition) return [link(definition.url, definition.title, node.children, marks, ctx)];
      return piecesOf(node.children, marks, ctx);
    }
    case 'image':
    case 'imageReference': {
      const image = asImage(node, ctx);
      if (!image) return [leaf(node.alt ?? '', marks)];
      return [inline(ctx, 'inline-image', imageData(image))];
    }
    case 'footnoteReference':
      return [annotation(node, [leaf(node.label ?? node.identifier, marks)], ctx)];
    default:
      return [];
  }
}

function link(
  rawUrl: string,
  rawTitle: string | null | undefined,
  children: PhrasingContent[],
  marks: DocumentMark[],
  ctx: FromMdastContext,
): DocumentInline {
  const ref = { kind: 'url', url: restoreText(rawUrl, ctx.tokens) };
  if (children.length === 0) return inline(ctx, 'mention', { ref });
  // GitBook's mention, a link titled "mention" named by its target; one named otherwise (a
  // page of another space, by its title) stays a link, which keeps its text.
  const text = children.length === 1 && children[0].type === 'text' ? children[0].value : undefined;
  if (rawTitle === 'mention' && text !== undefined && text === mentionLabel(ref.url)) {
    return inline(ctx, 'mention', { ref });
  }
  const title = rawTitle ? { title: restoreText(rawTitle, ctx.tokens) } : {};
  return inline(ctx, 'link', { ref, ...title }, inlinesFromMdast(children, ctx, marks));
}
