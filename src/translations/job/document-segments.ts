import type {
  DocumentBlock,
  DocumentFragment,
  DocumentInline,
  DocumentLeaf,
  DocumentMark,
  DocumentNode,
  DocumentText,
  JSONDocument,
} from '../../content-engine/documents/document';
import type { Segment, Tag, Token } from './segment';

/**
 * The text of a document that a translation changes, cut into whole segments: one per block of
 * text (a paragraph, a heading, a list item's paragraph, a table cell's paragraph, a caption, a
 * hint's text), plus the plain strings that are text too (image alt text, tab titles, table
 * column titles and plain cells, button labels, inline images' alt text). Inside a block, marks
 * and links are paired tags and what is not translated (inline code, variables, mentions,
 * emojis, icons, buttons, inline images, math, URL-only text) are atoms, so a translator can
 * reorder words across them (segment.ts). Code blocks, math, API blocks and integrations are
 * skipped whole; node data other than those strings is never touched.
 */

const SKIPPED_BLOCKS = new Set([
  'code',
  'math',
  'swagger',
  'openapi-operation',
  'openapi-schemas',
  'openapi-webhook',
  'integration',
]);

/** Inlines kept as they are (atoms); every other inline with text is a paired tag. */
const ATOM_INLINES = new Set([
  'expression',
  'inline-math',
  'mention',
  'emoji',
  'icon',
  'button',
  'inline-image',
]);

const ATOM_MARKS = new Set(['code', 'keyboard']);

const URL_ONLY = /^(?:[a-z][a-z0-9+.-]*:\/\/|www\.|mailto:)\S*$/i;
const LETTER = /\p{L}/u;

/** Whether `text` (trimmed) is worth sending to a translator. */
export function isTranslatable(text: string): boolean {
  return LETTER.test(text) && !URL_ONLY.test(text);
}

/** Words of `text`, as the statistics count them (runs of non-space characters). */
export function countWords(text: string): number {
  return text.match(/\S+/g)?.length ?? 0;
}

/** Where a segment sits: keys from the document (or page) down to the block or string. */
export type SegmentPath = (string | number)[];

/** A block's inline content, or a string: what one segment becomes in the document. */
export type SegmentValue = (DocumentText | DocumentInline)[] | string;

/** One segment of a document, with how to read and write its place in a copy. */
export interface DocumentSlot {
  path: SegmentPath;
  segment: Segment;
}

/** A document's segments, and how to make the translated document from their values. */
export interface DocumentSegments {
  slots: DocumentSlot[];
  /**
   * A copy of the document with `values[i]` in place of slot i (null keeps the source there).
   * Values come from `restore` (segment.ts) or from the result a translator edited.
   */
  apply(values: readonly (SegmentValue | null)[]): JSONDocument;
}

interface LiveSlot extends DocumentSlot {
  write(value: SegmentValue): void;
}

export function documentSegments(document: JSONDocument): DocumentSegments {
  const slots = collectSlots(document);
  return {
    slots: slots.map(({ path, segment }) => ({ path, segment })),
    apply: (values) => {
      if (values.length !== slots.length) {
        throw new Error(`Expected ${slots.length} segment values, got ${values.length}`);
      }
      const result = structuredClone(document);
      const live = collectSlots(result);
      // Last first: a slot inside an inline (an annotation's body, an inline image's alt) is
      // written before the block that holds that inline is rebuilt from it.
      for (let index = live.length - 1; index >= 0; index--) {
        const value = values[index];
        if (value !== null) live[index].write(value);
      }
      return result;
    },
  };
}

/** The value at `path` in `document` (a block's inline nodes, or a string); null if none. */
export function valueAt(document: JSONDocument, path: SegmentPath): SegmentValue | null {
  let node: unknown = document;
  for (const key of path) {
    if (node === null || typeof node !== 'object') return null;
    node = (node as Record<string | number, unknown>)[key];
  }
  if (typeof node === 'string') return node;
  if (node && typeof node === 'object' && Array.isArray((node as DocumentBlock).nodes)) {
    const nodes = (node as DocumentBlock).nodes as DocumentNode[];
    if (nodes.every((child) => child.object !== 'block')) {
      return nodes as (DocumentText | DocumentInline)[];
    }
  }
  return null;
}

function collectSlots(document: JSONDocument): LiveSlot[] {
  const slots: LiveSlot[] = [];
  visitBlocks(document.nodes as DocumentBlock[], ['nodes'], slots);
  return slots;
}

function visitBlocks(nodes: readonly DocumentNode[], path: SegmentPath, slots: LiveSlot[]): void {
  nodes.forEach((node, index) => {
    if (node.object !== 'block') return;
    visitBlock(node, [...path, index], slots);
  });
}

function visitBlock(block: DocumentBlock, path: SegmentPath, slots: LiveSlot[]): void {
  if (SKIPPED_BLOCKS.has(block.type)) return;
  const data = block.data ?? {};
  if (block.type === 'image' || block.type === 'tabs-item') {
    const key = block.type === 'image' ? 'alt' : 'title';
    stringSlot(data, key, [...path, 'data', key], slots);
    if (block.type === 'image') stringSlot(data, 'caption', [...path, 'data', 'caption'], slots);
  }
  const children = block.nodes ?? [];
  if (children.some((child) => child.object === 'block')) {
    visitBlocks(children, [...path, 'nodes'], slots);
  } else if (children.length > 0) {
    inlineSlot(block, path, slots);
  }
  visitFragments(block.fragments, path, slots);
  if (block.type === 'table') tableSlots(block, path, slots);
}

function visitFragments(
  fragments: DocumentFragment[] | undefined,
  path: SegmentPath,
  slots: LiveSlot[],
): void {
  (fragments ?? []).forEach((fragment, index) => {
    visitBlocks(fragment.nodes ?? [], [...path, 'fragments', index, 'nodes'], slots);
  });
}

/** Column titles, and cells of text columns that are plain strings (not a fragment's name). */
function tableSlots(block: DocumentBlock, path: SegmentPath, slots: LiveSlot[]): void {
  const data = block.data as {
    definition?: Record<string, { title?: unknown; type?: unknown }>;
    records?: Record<string, { values?: Record<string, unknown> }>;
  };
  const fragmentNames = new Set((block.fragments ?? []).map((fragment) => fragment.fragment));
  const textColumns = new Set<string>();
  for (const [id, column] of Object.entries(data.definition ?? {})) {
    if (!column || typeof column !== 'object') continue;
    stringSlot(column, 'title', [...path, 'data', 'definition', id, 'title'], slots);
    if (column.type === 'text') textColumns.add(id);
  }
  for (const [recordId, record] of Object.entries(data.records ?? {})) {
    const values = record?.values;
    if (!values || typeof values !== 'object') continue;
    for (const column of textColumns) {
      const value = values[column];
      if (typeof value !== 'string' || fragmentNames.has(value)) continue;
      stringSlot(values, column, [...path, 'data', 'records', recordId, 'values', column], slots);
    }
  }
}

/** A plain string (`holder[key]`) as a segment of one text token, its outer space kept. */
function stringSlot(
  holder: Record<string, unknown>,
  key: string,
  path: SegmentPath,
  slots: LiveSlot[],
): void {
  const value = holder[key];
  if (typeof value !== 'string' || !isTranslatable(value.trim())) return;
  const segment = textSegment(value);
  slots.push({
    path,
    segment,
    write: (translated) => {
      if (typeof translated === 'string') holder[key] = translated;
    },
  });
}

/** A segment of plain text: one token, white space around it kept aside. */
export function textSegment(value: string): Segment {
  const lead = value.slice(0, value.length - value.trimStart().length);
  const trail = value.slice(value.trimEnd().length);
  return {
    kind: 'text',
    tokens: [{ t: 'text', text: value.trim() }],
    tags: new Map(),
    lead,
    trail,
  };
}

/** A block of text as one segment; nothing when it holds no text worth translating. */
function inlineSlot(block: DocumentBlock, path: SegmentPath, slots: LiveSlot[]): void {
  const tags = new Map<number, Tag>();
  const tokens: Token[] = [];
  const nested: LiveSlot[] = [];
  inlineTokens(block.nodes as (DocumentText | DocumentInline)[], path, tokens, tags, nested);
  const text = tokens.map((token) => (token.t === 'text' ? token.text : ' ')).join('');
  if (isTranslatable(text.trim())) {
    let lead = '';
    let trail = '';
    const first = tokens[0];
    if (first?.t === 'text') {
      lead = first.text.slice(0, first.text.length - first.text.trimStart().length);
      first.text = first.text.slice(lead.length);
    }
    const last = tokens[tokens.length - 1];
    if (last?.t === 'text') {
      trail = last.text.slice(last.text.trimEnd().length);
      last.text = last.text.slice(0, last.text.length - trail.length);
    }
    const textKeys: string[] = [];
    const keysOf = (nodes: readonly DocumentNode[]) => {
      for (const node of nodes) {
        if (node.object === 'text' && node.key) textKeys.push(node.key);
        else if (node.object === 'inline' && !ATOM_INLINES.has(node.type)) keysOf(node.nodes ?? []);
      }
    };
    keysOf(block.nodes ?? []);
    slots.push({
      path,
      segment: { kind: 'block', tokens: tokens.filter(nonEmpty), tags, lead, trail, textKeys },
      write: (value) => {
        if (Array.isArray(value)) block.nodes = value;
      },
    });
  }
  slots.push(...nested);
}

const nonEmpty = (token: Token): boolean => token.t !== 'text' || token.text !== '';

/** Tokens of inline content: text, mark and inline tags, atoms; fills `tags`. */
function inlineTokens(
  nodes: readonly (DocumentText | DocumentInline)[],
  path: SegmentPath,
  tokens: Token[],
  tags: Map<number, Tag>,
  nested: LiveSlot[],
): void {
  const next = () => tags.size + 1;
  nodes.forEach((node, index) => {
    const nodePath = [...path, 'nodes', index];
    if (node.object === 'text') {
      leafTokens(node.leaves ?? [], tokens, tags);
      return;
    }
    if (node.object !== 'inline') return;
    if (ATOM_INLINES.has(node.type) || node.isVoid || !node.nodes) {
      const id = next();
      tags.set(id, { kind: 'node', node });
      tokens.push({ t: 'atom', id });
      if (node.type === 'inline-image' && node.data) {
        stringSlot(node.data, 'alt', [...nodePath, 'data', 'alt'], nested);
      }
      if (node.type === 'button' && node.data) {
        stringSlot(node.data, 'label', [...nodePath, 'data', 'label'], nested);
      }
      return;
    }
    const id = next();
    tags.set(id, { kind: 'inline', node });
    tokens.push({ t: 'open', id });
    inlineTokens(node.nodes, nodePath, tokens, tags, nested);
    tokens.push({ t: 'close', id });
    visitFragments(node.fragments, nodePath, nested);
  });
}

/**
 * Leaves as text and mark tags, nested as in HTML: a mark that goes on over several leaves is
 * one tag; code and keyboard leaves and URL-only text are atoms.
 */
function leafTokens(
  leaves: readonly DocumentLeaf[],
  tokens: Token[],
  tags: Map<number, Tag>,
): void {
  const open: { id: number; mark: DocumentMark }[] = [];
  const closeFrom = (depth: number) => {
    while (open.length > depth) tokens.push({ t: 'close', id: open.pop()!.id });
  };
  for (const leaf of leaves) {
    if (typeof leaf.text !== 'string' || leaf.text === '') continue;
    const marks = leaf.marks ?? [];
    if (marks.some((mark) => ATOM_MARKS.has(mark.type)) || URL_ONLY.test(leaf.text.trim())) {
      closeFrom(0);
      const id = tags.size + 1;
      tags.set(id, { kind: 'leaf', leaf });
      tokens.push({ t: 'atom', id });
      continue;
    }
    let depth = 0;
    while (depth < open.length && marks.some((mark) => sameMark(mark, open[depth].mark))) depth++;
    closeFrom(depth);
    for (const mark of marks) {
      if (open.some((entry) => sameMark(entry.mark, mark))) continue;
      const id = tags.size + 1;
      tags.set(id, { kind: 'mark', mark });
      open.push({ id, mark });
      tokens.push({ t: 'open', id });
    }
    const last = tokens[tokens.length - 1];
    if (last?.t === 'text') last.text += leaf.text;
    else tokens.push({ t: 'text', text: leaf.text });
  }
  closeFrom(0);
}

function sameMark(a: DocumentMark, b: DocumentMark): boolean {
  return a.type === b.type && JSON.stringify(a.data ?? null) === JSON.stringify(b.data ?? null);
}
