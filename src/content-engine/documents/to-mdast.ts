import type {
  AlignType,
  BlockContent,
  Heading,
  Image,
  List,
  ListItem,
  PhrasingContent,
  Root,
  RootContent,
  TableCell,
  TableRow,
} from 'mdast';
import { formatTag } from './block-tags';
import {
  ContentRef,
  DocumentBlock,
  DocumentFragment,
  DocumentInline,
  DocumentLeaf,
  DocumentNode,
  MARK_ORDER,
  MarkType,
  TableRecord,
} from './document';
import { compareOrderIndex } from './order-index';

/**
 * Document blocks to mdast. GitBook's blocks beyond markdown are written in its dialect (block
 * tags, `<details>`, `$$`; see block-tags.ts) as raw HTML nodes, their content rendered with
 * `stringify`. Blocks it cannot express (drawings, integrations, …) become an HTML comment
 * naming the block type, `<!-- unsupported block: drawing -->`, which reading the markdown back
 * drops: the export never throws and shows where content was left out. Unknown inlines keep
 * their text; unknown marks are dropped.
 */
export interface ToMdastContext {
  stringify: (root: Root) => string;
  refToUrl: (ref: ContentRef) => string | undefined;
}

/** Default link targets: URLs as they are, anchors as fragments, anything else empty. */
export function defaultRefToUrl(ref: ContentRef): string | undefined {
  if (ref.kind === 'url') return ref.url;
  if (ref.kind === 'anchor') return `#${ref.anchor}`;
  return undefined;
}

export function rootFromBlocks(blocks: DocumentBlock[], ctx: ToMdastContext): Root {
  return { type: 'root', children: blocks.flatMap((block) => blockToMdast(block, ctx)) };
}

function childBlocks(block: DocumentBlock): DocumentBlock[] {
  return (block.nodes ?? []).filter((node): node is DocumentBlock => node.object === 'block');
}

function blockToMdast(block: DocumentBlock, ctx: ToMdastContext): RootContent[] {
  switch (block.type) {
    case 'paragraph':
      return [{ type: 'paragraph', children: phrasing(block.nodes ?? [], ctx) }];
    case 'heading-1':
    case 'heading-2':
    case 'heading-3': {
      const depth = Number(block.type.slice(-1)) as Heading['depth'];
      return [{ type: 'heading', depth, children: phrasing(block.nodes ?? [], ctx) }];
    }
    case 'list-ordered':
    case 'list-unordered':
    case 'list-tasks':
      return [listToMdast(block, ctx)];
    case 'code':
      return [codeToMdast(block, ctx)];
    case 'blockquote':
      return [{ type: 'blockquote', children: flow(childBlocks(block), ctx) }];
    case 'divider':
      return [{ type: 'thematicBreak' }];
    case 'images':
      return [{ type: 'paragraph', children: childBlocks(block).map((b) => image(b.data, ctx)) }];
    case 'hint':
      return [tagged('hint', { style: stringData(block, 'style') ?? 'info' }, block, ctx)];
    case 'tabs':
      return [containerToMdast(block, 'tabs', 'tab', ctx)];
    case 'stepper':
      return [containerToMdast(block, 'stepper', 'step', ctx)];
    case 'columns':
      return [containerToMdast(block, 'columns', 'column', ctx)];
    case 'embed':
      return [html(formatTag('embed', { url: stringData(block, 'url') ?? '' }))];
    case 'file':
      return [html(formatTag('file', { src: refUrl(block.data?.ref, ctx) }))];
    case 'content-ref':
      return [contentRefToMdast(block, ctx)];
    case 'expandable':
      return [expandableToMdast(block, ctx)];
    case 'math':
      return [html(`$$\n${stringData(block, 'formula') ?? ''}\n$$`)];
    case 'table':
      return tableToMdast(block);
    case 'openapi-operation':
      return openapiToMdast(block, ['path', 'method'], ctx);
    case 'openapi-webhook':
      return openapiToMdast(block, ['name', 'method'], ctx);
    case 'openapi-schemas':
      return openapiToMdast(block, ['schemas', 'grouped'], ctx);
    default:
      return [unsupported(block)];
  }
}

function flow(blocks: DocumentBlock[], ctx: ToMdastContext): BlockContent[] {
  return blocks.flatMap((block) => blockToMdast(block, ctx)) as BlockContent[];
}

function listToMdast(block: DocumentBlock, ctx: ToMdastContext): List {
  const tasks = block.type === 'list-tasks';
  const start = Number(block.data?.start ?? 1);
  const children = childBlocks(block).map((item): ListItem => ({
    type: 'listItem',
    spread: false,
    checked: tasks ? item.data?.checked === true : undefined,
    children: flow(childBlocks(item), ctx),
  }));
  const ordered = block.type === 'list-ordered';
  return { type: 'list', ordered, start: ordered ? start : undefined, spread: false, children };
}

function html(value: string): RootContent {
  return { type: 'html', value };
}

function stringData(block: DocumentBlock, name: string): string | undefined {
  const value = block.data?.[name];
  return typeof value === 'string' ? value : undefined;
}

function refUrl(ref: unknown, ctx: ToMdastContext): string {
  if (!ref || typeof ref !== 'object') return '';
  return ctx.refToUrl(ref as ContentRef) ?? '';
}

/** Blocks as markdown text: '' or the text with a final newline. */
function markdownOf(blocks: DocumentBlock[], ctx: ToMdastContext): string {
  const text = ctx.stringify({ type: 'root', children: flow(blocks, ctx) }).trimEnd();
  return text === '' ? '' : `${text}\n`;
}

/** `{% name … %}`, the block's children as markdown, `{% endname %}`. */
function taggedText(
  name: string,
  attrs: Record<string, string | undefined>,
  block: DocumentBlock,
  ctx: ToMdastContext,
): string {
  return `${formatTag(name, attrs)}\n${markdownOf(childBlocks(block), ctx)}{% end${name} %}`;
}

function tagged(
  name: string,
  attrs: Record<string, string | undefined>,
  block: DocumentBlock,
  ctx: ToMdastContext,
): RootContent {
  return html(taggedText(name, attrs, block, ctx));
}

function containerToMdast(
  block: DocumentBlock,
  name: string,
  itemName: string,
  ctx: ToMdastContext,
): RootContent {
  const items = childBlocks(block).map((item) => {
    const attrs = itemName === 'tab' ? { title: stringData(item, 'title') ?? '' } : {};
    return taggedText(itemName, attrs, item, ctx);
  });
  const body = items.length > 0 ? `${items.join('\n\n')}\n` : '';
  return html(`${formatTag(name)}\n${body}{% end${name} %}`);
}

function contentRefToMdast(block: DocumentBlock, ctx: ToMdastContext): RootContent {
  const url = refUrl(block.data?.ref, ctx);
  const card = ctx.stringify({
    type: 'root',
    children: [{ type: 'paragraph', children: [{ type: 'link', url, children: cellText(url) }] }],
  });
  return html(`${formatTag('content-ref', { url })}\n${card.trimEnd()}\n{% endcontent-ref %}`);
}

/**
 * `{% openapi-… spec="…" … %}`, then, as GitBook writes it, a link to the specification when
 * `refToUrl` knows its URL, and the closing tag. Without an `openapi` ref the block has no
 * markdown form.
 */
function openapiToMdast(
  block: DocumentBlock,
  fields: readonly string[],
  ctx: ToMdastContext,
): RootContent[] {
  const ref = block.data?.ref as ContentRef | undefined;
  if (ref?.kind !== 'openapi' || typeof ref.spec !== 'string') return [unsupported(block)];
  const attrs: Record<string, string | undefined> = { spec: ref.spec };
  for (const field of fields) {
    const value = block.data?.[field];
    if (Array.isArray(value)) attrs[field] = value.map(String).join(',');
    else if (['string', 'boolean'].includes(typeof value)) attrs[field] = String(value);
  }
  const complete = fields.every((field) => field === 'grouped' || attrs[field] !== undefined);
  if (!complete || Object.values(attrs).some((value) => value?.includes('\n'))) {
    return [unsupported(block)];
  }
  const url = ctx.refToUrl(ref);
  const link = url
    ? ctx
        .stringify({
          type: 'root',
          children: [
            {
              type: 'paragraph',
              children: [{ type: 'link', url, children: cellText(`OpenAPI ${ref.spec}`) }],
            },
          ],
        })
        .trimEnd() + '\n'
    : '';
  return [html(`${formatTag(block.type, attrs)}\n${link}{% end${block.type} %}`)];
}

function unsupported(block: DocumentBlock): RootContent {
  return { type: 'html', value: `<!-- unsupported block: ${block.type} -->` };
}

function fragmentBlocks(block: DocumentBlock, name: string): DocumentBlock[] {
  const fragment = (block.fragments ?? []).find(
    (f: DocumentFragment) => (f.fragment ?? f.type) === name,
  );
  return fragment?.nodes ?? [];
}

/** `<details>`, a `<summary>` line holding the title's text, the body, `</details>`. */
function expandableToMdast(block: DocumentBlock, ctx: ToMdastContext): RootContent {
  const [title] = fragmentBlocks(block, 'expandable-title');
  const summary = title
    ? markdownOf([{ ...title, type: 'paragraph' }], ctx)
        .trim()
        .replace(/\s*\n\s*/g, ' ')
    : '';
  const body = markdownOf(fragmentBlocks(block, 'expandable-body'), ctx);
  const parts = ['<details>', `<summary>${summary}</summary>`, ...(body ? [body.trimEnd()] : [])];
  return html(`${parts.join('\n\n')}\n\n</details>`);
}

/** Code options GitBook writes as `{% code %}` attributes, in its order. */
const CODE_OPTIONS = [
  'title',
  'overflow',
  'lineNumbers',
  'fullWidth',
  'expandable',
  'collapsedLineCount',
] as const;

function codeToMdast(block: DocumentBlock, ctx: ToMdastContext): RootContent {
  const lines = childBlocks(block).map((line) => plainText(line.nodes ?? []));
  const syntax = block.data?.syntax;
  const code: RootContent = {
    type: 'code',
    lang: typeof syntax === 'string' ? syntax : null,
    value: lines.join('\n'),
  };
  const attrs: Record<string, string> = {};
  for (const option of CODE_OPTIONS) {
    const value = block.data?.[option];
    if (['string', 'number', 'boolean'].includes(typeof value)) attrs[option] = String(value);
  }
  if (Object.keys(attrs).length === 0) return code;
  const fence = ctx.stringify({ type: 'root', children: [code] }).trimEnd();
  return html(`${formatTag('code', attrs)}\n${fence}\n{% endcode %}`);
}

function tableToMdast(block: DocumentBlock): RootContent[] {
  const data = block.data ?? {};
  const definition = (data.definition ?? {}) as Record<string, Record<string, unknown>>;
  const view = (data.view ?? {}) as { columns?: string[] };
  const columns = view.columns ?? Object.keys(definition);
  if (columns.length === 0) return [];
  const records = Object.values((data.records ?? {}) as Record<string, TableRecord>).sort((a, b) =>
    compareOrderIndex(a.orderIndex, b.orderIndex),
  );
  const row = (texts: string[]): TableRow => ({
    type: 'tableRow',
    children: texts.map((text): TableCell => ({ type: 'tableCell', children: cellText(text) })),
  });
  const header = row(columns.map((id) => String(definition[id]?.title ?? '')));
  const body = records.map((record) => row(columns.map((id) => cellValue(record.values?.[id]))));
  const align = columns.map((id) => alignment(definition[id]?.textAlignment));
  return [{ type: 'table', align, children: [header, ...body] }];
}

function cellText(text: string): PhrasingContent[] {
  return text === '' ? [] : [{ type: 'text', value: text.replace(/\s*\n\s*/g, ' ') }];
}

/** Cell values as text; values that are not scalars (files, users, refs) are left empty. */
function cellValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return '';
}

function alignment(textAlignment: unknown): AlignType {
  return textAlignment === 'center' || textAlignment === 'right' ? textAlignment : null;
}

function image(data: Record<string, unknown> | undefined, ctx: ToMdastContext): Image {
  const ref = data?.ref as ContentRef | undefined;
  const alt = typeof data?.alt === 'string' ? data.alt : '';
  return { type: 'image', url: (ref && ctx.refToUrl(ref)) ?? '', alt };
}

function plainText(nodes: DocumentNode[]): string {
  return nodes
    .map((node) => {
      if (node.object === 'text') return node.leaves.map((l) => l.text).join('');
      return plainText(node.nodes ?? []);
    })
    .join('');
}

/** Inline content: runs of leaves (across text nodes) and inlines. */
function phrasing(nodes: DocumentNode[], ctx: ToMdastContext): PhrasingContent[] {
  const out: PhrasingContent[] = [];
  let leaves: DocumentLeaf[] = [];
  const flush = () => {
    out.push(...leavesToMdast(leaves));
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
  return out;
}

function inlineToMdast(inline: DocumentInline, ctx: ToMdastContext): PhrasingContent[] {
  if (inline.type === 'link') {
    const ref = inline.data?.ref as ContentRef | undefined;
    const url = (ref && ctx.refToUrl(ref)) ?? '';
    return [{ type: 'link', url, children: phrasing(inline.nodes ?? [], ctx) }];
  }
  if (inline.type === 'inline-image') return [image(inline.data, ctx)];
  if (inline.type === 'emoji' && typeof inline.data?.code === 'string') {
    return [{ type: 'text', value: inline.data.code }];
  }
  return phrasing(inline.nodes ?? [], ctx);
}

const WRAPPING: Partial<Record<MarkType, 'strong' | 'emphasis' | 'delete'>> = {
  bold: 'strong',
  italic: 'emphasis',
  strikethrough: 'delete',
};

function markTypes(leaf: DocumentLeaf): MarkType[] {
  return MARK_ORDER.filter((mark) => leaf.marks.some((m) => m.type === mark));
}

function withoutMark(leaf: DocumentLeaf, mark: MarkType): DocumentLeaf {
  return { ...leaf, marks: leaf.marks.filter((m) => m.type !== mark) };
}

/**
 * Leaves to nested mdast: at each step the wrapping mark with the longest run from the current
 * leaf encloses that run, so shared formatting becomes one markdown span (`**a *b***`).
 * Code is innermost, as markdown code spans cannot contain formatting.
 */
function leavesToMdast(leaves: DocumentLeaf[]): PhrasingContent[] {
  const out: PhrasingContent[] = [];
  let i = 0;
  while (i < leaves.length) {
    const wrapping = markTypes(leaves[i]).filter((mark) => WRAPPING[mark]);
    if (wrapping.length === 0) {
      out.push(...bareLeaf(leaves[i]));
      i++;
      continue;
    }
    let best = wrapping[0];
    let end = i;
    for (const mark of wrapping) {
      let j = i;
      while (j < leaves.length && markTypes(leaves[j]).includes(mark)) j++;
      if (j > end) [best, end] = [mark, j];
    }
    out.push(...wrapRun(leaves.slice(i, end), best));
    i = end;
  }
  return out;
}

/**
 * A run of leaves sharing `mark`, wrapped in its mdast node. Markdown cannot open or close
 * emphasis next to whitespace (`** a**` is not bold), so whitespace at the run's edges goes
 * outside, unformatted.
 */
function wrapRun(run: DocumentLeaf[], mark: MarkType): PhrasingContent[] {
  const first = run[0];
  const last = run[run.length - 1];
  const lead = markTypes(first).includes('code') ? '' : /^\s*/.exec(first.text)![0];
  const trail = markTypes(last).includes('code') ? '' : /\s*$/.exec(last.text)![0];
  const core = run.map((leaf) => withoutMark(leaf, mark));
  const text = run.map((leaf) => leaf.text).join('');
  if (text.trim() === '' && !run.some((leaf) => markTypes(leaf).includes('code'))) {
    return bareLeaf(plain(text));
  }
  core[0] = { ...core[0], text: core[0].text.slice(lead.length) };
  const end = core[core.length - 1];
  core[core.length - 1] = { ...end, text: end.text.slice(0, end.text.length - trail.length) };
  const wrapped = { type: WRAPPING[mark]!, children: leavesToMdast(core) } as PhrasingContent;
  return [...bareLeaf(plain(lead)), wrapped, ...bareLeaf(plain(trail))];
}

function plain(text: string): DocumentLeaf {
  return { object: 'leaf', text, marks: [] };
}

function bareLeaf(leaf: DocumentLeaf): PhrasingContent[] {
  if (leaf.text === '') return [];
  if (markTypes(leaf).includes('code')) return [{ type: 'inlineCode', value: leaf.text }];
  return leaf.text.split('\n').flatMap((text, i): PhrasingContent[] => {
    const parts: PhrasingContent[] = i > 0 ? [{ type: 'break' }] : [];
    return text === '' ? parts : [...parts, { type: 'text', value: text }];
  });
}
