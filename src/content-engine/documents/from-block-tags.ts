import { BlockSegment, BlockTag, MarkdownSegment } from './block-tags';
import { ContentRef, DocumentBlock, DocumentFragment } from './document';
import { parseLength } from './figures';

/**
 * Block-tag segments to document blocks; the markdown between tags is parsed by `blocksOf`.
 * A container's stray content (text between `{% tab %}` tags) becomes an item of its own, and
 * a tag met out of place (a `{% tab %}` outside tabs) is reduced to its content.
 */
export interface FromBlockTagsContext {
  newKey: () => string;
  /**
   * Blocks of a markdown segment; with `nonEmpty`, at least an empty paragraph; `at` is the
   * segment's first line, when the blocks' lines are noted.
   */
  blocksOf: (markdown: string, nonEmpty?: boolean, at?: number) => DocumentBlock[];
  /** Notes the lines of the page's top-level blocks (markdown-source.ts). */
  lines?: Map<DocumentBlock, [number, number]>;
}

/** Containers: the tag, its item tag and their block types. */
const CONTAINERS: Record<string, { item: string; type: string; itemType: string }> = {
  tabs: { item: 'tab', type: 'tabs', itemType: 'tabs-item' },
  stepper: { item: 'step', type: 'stepper', itemType: 'stepper-step' },
  columns: { item: 'column', type: 'columns', itemType: 'column' },
  updates: { item: 'update', type: 'updates', itemType: 'update' },
};

/** The data of a container item from its tag's attributes. */
function itemData(item: string, attrs: Record<string, string>): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  if (item === 'tab') {
    data.title = attrs.title ?? '';
    if (attrs.icon !== undefined) data.icon = attrs.icon;
    if (attrs.slug !== undefined) data.slug = attrs.slug;
  }
  if (item === 'column' && attrs.width !== undefined) data.width = parseLength(attrs.width);
  if (item === 'update') {
    data.date = attrs.date;
    if (attrs.tags !== undefined) {
      data.tags = attrs.tags
        .split(',')
        .filter((tag) => tag !== '')
        .map((tag) => ({ kind: 'tag', tag }));
    }
  }
  return data;
}

const BOOLEAN_CODE_ATTRS = ['lineNumbers', 'fullWidth', 'expandable'] as const;

/**
 * What the blocks of a text are written between, which decides how many blank lines an empty
 * paragraph takes at its edges: `text` (a page, or a tag's content, written between lines of
 * their own) or `blank` (`<details>`' body, written between blank lines).
 */
export type Edges = 'text' | 'blank';

/**
 * The blocks of the segments cut from `lineCount` lines. GitBook writes an empty paragraph as
 * nothing, its blocks separated by blank lines: so one blank line between two blocks is none,
 * three one, five two; at the edges of a text, two blank lines are one (`blank` edges: three).
 */
export function blocksFromSegments(
  segments: BlockSegment[],
  ctx: FromBlockTagsContext,
  nonEmpty = false,
  lines?: { count: number; edges: Edges },
): DocumentBlock[] {
  const empties = (n: number) =>
    Array.from({ length: n }, () => ctx.blocksOf('', true)[0]).filter(Boolean);
  const edge = (blank: number) =>
    lines?.edges === 'blank' ? Math.floor((blank - 1) / 2) : Math.floor(blank / 2);
  // Only the page's own blocks have their lines noted, not those inside tags.
  const inner: FromBlockTagsContext = { newKey: ctx.newKey, blocksOf: ctx.blocksOf };
  const parts = segments.flatMap((segment) => {
    const blocks =
      segment.kind === 'markdown'
        ? ctx.blocksOf(segment.text, false, ctx.lines ? segment.start : undefined)
        : blocksFromTag(segment, inner);
    if (ctx.lines && segment.kind === 'tag') {
      for (const block of blocks) ctx.lines.set(block, [segment.start, segment.end - 1]);
    }
    const [first, last] =
      segment.kind === 'markdown' ? contentLines(segment) : [segment.start, segment.end - 1];
    // A segment without blocks (definitions, comments) still holds lines between blocks.
    return [{ blocks, first, last }];
  });
  if (!lines) {
    const blocks = parts.flatMap((part) => part.blocks);
    return blocks.length > 0 || !nonEmpty ? blocks : ctx.blocksOf('', true);
  }
  if (parts.every((part) => part.blocks.length === 0)) {
    if (!nonEmpty) return [];
    const blank = lines.count;
    const count =
      lines.edges === 'blank' ? Math.floor((blank - 1) / 2) : Math.floor((blank + 1) / 2);
    return empties(Math.max(1, count));
  }
  const blocks: DocumentBlock[] = [];
  parts.forEach((part, i) => {
    const blank = i === 0 ? part.first : part.first - parts[i - 1].last - 1;
    blocks.push(...empties(i === 0 ? edge(blank) : Math.floor((blank - 1) / 2)), ...part.blocks);
  });
  blocks.push(...empties(edge(lines.count - 1 - parts[parts.length - 1].last)));
  return blocks;
}

/** The first and last lines of a markdown segment that are not blank. */
function contentLines(segment: MarkdownSegment): [number, number] {
  const lines = segment.text.split('\n');
  const first = lines.findIndex((line) => line.trim() !== '');
  let last = lines.length - 1;
  while (last > first && lines[last].trim() === '') last--;
  return [segment.start + first, segment.start + last];
}

/** The blocks of a tag's content, at least an empty paragraph. */
function contentOf(
  tag: BlockTag,
  ctx: FromBlockTagsContext,
  edges: Edges = 'text',
): DocumentBlock[] {
  return blocksFromSegments(tag.children, ctx, true, { count: tag.lineCount, edges });
}

function block(
  ctx: FromBlockTagsContext,
  type: string,
  data: Record<string, unknown>,
  nodes?: DocumentBlock[],
): DocumentBlock {
  const base: DocumentBlock = { object: 'block', key: ctx.newKey(), type, data };
  return nodes ? { ...base, nodes } : { ...base, isVoid: true };
}

function urlRef(url: string): ContentRef {
  return { kind: 'url', url };
}

/**
 * The OpenAPI blocks point into a specification (`ref` = `{kind: "openapi", spec}`); the content
 * GitBook writes between their tags (a link to the specification) is not kept.
 */
function openapiBlock(tag: BlockTag, ctx: FromBlockTagsContext): DocumentBlock {
  const ref: ContentRef = { kind: 'openapi', spec: tag.attrs.spec };
  const { path, method, name, schemas, grouped } = tag.attrs;
  switch (tag.name) {
    case 'openapi-operation':
      return block(ctx, tag.name, { ref, path, method });
    case 'openapi-webhook':
      return block(ctx, tag.name, { ref, name, method });
    default: {
      const names = schemas
        .split(',')
        .map((schema) => schema.trim())
        .filter((schema) => schema !== '');
      const data: Record<string, unknown> = { ref, schemas: names };
      if (grouped === 'true' || grouped === 'false') data.grouped = grouped === 'true';
      return block(ctx, tag.name, data);
    }
  }
}

function blocksFromTag(tag: BlockTag, ctx: FromBlockTagsContext): DocumentBlock[] {
  const content = () => contentOf(tag, ctx);
  const container = CONTAINERS[tag.name];
  if (container) return [containerBlock(tag, container, ctx)];
  switch (tag.name) {
    case 'hint': {
      const icon = tag.attrs.icon !== undefined ? { icon: tag.attrs.icon } : {};
      return [block(ctx, 'hint', { style: tag.attrs.style, ...icon }, content())];
    }
    case 'if':
      return [block(ctx, 'if', { expression: tag.attrs.expression }, content())];
    case 'prompt':
      return promptFromTag(tag, ctx);
    case 'embed': {
      const data: Record<string, unknown> = { url: tag.attrs.url };
      if (tag.attrs.fullWidth === 'true' || tag.attrs.fullWidth === 'false') {
        data.fullWidth = tag.attrs.fullWidth === 'true';
      }
      const embed = block(ctx, 'embed', data);
      // GitBook's caption of an embed, between its tags: a caption fragment, as an image's.
      const caption = tag.body.trim() === '' ? [] : blocksFromSegments(tag.children, ctx);
      return [caption.length > 0 ? { ...embed, fragments: [captionOf(caption, ctx)] } : embed];
    }
    case 'file': {
      // The caption is the text between the tags, as it is (GitBook's earlier Git Sync wrote it
      // as an attribute).
      const text = tag.body !== '' ? tag.body : tag.attrs.caption;
      const caption = text !== undefined && text !== '' ? { caption: text } : {};
      return [block(ctx, 'file', { ref: urlRef(tag.attrs.src), ...caption })];
    }
    case 'drawing':
      return [
        block(ctx, 'drawing', tag.attrs.src !== undefined ? { ref: urlRef(tag.attrs.src) } : {}),
      ];
    case 'include':
      return [block(ctx, 'reusable-content', { ref: urlRef(tag.attrs.src) })];
    case 'content-ref':
      return [block(ctx, 'content-ref', { ref: urlRef(tag.attrs.url) })];
    case 'page-ref':
      return [block(ctx, 'content-ref', { ref: urlRef(tag.attrs.page) })];
    case 'code':
      return codeFromTag(tag, ctx);
    case 'details':
      return [expandable(tag, ctx)];
    case 'math':
      return [block(ctx, 'math', { formula: tag.body })];
    case 'openapi-operation':
    case 'openapi-schemas':
    case 'openapi-webhook':
      return [openapiBlock(tag, ctx)];
    case 'openapi': {
      // The link GitBook writes between the tags names the specification again: not kept.
      const { src, path, method, expanded, fullWidth } = tag.attrs;
      const data: Record<string, unknown> = { ref: urlRef(src), path, method };
      if (expanded === 'true' || expanded === 'false') data.expanded = expanded === 'true';
      if (fullWidth === 'true' || fullWidth === 'false') data.fullWidth = fullWidth === 'true';
      return [block(ctx, 'swagger', data)];
    }
    default:
      return blocksFromSegments(tag.children, ctx);
  }
}

function containerBlock(
  tag: BlockTag,
  spec: (typeof CONTAINERS)[string],
  ctx: FromBlockTagsContext,
): DocumentBlock {
  const items = tag.children.map((child) => {
    const isItem = child.kind === 'tag' && child.name === spec.item;
    const data = isItem ? itemData(spec.item, child.attrs) : {};
    const nodes = isItem ? contentOf(child, ctx) : blocksFromSegments([child], ctx, true);
    return block(ctx, spec.itemType, data, nodes);
  });
  const data = tag.attrs.format !== undefined ? { format: tag.attrs.format } : {};
  return block(ctx, spec.type, data, items);
}

/** `{% code %}` options go onto the fenced code it wraps; other content is kept as it is. */
function codeFromTag(tag: BlockTag, ctx: FromBlockTagsContext): DocumentBlock[] {
  const blocks = blocksFromSegments(tag.children, ctx);
  if (blocks.length !== 1 || blocks[0].type !== 'code') return blocks;
  const { title, overflow, collapsedLineCount } = tag.attrs;
  const data: Record<string, unknown> = { ...blocks[0].data };
  if (title !== undefined) data.title = title;
  if (overflow === 'scroll' || overflow === 'wrap') data.overflow = overflow;
  for (const attr of BOOLEAN_CODE_ATTRS) {
    if (tag.attrs[attr] === 'true' || tag.attrs[attr] === 'false') {
      data[attr] = tag.attrs[attr] === 'true';
    }
  }
  const count = Number(collapsedLineCount);
  if (Number.isInteger(count) && count >= 1) data.collapsedLineCount = count;
  return [{ ...blocks[0], data }];
}

/** `{% prompt description="…" %}` around one fenced code block; other content is kept. */
function promptFromTag(tag: BlockTag, ctx: FromBlockTagsContext): DocumentBlock[] {
  const blocks = blocksFromSegments(tag.children, ctx);
  if (blocks.length !== 1 || blocks[0].type !== 'code') return blocks;
  const { description, icon, openInAIProviders, defaultExpanded } = tag.attrs;
  const data: Record<string, unknown> = { description };
  if (icon !== undefined) data.icon = icon;
  if (openInAIProviders === 'true' || openInAIProviders === 'false') {
    data.openInAIProviders = openInAIProviders === 'true';
  }
  if (defaultExpanded !== undefined) data.defaultExpanded = defaultExpanded;
  return [block(ctx, 'prompt', data, blocks)];
}

function captionOf(nodes: DocumentBlock[], ctx: FromBlockTagsContext): DocumentFragment {
  return { object: 'fragment', key: ctx.newKey(), fragment: 'caption', type: 'caption', nodes };
}

function expandable(tag: BlockTag, ctx: FromBlockTagsContext): DocumentBlock {
  const summary = ctx.blocksOf(tag.attrs.summary ?? '', true);
  const title = summary[0].type === 'paragraph' ? summary[0] : ctx.blocksOf('', true)[0];
  const fragment = (name: string, nodes: DocumentBlock[]): DocumentFragment => ({
    object: 'fragment',
    key: ctx.newKey(),
    fragment: name,
    type: name,
    nodes,
  });
  return {
    ...block(ctx, 'expandable', tag.attrs.open === 'true' ? { defaultExpanded: true } : {}),
    fragments: [
      fragment('expandable-title', [title]),
      fragment('expandable-body', contentOf(tag, ctx, 'blank')),
    ],
  };
}
