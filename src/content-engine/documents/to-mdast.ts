import type {
  BlockContent,
  FootnoteDefinition,
  Heading,
  Image,
  List,
  ListItem,
  Root,
  RootContent,
} from 'mdast';
import { formatTag } from './block-tags';
import { ContentRef, DocumentBlock, DocumentFragment, DocumentNode } from './document';
import { captionFragment, figuresHtml, formatLength, imgTag, needsFigures } from './figures';
import { blockEscapeHatch, escapeAttribute } from './inline-syntax';
import { InlineContext, phrasing, refUrl } from './inlines-to-mdast';
import type { GitbookContainer } from './markdown-writer';
import { tableToMdast, withHtmlBreaks } from './tables';
import { tableToHast } from './html-tables';
import { lastSegment } from './link-labels';
import { blocksToHast, codeToHast, inlinesToHast } from './html-forms';
import type { Element as HastElement, Root as HastRoot } from 'hast';

/**
 * Document blocks to mdast. GitBook's blocks beyond markdown are written in its dialect (block
 * tags, `<details>`, `$$`, `<figure>`; see block-tags.ts and figures.ts) as raw HTML nodes,
 * their content rendered with `stringify`. A block markdown cannot express (integrations, a
 * table with column widths, data the dialect has no attribute for, unknown types) is written
 * through the escape hatch, its JSON in an HTML comment (inline-syntax.ts), so that nothing is
 * lost; unknown marks are dropped.
 */
export interface ToMdastContext {
  stringify: (root: Root) => string;
  /** Writes GitBook's HTML forms (html-forms.ts). */
  toHtml: (node: HastElement | HastRoot) => string;
  refToUrl: (ref: ContentRef) => string | undefined;
  /** The document's footnotes (annotations), written after its last block. */
  footnotes: FootnoteDefinition[];
  /** Inside a list item, where GitBook writes no block tag. */
  inList?: boolean;
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

function inlineContext(ctx: ToMdastContext): InlineContext {
  return {
    refToUrl: ctx.refToUrl,
    footnotes: ctx.footnotes,
    flow: (blocks) => flow(blocks, ctx),
  };
}

function inlines(nodes: DocumentNode[] | undefined, ctx: ToMdastContext) {
  return phrasing(nodes ?? [], inlineContext(ctx));
}

/** The data keys each block's markdown form writes; a block with others takes the hatch. */
const DATA_KEYS: Record<string, string[]> = {
  paragraph: [],
  'heading-1': ['id'],
  'heading-2': ['id'],
  'heading-3': ['id', 'level'],
  'list-ordered': ['start'],
  'list-unordered': [],
  'list-tasks': [],
  'list-item': ['checked'],
  blockquote: [],
  divider: [],
  code: [
    'syntax',
    'title',
    'overflow',
    'lineNumbers',
    'fullWidth',
    'expandable',
    'collapsedLineCount',
  ],
  'code-line': [],
  hint: ['style', 'icon'],
  tabs: [],
  'tabs-item': ['title', 'icon', 'slug'],
  stepper: [],
  'stepper-step': [],
  columns: [],
  column: ['width'],
  embed: ['url', 'fullWidth'],
  file: ['ref', 'caption'],
  drawing: ['ref'],
  'content-ref': ['ref'],
  'reusable-content': ['ref'],
  expandable: ['defaultExpanded'],
  math: ['formula'],
  if: ['expression'],
  prompt: ['description', 'icon', 'openInAIProviders', 'defaultExpanded'],
  updates: ['format'],
  update: ['date', 'tags'],
  images: ['align', 'fullWidth', 'withFrame'],
  image: ['ref', 'refDark', 'alt', 'title', 'width', 'height'],
  table: ['view', 'records', 'definition', 'fullWidth', 'search'],
  swagger: ['ref', 'path', 'method', 'expanded', 'fullWidth'],
  'openapi-operation': ['ref', 'path', 'method'],
  'openapi-webhook': ['ref', 'name', 'method'],
  'openapi-schemas': ['ref', 'schemas', 'grouped'],
};

function expressible(block: DocumentBlock): boolean {
  const keys = DATA_KEYS[block.type];
  if (!keys) return false;
  if (!Object.keys(block.data ?? {}).every((key) => keys.includes(key))) return false;
  return childBlocks(block).every(expressible);
}

function hatch(block: DocumentBlock): RootContent {
  return html(blockEscapeHatch(block));
}

function blockToMdast(block: DocumentBlock, ctx: ToMdastContext): RootContent[] {
  if (!expressible(block)) return [hatch(block)];
  const written = blockForm(block, ctx);
  return written ?? [hatch(block)];
}

/** The markdown form of a block, or undefined when it has none. */
function blockForm(block: DocumentBlock, ctx: ToMdastContext): RootContent[] | undefined {
  switch (block.type) {
    case 'paragraph':
      // An empty paragraph is written as nothing between blank lines, as GitBook writes it;
      // reading counts the blank lines back (from-mdast.ts).
      if (isEmptyParagraph(block)) return [{ type: 'paragraph', children: [] }];
      if (onlyInlineImages(block)) {
        const images = (block.nodes ?? []).filter((node) => node.object === 'inline');
        const tags = images.map((image) =>
          imgTag(image.data ?? {}, (r) => refUrl(r, inlineContext(ctx)), true),
        );
        return [html(tags.join(''))];
      }
      return [{ type: 'paragraph', children: inlines(block.nodes, ctx) }];
    case 'heading-1':
    case 'heading-2':
    case 'heading-3':
      return headingToMdast(block, ctx);
    case 'list-ordered':
    case 'list-unordered':
    case 'list-tasks':
      return [listToMdast(block, ctx)];
    case 'code':
      return codeToMdast(block, ctx);
    case 'blockquote':
      return blockquoteToMdast(block, ctx);
    case 'divider':
      return [{ type: 'thematicBreak' }];
    case 'images':
      return imagesToMdast(block, ctx);
    case 'hint':
      return [
        tagged(
          'hint',
          { style: stringData(block, 'style') ?? 'info', icon: stringData(block, 'icon') },
          childBlocks(block),
          ctx,
        ),
      ];
    case 'tabs':
      return [containerToMdast(block, 'tabs', 'tab', ctx)];
    case 'stepper':
      return [containerToMdast(block, 'stepper', 'step', ctx)];
    case 'columns':
      return [containerToMdast(block, 'columns', 'column', ctx)];
    case 'embed':
      return embedToMdast(block, ctx);
    case 'file':
      return fileToMdast(block, ctx);
    case 'drawing': {
      // GitBook's drawing is its picture file in an `<img class="gitbook-drawing">`.
      if (!block.data?.ref) return [html(formatTag('drawing'))];
      const src = blockRefUrl(block, ctx);
      if (src === undefined) return undefined;
      return [html(`<img src="${escapeAttribute(src)}" alt="" class="gitbook-drawing">`)];
    }
    case 'reusable-content': {
      const url = blockRefUrl(block, ctx);
      return url === undefined || url.includes('"') ? undefined : [html(`{% include "${url}" %}`)];
    }
    case 'if': {
      const expression = stringData(block, 'expression');
      if (expression === undefined || !/^[^\n]*\S[^\n]*$/.test(expression)) return undefined;
      if (expression.includes('%}') || expression !== expression.trim()) return undefined;
      return [container(`{% if ${expression} %}`, '{% endif %}', childBlocks(block), ctx)];
    }
    case 'prompt': {
      const [code, ...rest] = childBlocks(block);
      if (code?.type !== 'code' || rest.length > 0) return undefined;
      const flag = block.data?.openInAIProviders;
      const attrs = {
        description: stringData(block, 'description') ?? '',
        icon: stringData(block, 'icon'),
        openInAIProviders: typeof flag === 'boolean' ? String(flag) : undefined,
        defaultExpanded: stringData(block, 'defaultExpanded'),
      };
      return [tagged('prompt', attrs, childBlocks(block), ctx)];
    }
    case 'updates':
      return updatesToMdast(block, ctx);
    case 'content-ref':
      return contentRefToMdast(block, ctx);
    case 'expandable':
      return [expandableToMdast(block, ctx)];
    case 'math': {
      const formula = stringData(block, 'formula') ?? '';
      if (formula.split('\n').some((line) => /^\s*\$\$\s*$/.test(line))) return undefined;
      return [html(`$$\n${formula}\n$$`)];
    }
    case 'table': {
      // A GFM table when it says it all, as GitBook writes it; else GitBook's HTML table.
      const table = tableToMdast(
        block,
        (nodes) => inlines(nodes, ctx),
        (blocks) => blocksHtmlOf(blocks, ctx),
      );
      if (table) return [table];
      const hast = tableToHast(block, { refToUrl: ctx.refToUrl });
      return hast ? [html(ctx.toHtml(hast))] : undefined;
    }
    case 'swagger':
      return swaggerToMdast(block, ctx);
    case 'openapi-operation':
      return openapiToMdast(block, ['path', 'method'], ctx);
    case 'openapi-webhook':
      return openapiToMdast(block, ['name', 'method'], ctx);
    case 'openapi-schemas':
      return openapiToMdast(block, ['schemas', 'grouped'], ctx);
    default:
      return undefined;
  }
}

/**
 * Block tags are not read inside quotes (behind `>`), so a quote holding a block written as a
 * tag (GitBook's editor makes none) has no markdown form.
 */
function blockquoteToMdast(block: DocumentBlock, ctx: ToMdastContext): RootContent[] | undefined {
  const children = flow(childBlocks(block), ctx);
  const text = ctx.stringify({ type: 'root', children });
  if (/^\s*(?:\{%|\$\$|<\/?details)/m.test(text)) return undefined;
  return [{ type: 'blockquote', children }];
}

function isEmptyParagraph(block: DocumentBlock): boolean {
  return (
    block.type === 'paragraph' &&
    Object.keys(block.data ?? {}).length === 0 &&
    (block.nodes ?? []).every(
      (node) => node.object === 'text' && node.leaves.every((leaf) => leaf.text === ''),
    )
  );
}

/** Blocks inside a container (an empty one holds an empty paragraph, written as nothing). */
function flow(blocks: DocumentBlock[], ctx: ToMdastContext): BlockContent[] {
  return blocks.flatMap((block) => blockToMdast(block, ctx)) as BlockContent[];
}

/** A paragraph of inline images alone, which markdown would read as an images block. */
function onlyInlineImages(block: DocumentBlock): boolean {
  const nodes = block.nodes ?? [];
  return (
    nodes.some((node) => node.object === 'inline') &&
    nodes.every((node) =>
      node.object === 'text'
        ? node.leaves.every((leaf) => leaf.text === '')
        : node.object === 'inline' && node.type === 'inline-image',
    )
  );
}

/** `# Title`; deeper headings (`data.level`, 4 to 6) as read; GitBook's anchor after the text. */
function headingToMdast(block: DocumentBlock, ctx: ToMdastContext): RootContent[] | undefined {
  const level = block.data?.level;
  let depth = Number(block.type.slice(-1));
  if (level !== undefined) {
    if (level !== 4 && level !== 5 && level !== 6) return undefined;
    depth = level;
  }
  const children = withHtmlBreaks(inlines(block.nodes, ctx));
  const id = block.data?.id;
  if (id !== undefined) {
    if (typeof id !== 'string' || !/^[-a-z0-9.+_]+$/.test(id)) return undefined;
    children.push(
      { type: 'text', value: ' ' },
      { type: 'html', value: `<a href="#${id}" id="${id}"></a>` },
    );
  }
  return [{ type: 'heading', depth: depth as Heading['depth'], children }];
}

/**
 * GitBook's lists are tight; an item is spread (a blank line between its blocks, its content
 * indented to four columns) when anything but a sublist follows its first block.
 */
function listToMdast(block: DocumentBlock, ctx: ToMdastContext): List {
  const tasks = block.type === 'list-tasks';
  const start = Number(block.data?.start ?? 1);
  const children = childBlocks(block).map((item): ListItem => {
    const checked = item.data?.checked;
    const content = flow(childBlocks(item), { ...ctx, inList: true });
    return {
      type: 'listItem',
      spread: content.some((child, i) => i > 0 && child.type !== 'list'),
      checked: tasks && typeof checked === 'boolean' ? checked : undefined,
      children: content,
    };
  });
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

/** A container written around its blocks: `open`, the blocks, `close`. */
function container(
  open: string,
  close: string,
  blocks: DocumentBlock[],
  ctx: ToMdastContext,
  blank = false,
): RootContent {
  return containerOf(open, close, flow(blocks, ctx), blank);
}

function containerOf(
  open: string,
  close: string,
  children: RootContent[],
  blank = false,
): RootContent {
  const node: GitbookContainer = {
    type: 'gitbookContainer',
    open,
    close,
    children,
    ...(blank ? { blank } : {}),
  };
  return node as unknown as RootContent;
}

/** `{% name … %}`, the blocks, `{% endname %}`. */
function tagged(
  name: string,
  attrs: Record<string, string | undefined>,
  blocks: DocumentBlock[],
  ctx: ToMdastContext,
): RootContent {
  return container(formatTag(name, attrs), `{% end${name} %}`, blocks, ctx);
}

function containerToMdast(
  block: DocumentBlock,
  name: string,
  itemName: string,
  ctx: ToMdastContext,
  itemAttrs: (item: DocumentBlock) => Record<string, string | undefined> = (item) =>
    itemName === 'tab'
      ? {
          title: stringData(item, 'title') ?? '',
          icon: stringData(item, 'icon'),
          slug: stringData(item, 'slug'),
        }
      : { width: formatLength(item.data?.width) },
  attrs: Record<string, string | undefined> = {},
): RootContent {
  const items = childBlocks(block).map((item) =>
    tagged(itemName, itemAttrs(item), childBlocks(item), ctx),
  );
  return containerOf(formatTag(name, attrs), `{% end${name} %}`, items);
}

/** `{% updates format %}` around `{% update date tags="slug,slug" %}` items. */
function updatesToMdast(block: DocumentBlock, ctx: ToMdastContext): RootContent[] | undefined {
  const items = childBlocks(block);
  const tagsOf = (item: DocumentBlock) => item.data?.tags;
  const expressible = items.every((item) => {
    const tags = tagsOf(item);
    return (
      item.type === 'update' &&
      typeof item.data?.date === 'string' &&
      (tags === undefined ||
        (Array.isArray(tags) &&
          tags.every(
            (tag: { kind?: unknown; tag?: unknown; space?: unknown }) =>
              tag?.kind === 'tag' &&
              typeof tag.tag === 'string' &&
              /^[^,\s]+$/.test(tag.tag) &&
              Object.keys(tag).length === 2,
          )))
    );
  });
  if (!expressible) return undefined;
  const itemAttrs = (item: DocumentBlock) => {
    const tags = tagsOf(item) as { tag: string }[] | undefined;
    return { date: stringData(item, 'date'), tags: tags?.map((tag) => tag.tag).join(',') };
  };
  return [
    containerToMdast(block, 'updates', 'update', ctx, itemAttrs, {
      format: stringData(block, 'format'),
    }),
  ];
}

/**
 * The target of a block's ref; undefined when the caller cannot name it, so that the block
 * takes the escape hatch and keeps its ref rather than being written with an empty target.
 */
function blockRefUrl(block: DocumentBlock, ctx: ToMdastContext): string | undefined {
  const ref = block.data?.ref;
  if (!ref || typeof ref !== 'object') return undefined;
  return ctx.refToUrl(ref as ContentRef);
}

/**
 * `{% embed url="…" %}`, closed around its caption when it has one (`{% endembed %}`), as
 * GitBook writes it.
 */
function embedToMdast(block: DocumentBlock, ctx: ToMdastContext): RootContent[] | undefined {
  const flag = block.data?.fullWidth;
  const tag = formatTag('embed', {
    url: stringData(block, 'url') ?? '',
    fullWidth: typeof flag === 'boolean' ? String(flag) : undefined,
  });
  const fragments = block.fragments ?? [];
  if (fragments.length === 0) return [html(tag)];
  const caption = captionFragment(block);
  if (!caption || fragments.length > 1) return undefined;
  return [container(tag, '{% endembed %}', caption.nodes, ctx)];
}

/** `{% file src="…" %}`, closed around the caption when there is one (as GitBook writes it). */
function fileToMdast(block: DocumentBlock, ctx: ToMdastContext): RootContent[] | undefined {
  const src = blockRefUrl(block, ctx);
  if (src === undefined) return undefined;
  const tag = formatTag('file', { src });
  const caption = stringData(block, 'caption');
  return [html(caption === undefined ? tag : `${tag}\n${caption}\n{% endfile %}`)];
}

function linkParagraph(url: string, text: string): RootContent {
  return {
    type: 'paragraph',
    children: [{ type: 'link', url, children: text ? [{ type: 'text', value: text }] : [] }],
  };
}

/**
 * `{% content-ref url="…" %}` around a link to the same target, whose text GitBook makes the
 * last segment of the path (`page.md`, `folder` for `folder/`, `.` for `./`).
 */
function contentRefToMdast(block: DocumentBlock, ctx: ToMdastContext): RootContent[] | undefined {
  const url = blockRefUrl(block, ctx);
  if (url === undefined) return undefined;
  return [
    containerOf(formatTag('content-ref', { url }), '{% endcontent-ref %}', [
      linkParagraph(url, lastSegment(url)),
    ]),
  ];
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
): RootContent[] | undefined {
  const ref = block.data?.ref as ContentRef | undefined;
  if (ref?.kind !== 'openapi' || typeof ref.spec !== 'string') return undefined;
  const attrs: Record<string, string | undefined> = { spec: ref.spec };
  for (const field of fields) {
    const value = block.data?.[field];
    if (Array.isArray(value)) attrs[field] = value.map(String).join(',');
    else if (['string', 'boolean'].includes(typeof value)) attrs[field] = String(value);
  }
  const complete = fields.every((field) => field === 'grouped' || attrs[field] !== undefined);
  if (!complete || Object.values(attrs).some((value) => value?.includes('\n'))) return undefined;
  const url = ctx.refToUrl(ref);
  const open = formatTag(block.type, attrs);
  const close = `{% end${block.type} %}`;
  if (!url) return [html(`${open}\n${close}`)];
  return [containerOf(open, close, [linkParagraph(url, `OpenAPI ${ref.spec}`)])];
}

/**
 * GitBook's OpenAPI block on a specification file or URL: `{% openapi src="…" path="…"
 * method="…" %}` around a link to the specification, named by its file, `{% endopenapi %}`.
 */
function swaggerToMdast(block: DocumentBlock, ctx: ToMdastContext): RootContent[] | undefined {
  const src = blockRefUrl(block, ctx);
  const path = stringData(block, 'path');
  const method = stringData(block, 'method');
  if (!src || path === undefined || method === undefined) return undefined;
  const flag = (name: string) =>
    typeof block.data?.[name] === 'boolean' ? String(block.data[name]) : undefined;
  const attrs = { src, path, method, expanded: flag('expanded'), fullWidth: flag('fullWidth') };
  if (Object.values(attrs).some((value) => value?.includes('\n'))) return undefined;
  return [
    containerOf(formatTag('openapi', attrs), '{% endopenapi %}', [
      linkParagraph(src, lastSegment(src)),
    ]),
  ];
}

function fragmentBlocks(block: DocumentBlock, name: string): DocumentBlock[] {
  const fragment = (block.fragments ?? []).find(
    (f: DocumentFragment) => (f.fragment ?? f.type) === name,
  );
  return fragment?.nodes ?? [];
}

/**
 * `<details>`, a `<summary>` line holding the title (as HTML, as GitBook writes it: `<strong>`,
 * `<code>`, …), the body, `</details>`, each after a blank line.
 */
function expandableToMdast(block: DocumentBlock, ctx: ToMdastContext): RootContent {
  const [title] = fragmentBlocks(block, 'expandable-title');
  const summary = title ? htmlOf(title.nodes ?? [], ctx) : '';
  const open = block.data?.defaultExpanded === true ? '<details open>' : '<details>';
  return container(
    `${open}\n\n<summary>${summary}</summary>`,
    '</details>',
    fragmentBlocks(block, 'expandable-body'),
    ctx,
    true,
  );
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

/**
 * A fenced code block, in `{% code %}` when it has options; GitBook's `<pre>` when its lines
 * hold formatting (a fence cannot), or when it has options in a list item (where GitBook
 * writes no tag).
 */
function codeToMdast(block: DocumentBlock, ctx: ToMdastContext): RootContent[] | undefined {
  const formatted = childBlocks(block).some((line) =>
    (line.nodes ?? []).some(
      (node) => node.object !== 'text' || node.leaves.some((leaf) => leaf.marks.length > 0),
    ),
  );
  const options = Object.keys(block.data ?? {}).some((key) => key !== 'syntax');
  if (formatted || (options && ctx.inList)) {
    const pre = codeToHast(block, { refToUrl: ctx.refToUrl });
    return pre ? [html(ctx.toHtml(pre))] : undefined;
  }
  return [fencedCode(block)];
}

function fencedCode(block: DocumentBlock): RootContent {
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
  return containerOf(formatTag('code', attrs), '{% endcode %}', [code]);
}

/**
 * Blocks as GitBook's HTML in a GFM table cell: each its element (`<p>` too for a paragraph
 * alone); undefined when one has no HTML form.
 */
function blocksHtmlOf(blocks: DocumentBlock[], ctx: ToMdastContext): string | undefined {
  const write = { refToUrl: ctx.refToUrl };
  const alone = blocks.length === 1 && blocks[0].type === 'paragraph';
  const children = alone
    ? inlinesToHast(blocks[0].nodes ?? [], write)
    : blocksToHast(blocks, write);
  if (!children) return undefined;
  const root: HastRoot = {
    type: 'root',
    children: alone ? [{ type: 'element', tagName: 'p', properties: {}, children }] : children,
  };
  return ctx.toHtml(root);
}

/** Inline content as GitBook's HTML (a summary, a caption). */
function htmlOf(nodes: DocumentNode[], ctx: ToMdastContext): string {
  const children = inlinesToHast(nodes, { refToUrl: ctx.refToUrl }) ?? [];
  return ctx.toHtml({ type: 'root', children });
}

function imagesToMdast(block: DocumentBlock, ctx: ToMdastContext): RootContent[] | undefined {
  const images = childBlocks(block);
  if (images.length === 0 || images.some((image) => image.type !== 'image')) return undefined;
  const inline = inlineContext(ctx);
  if (!needsFigures(block, images)) {
    const children = images.map((image): Image => ({
      type: 'image',
      url: refUrl(image.data?.ref, inline),
      alt: typeof image.data?.alt === 'string' ? image.data.alt : '',
      title: typeof image.data?.title === 'string' ? image.data.title : null,
    }));
    return [{ type: 'paragraph', children }];
  }
  const captionsFit = images.every((image) =>
    (captionFragment(image)?.nodes ?? []).every((node) => node.type === 'paragraph'),
  );
  if (!captionsFit) return undefined;
  const captionOf = (caption: DocumentFragment) =>
    caption.nodes.map((paragraph) => htmlOf(paragraph.nodes ?? [], ctx));
  return [html(figuresHtml(block, images, (ref) => refUrl(ref, inline), captionOf))];
}

function plainText(nodes: DocumentNode[]): string {
  return nodes
    .map((node) => {
      if (node.object === 'text') return node.leaves.map((l) => l.text).join('');
      return plainText(node.nodes ?? []);
    })
    .join('');
}
