import type { BlockContent, FootnoteDefinition, PhrasingContent } from 'mdast';
import {
  ContentRef,
  DocumentBlock,
  DocumentInline,
  DocumentLeaf,
  DocumentMark,
  DocumentNode,
  MARK_ORDER,
  MarkType,
} from './document';
import { imgTag, inlineImageNeedsHtml } from './figures';
import {
  emojiShortcode,
  escapeAttribute,
  escapeHtmlText,
  HTML_MARK_TAGS,
  htmlMarkClose,
  htmlMarkOpen,
  inlineEscapeHatchOpen,
} from './inline-syntax';
import { nestMarks } from './mark-nesting';
import { mentionLabel } from './link-labels';
import type { GitbookHtmlMark } from './markdown-writer';
import { markKey, sortMarks } from './inlines-from-mdast';

/*
 * Document text and inlines to inline mdast, the inverse of inlines-from-mdast.ts. Inlines
 * markdown has no form for (buttons, icons, unknown types) go through the escape hatch.
 */
export interface InlineContext {
  refToUrl: (ref: ContentRef) => string | undefined;
  /** Footnotes of the whole document, numbered in order of appearance. */
  footnotes: FootnoteDefinition[];
  /** Blocks as mdast flow content (annotation bodies). */
  flow: (blocks: DocumentBlock[]) => BlockContent[];
}

export function refUrl(ref: unknown, ctx: InlineContext): string {
  if (!ref || typeof ref !== 'object') return '';
  return ctx.refToUrl(ref as ContentRef) ?? '';
}

function html(value: string): PhrasingContent {
  return { type: 'html', value };
}

const isMath = (node: PhrasingContent | undefined) =>
  node?.type === 'html' && node.value.startsWith('$$');

/** Inline content: runs of leaves (across text nodes) and inlines. */
export function phrasing(nodes: DocumentNode[], ctx: InlineContext): PhrasingContent[] {
  const out: PhrasingContent[] = [];
  let leaves: DocumentLeaf[] = [];
  const flush = () => {
    out.push(...leavesToMdast(mergeLeaves(leaves)));
    leaves = [];
  };
  for (const node of nodes) {
    if (node.object === 'text') leaves.push(...node.leaves);
    else if (node.object === 'inline') {
      flush();
      out.push(...inlineToMdast(node, ctx));
    }
  }
  flush();
  // A hard break that ends a paragraph is `<br>`, as GitBook's writer has written it since late
  // 2025 (before, `\` and a line end, which still reads).
  if (out[out.length - 1]?.type === 'break') out[out.length - 1] = html('<br>');
  // So is one before HTML (an image with a size, a mark): the writer puts HTML after a line end
  // on the same line (a line starting with it would be an HTML block), which would leave `\ `.
  for (let i = out.length - 2; i >= 0; i--) {
    if (out[i].type === 'break' && out[i + 1].type === 'html') out[i] = html('<br>');
  }
  // A line that is only `$$…$$` would read back as a math block: an empty comment ends it.
  return out.flatMap((node, i) => {
    const alone =
      isMath(node) &&
      (i === 0 || out[i - 1].type === 'break') &&
      (i === out.length - 1 || out[i + 1].type === 'break');
    return alone ? [node, html('<!---->')] : [node];
  });
}

/**
 * Adjacent leaves of the same marks as one: markdown is escaped per text node, and one run
 * of text must be written the same however the document splits it.
 */
function mergeLeaves(leaves: DocumentLeaf[]): DocumentLeaf[] {
  const merged: DocumentLeaf[] = [];
  const key = (leaf: DocumentLeaf) => marksOf(leaf).map(markKey).join();
  for (const leaf of leaves) {
    const last = merged[merged.length - 1];
    if (last && key(last) === key(leaf))
      merged[merged.length - 1] = { ...last, text: last.text + leaf.text };
    else if (leaf.text !== '') merged.push(leaf);
  }
  return merged;
}

const LINK_KEYS = new Set(['ref', 'title']);

function hatch(inline: DocumentInline): PhrasingContent[] {
  return [html(inlineEscapeHatchOpen(inline)), html('</span>')];
}

function stringData(inline: DocumentInline, key: string): string | undefined {
  const value = inline.data?.[key];
  return typeof value === 'string' ? value : undefined;
}

function inlineToMdast(inline: DocumentInline, ctx: InlineContext): PhrasingContent[] {
  switch (inline.type) {
    case 'link': {
      const children = phrasing(inline.nodes ?? [], ctx);
      const data = inline.data ?? {};
      if (children.length === 0 || Object.keys(data).some((key) => !LINK_KEYS.has(key))) {
        return hatch(inline);
      }
      const title = typeof data.title === 'string' ? data.title : null;
      return [{ type: 'link', url: refUrl(data.ref, ctx), title, children }];
    }
    case 'mention': {
      // GitBook's mention: a link titled "mention", named by its target (page.md, #anchor).
      const url = refUrl(inline.data?.ref, ctx);
      if (url === '') return [{ type: 'link', url, children: [] }];
      const label = mentionLabel(url);
      return [{ type: 'link', url, title: 'mention', children: [{ type: 'text', value: label }] }];
    }
    case 'inline-image': {
      const data = inline.data ?? {};
      if (inlineImageNeedsHtml(inline)) return [html(imgTag(data, (r) => refUrl(r, ctx), true))];
      const alt = typeof data.alt === 'string' ? data.alt : '';
      const title = typeof data.title === 'string' ? data.title : null;
      return [{ type: 'image', url: refUrl(data.ref, ctx), alt, title }];
    }
    case 'emoji': {
      const code = stringData(inline, 'code');
      return code && /^[0-9a-f]{4,6}(?:-[0-9a-f]{4,6})*$/.test(code)
        ? [html(emojiShortcode(code))]
        : hatch(inline);
    }
    case 'inline-math': {
      const formula = stringData(inline, 'formula');
      return formula && !/\n|\$\$/.test(formula) && formula.trim() === formula
        ? [html(`$$${formula}$$`)]
        : hatch(inline);
    }
    case 'expression': {
      const expression = stringData(inline, 'expression');
      return expression !== undefined
        ? [html(`<code class="expression">${escapeHtmlText(expression)}</code>`)]
        : hatch(inline);
    }
    case 'icon': {
      const icon = stringData(inline, 'icon');
      const plain = Object.keys(inline.data ?? {}).length === 1;
      return icon && plain && /^[a-z0-9-]+$/.test(icon)
        ? [html(`<i class="fa-${icon}">:${icon}:</i>`)]
        : hatch(inline);
    }
    case 'button':
      return buttonToMdast(inline, ctx);
    case 'annotation':
      return annotationToMdast(inline, ctx);
    default:
      return hatch(inline);
  }
}

const BUTTON_KEYS = new Set(['label', 'kind', 'ref', 'icon', 'size']);

/** GitBook's button, `<a href="…" class="button primary" data-icon="…">label</a>`. */
function buttonToMdast(inline: DocumentInline, ctx: InlineContext): PhrasingContent[] {
  const data = inline.data ?? {};
  const label = stringData(inline, 'label');
  const kind = stringData(inline, 'kind');
  const ref = data.ref as ContentRef | undefined;
  const url = ref ? ctx.refToUrl(ref) : undefined;
  const fits =
    label !== undefined &&
    (kind === 'primary' || kind === 'secondary') &&
    url !== undefined &&
    Object.keys(data).every((key) => BUTTON_KEYS.has(key)) &&
    ['icon', 'size'].every((key) => data[key] === undefined || typeof data[key] === 'string');
  if (!fits) return hatch(inline);
  const icon = stringData(inline, 'icon');
  const size = stringData(inline, 'size');
  const attrs = [
    `href="${escapeAttribute(url)}"`,
    `class="button ${kind}"`,
    ...(icon !== undefined ? [`data-icon="${escapeAttribute(icon)}"`] : []),
    ...(size !== undefined ? [`data-size="${escapeAttribute(size)}"`] : []),
  ];
  return [html(`<a ${attrs.join(' ')}>${escapeHtmlText(label)}</a>`)];
}

/**
 * An annotation as a footnote: `<span>annotated text</span>[^n]`, or a bare `[^n]` when the
 * annotated text is the label itself; the body goes to the definitions at the end.
 */
function annotationToMdast(inline: DocumentInline, ctx: InlineContext): PhrasingContent[] {
  const body = (inline.fragments ?? []).find((f) => f.fragment === 'annotation-body');
  const label = String(ctx.footnotes.length + 1);
  const definition: FootnoteDefinition = {
    type: 'footnoteDefinition',
    identifier: label,
    label,
    children: [],
  };
  ctx.footnotes.push(definition);
  definition.children = ctx.flow(body?.nodes ?? []);
  const leaves = (inline.nodes ?? []).flatMap((node) =>
    node.object === 'text' ? node.leaves : [],
  );
  const reference: PhrasingContent = { type: 'footnoteReference', identifier: label, label };
  const text = leaves.map((l) => l.text).join('');
  if (text === label && leaves.every((l) => l.marks.length === 0)) return [reference];
  return [html('<span>'), ...leavesToMdast(mergeLeaves(leaves)), html('</span>'), reference];
}

const WRAPPING: Partial<Record<MarkType, 'strong' | 'emphasis' | 'delete'>> = {
  bold: 'strong',
  italic: 'emphasis',
  strikethrough: 'delete',
};

/** The marks markdown writes, in canonical order; unknown marks have no markdown form. */
function marksOf(leaf: DocumentLeaf): DocumentMark[] {
  return sortMarks(leaf.marks.filter((m) => MARK_ORDER.includes(m.type as MarkType)));
}

const isCode = (leaf: DocumentLeaf) => leaf.marks.some((m) => m.type === 'code');

/**
 * Leaves to nested mdast as GitBook writes them (mark-nesting.ts: `_**x**_`, `**a**_**b**_`),
 * whitespace at the edges of formatting kept inside it (the writer encodes it: `**&#x20;a**`).
 */
export function leavesToMdast(leaves: DocumentLeaf[]): PhrasingContent[] {
  return nestMarks<PhrasingContent>(
    leaves.map((leaf) => ({ ...leaf, marks: marksOf(leaf) })),
    (mark) => Boolean(WRAPPING[mark.type as MarkType] ?? HTML_MARK_TAGS[mark.type as MarkType]),
    bareLeaf,
    (mark, children) => {
      if (children.length === 0) return [];
      const wrapper = WRAPPING[mark.type as MarkType];
      if (wrapper) return [{ type: wrapper, children } as PhrasingContent];
      const node: GitbookHtmlMark = {
        type: 'gitbookHtmlMark',
        open: htmlMarkOpen(mark),
        close: htmlMarkClose(mark),
        children,
      };
      return [node as unknown as PhrasingContent];
    },
  );
}

function bareLeaf(leaf: DocumentLeaf): PhrasingContent[] {
  if (leaf.text === '') return [];
  if (isCode(leaf)) return [{ type: 'inlineCode', value: leaf.text }];
  return leaf.text.split('\n').flatMap((text, i): PhrasingContent[] => {
    const parts: PhrasingContent[] = i > 0 ? [{ type: 'break' }] : [];
    return text === '' ? parts : [...parts, { type: 'text', value: text }];
  });
}
