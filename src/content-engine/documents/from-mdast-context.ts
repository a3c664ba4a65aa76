import type { Root as HastRoot } from 'hast';
import type { Definition, FootnoteDefinition, Image, PhrasingContent, RootContent } from 'mdast';
import type { DocumentBlock } from './document';
import { InlineToken, restoreText } from './inline-syntax';

/*
 * What converting mdast to document nodes needs throughout (from-mdast.ts for blocks,
 * inlines-from-mdast.ts for inlines, tables.ts for tables), kept apart so that those modules
 * do not import one another in a circle: block content inside inlines (footnote bodies) goes
 * through `flow`.
 */
export interface FromMdastContext {
  newKey: () => string;
  definitions: Map<string, Definition>;
  footnotes: Map<string, FootnoteDefinition>;
  /** Inline math and emoji found before parsing (inline-syntax.ts). */
  tokens: InlineToken[];
  /** The parsed source, for raw content between HTML tags. */
  source: string;
  /** Parses GitBook's HTML forms (html-forms.ts). */
  parseHtml: (html: string) => HastRoot;
  /** Where to note the lines of the blocks read (top-level ones: markdown-source.ts). */
  lines?: { of: Map<DocumentBlock, [number, number]>; offset: number };
  /** Blocks of another piece of markdown (figure captions). */
  blocksOf: (markdown: string) => DocumentBlock[];
  /** Blocks of a piece of markdown with block tags (list items); at least a paragraph. */
  documentBlocksOf: (markdown: string) => DocumentBlock[];
  /** Blocks of mdast flow content, at least an empty paragraph (footnote bodies). */
  flow: (nodes: RootContent[], ctx: FromMdastContext) => DocumentBlock[];
  /** Footnotes being converted, against definitions that refer to themselves. */
  openFootnotes?: Set<string>;
}

export function block(
  ctx: FromMdastContext,
  type: string,
  nodes: DocumentBlock['nodes'],
  data: Record<string, unknown> = {},
): DocumentBlock {
  return { object: 'block', key: ctx.newKey(), type, data, nodes };
}

export function isHtmlComment(html: string): boolean {
  return /^<!--[\s\S]*-->$/.test(html.trim());
}

/** Fresh keys for a node read from the escape hatch (keys must be unique in a document). */
export function rekey<T>(value: T, newKey: () => string): T {
  if (Array.isArray(value)) return value.map((item: unknown) => rekey(item, newKey)) as T;
  if (!value || typeof value !== 'object') return value;
  const node = value as Record<string, unknown>;
  const isNode = ['block', 'inline', 'text', 'fragment'].includes(String(node.object));
  const entries = Object.entries(node)
    .filter(([field]) => field !== 'key')
    .map(([field, child]) => [field, field === 'data' ? child : rekey(child, newKey)]);
  return Object.fromEntries(isNode ? [['key', newKey()], ...entries] : entries) as T;
}

export function asImage(node: PhrasingContent, ctx: FromMdastContext): Image | undefined {
  const restore = (image: Image): Image => ({
    ...image,
    url: restoreText(image.url, ctx.tokens),
    alt: image.alt ? restoreText(image.alt, ctx.tokens) : image.alt,
    title: image.title ? restoreText(image.title, ctx.tokens) : image.title,
  });
  if (node.type === 'image') return restore(node);
  if (node.type !== 'imageReference') return undefined;
  const definition = ctx.definitions.get(node.identifier);
  if (!definition) return undefined;
  return restore({ type: 'image', url: definition.url, alt: node.alt, title: definition.title });
}
