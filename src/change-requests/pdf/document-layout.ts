import type {
  ContentRef,
  DocumentBlock,
  DocumentFragment,
  DocumentInline,
  DocumentNode,
  DocumentText,
  HintStyle,
  JSONDocument,
} from '../../content-engine/documents/document';

/*
 * A rich document (REFERENCE §15) as the few kinds of printed block the PDF writer knows. Pure,
 * so that what a document prints as is tested without a PDF. What a sheet of paper cannot fold
 * is laid out open (tabs one after another, expandables with their body, steps as a numbered
 * list); blocks that only an application can show (OpenAPI operations, integrations, reusable
 * contents) are left out.
 */

/** A stretch of text with one formatting. */
export interface TextRun {
  text: string;
  bold?: boolean;
  italic?: boolean;
  code?: boolean;
  strike?: boolean;
  /** An absolute URL the text links to. */
  link?: string;
  /** The text is a TeX formula (inline math), typeset when it can be. */
  math?: boolean;
}

export interface ListItem {
  /** Task lists: whether the item is done. */
  checked?: boolean;
  blocks: LayoutBlock[];
}

export type LayoutBlock =
  | { kind: 'heading'; level: 1 | 2 | 3; runs: TextRun[] }
  | { kind: 'paragraph'; runs: TextRun[] }
  | { kind: 'list'; style: 'bullet' | 'number' | 'task'; start: number; items: ListItem[] }
  | { kind: 'code'; title?: string; lines: string[] }
  | { kind: 'quote'; blocks: LayoutBlock[] }
  | { kind: 'hint'; style: HintStyle; blocks: LayoutBlock[] }
  /** A titled part of a container laid out open (a tab, an expandable, a step). */
  | { kind: 'section'; title: TextRun[]; blocks: LayoutBlock[] }
  | { kind: 'table'; header: string[] | null; rows: string[][] }
  /**
   * `file`: the id of a file of the revision, or `url`: an image on the web; `caption` is what
   * prints under it, or instead of it when it cannot be shown.
   */
  | { kind: 'image'; file?: string; url?: string; caption: string }
  /** A TeX formula shown on its own line. */
  | { kind: 'math'; formula: string }
  /** A file attachment, printed as its name. */
  | { kind: 'file'; file: string }
  | { kind: 'divider' };

export interface LayoutContext {
  /** Title of a page of the revision, for links and cards that point to one. */
  pageTitle(pageId: string): string | undefined;
}

const HEADINGS: Record<string, 1 | 2 | 3> = { 'heading-1': 1, 'heading-2': 2, 'heading-3': 3 };
const HINTS = new Set<string>(['info', 'warning', 'danger', 'success']);
/** Containers whose children print one after another, as if they were not there. */
const TRANSPARENT = new Set(['columns', 'column', 'if']);

export function layoutDocument(document: JSONDocument, ctx: LayoutContext): LayoutBlock[] {
  return layoutBlocks(document.nodes ?? [], ctx);
}

function layoutBlocks(nodes: DocumentNode[], ctx: LayoutContext): LayoutBlock[] {
  return nodes.flatMap((node) => (node.object === 'block' ? layoutBlock(node, ctx) : []));
}

function layoutBlock(block: DocumentBlock, ctx: LayoutContext): LayoutBlock[] {
  const data = block.data ?? {};
  const children = () => layoutBlocks(block.nodes ?? [], ctx);
  const heading = HEADINGS[block.type];
  if (heading) return [{ kind: 'heading', level: heading, runs: inlineRuns(block.nodes, ctx) }];
  if (TRANSPARENT.has(block.type)) return children();
  switch (block.type) {
    case 'paragraph':
      return [{ kind: 'paragraph', runs: inlineRuns(block.nodes, ctx) }];
    case 'list-unordered':
    case 'list-ordered':
    case 'list-tasks':
      return [list(block, ctx)];
    case 'code':
      return [code(block)];
    case 'blockquote':
      return [{ kind: 'quote', blocks: children() }];
    case 'hint': {
      const style = HINTS.has(String(data.style)) ? (data.style as HintStyle) : 'info';
      return [{ kind: 'hint', style, blocks: children() }];
    }
    case 'divider':
      return [{ kind: 'divider' }];
    case 'images':
      return (block.nodes ?? []).flatMap((node) =>
        node.object === 'block' && node.type === 'image' ? [image(node, ctx)] : [],
      );
    case 'image':
      return [image(block, ctx)];
    case 'drawing': {
      const file = refFile(data.ref);
      return file !== undefined ? [{ kind: 'image', file, caption: 'Drawing' }] : [];
    }
    case 'file': {
      const file = refFile(data.ref);
      if (file !== undefined) return [{ kind: 'file', file }];
      const url = refUrl(data.ref);
      return url ? [{ kind: 'paragraph', runs: [{ text: url, link: url }] }] : [];
    }
    case 'table':
      return [table(block)];
    case 'math':
      return typeof data.formula === 'string' && data.formula.trim() !== ''
        ? [{ kind: 'math', formula: data.formula }]
        : [];
    case 'embed':
      return typeof data.url === 'string'
        ? [{ kind: 'paragraph', runs: [{ text: data.url, link: data.url }] }]
        : [];
    case 'content-ref': {
      const runs = refRuns(data.ref, ctx);
      return runs.length > 0 ? [{ kind: 'paragraph', runs }] : [];
    }
    case 'expandable':
      return [
        {
          kind: 'section',
          title: fragmentRuns(block, 'expandable-title', ctx),
          blocks: layoutBlocks(fragment(block, 'expandable-body')?.nodes ?? [], ctx),
        },
      ];
    case 'tabs':
      return children();
    case 'tabs-item':
      return [
        {
          kind: 'section',
          title: typeof data.title === 'string' ? [{ text: data.title }] : [],
          blocks: children(),
        },
      ];
    case 'stepper':
      return [list(block, ctx)];
    case 'list-item':
      return children();
    default:
      // Blocks only an application shows (OpenAPI, integrations, reusable content) and any
      // unknown void block print nothing; an unknown container prints what it holds.
      return block.isVoid || !block.nodes ? [] : children();
  }
}

function list(block: DocumentBlock, ctx: LayoutContext): LayoutBlock {
  const style =
    block.type === 'list-tasks' ? 'task' : block.type === 'list-unordered' ? 'bullet' : 'number';
  const start = typeof block.data?.start === 'number' ? block.data.start : 1;
  const items = (block.nodes ?? []).flatMap((node): ListItem[] =>
    node.object === 'block'
      ? [
          {
            ...(style === 'task' ? { checked: node.data?.checked === true } : {}),
            blocks:
              node.type === 'list-item' || node.type === 'stepper-step'
                ? layoutBlocks(node.nodes ?? [], ctx)
                : layoutBlock(node, ctx),
          },
        ]
      : [],
  );
  return { kind: 'list', style, start, items };
}

function code(block: DocumentBlock): LayoutBlock {
  const lines = (block.nodes ?? []).map((line) => plainText(line));
  const title = block.data?.title;
  return typeof title === 'string' && title !== ''
    ? { kind: 'code', title, lines }
    : { kind: 'code', lines };
}

function image(block: DocumentBlock, ctx: LayoutContext): LayoutBlock {
  const data = block.data ?? {};
  const caption = fragmentRuns(block, 'caption', ctx)
    .map((run) => run.text)
    .join('')
    .trim();
  const text = caption || (typeof data.alt === 'string' ? data.alt : '');
  const file = refFile(data.ref);
  if (file !== undefined) return { kind: 'image', file, caption: text };
  const url = refUrl(data.ref);
  return url !== undefined
    ? { kind: 'image', url, caption: text }
    : { kind: 'image', caption: text };
}

function table(block: DocumentBlock): LayoutBlock {
  const data = block.data ?? {};
  const view = (data.view ?? {}) as { columns?: unknown; hideHeader?: unknown };
  const definition = (data.definition ?? {}) as Record<string, TableColumn | undefined>;
  const columnIds = Array.isArray(view.columns)
    ? view.columns.filter((id): id is string => typeof id === 'string' && id in definition)
    : Object.keys(definition);
  const columns = columnIds.map((id) => definition[id] as TableColumn);
  const records = Object.values((data.records ?? {}) as Record<string, TableRecordLike>)
    .filter((record) => record && typeof record === 'object')
    .sort((a, b) => compareOrder(a.orderIndex, b.orderIndex));
  const rows = records.map((record) =>
    columnIds.map((id, i) => cellText(record.values?.[id], columns[i], block)),
  );
  const header = view.hideHeader === true ? null : columns.map((column) => column.title ?? '');
  return { kind: 'table', header, rows };
}

interface TableColumn {
  title?: string;
  type?: string;
  options?: { value: string; label?: string }[];
}

interface TableRecordLike {
  orderIndex?: string;
  values?: Record<string, unknown>;
}

function compareOrder(a: unknown, b: unknown): number {
  const [x, y] = [String(a ?? ''), String(b ?? '')];
  return x < y ? -1 : x > y ? 1 : 0;
}

/** A cell as text: a text cell is a string or the name of a fragment of the table (rich text). */
function cellText(value: unknown, column: TableColumn, block: DocumentBlock): string {
  if (value === undefined || value === null) return '';
  switch (column.type) {
    case 'checkbox':
      return value === true ? 'Yes' : 'No';
    case 'select': {
      const values = Array.isArray(value) ? value : [value];
      return values
        .map((v) => column.options?.find((option) => option.value === v)?.label ?? String(v))
        .join(', ');
    }
    case 'number':
    case 'rating':
      return typeof value === 'number' ? String(value) : '';
    case 'files':
    case 'users':
    case 'image':
    case 'content-ref':
      return '';
    default: {
      if (typeof value !== 'string') return '';
      const rich = fragment(block, value);
      return rich ? rich.nodes.map((node) => plainText(node)).join(' ') : value;
    }
  }
}

function fragment(
  node: DocumentBlock | DocumentInline,
  name: string,
): DocumentFragment | undefined {
  return node.fragments?.find((candidate) => candidate.fragment === name);
}

function fragmentRuns(node: DocumentBlock, name: string, ctx: LayoutContext): TextRun[] {
  const found = fragment(node, name);
  if (!found) return [];
  const runs: TextRun[] = [];
  found.nodes.forEach((paragraph, i) => {
    if (i > 0) runs.push({ text: ' ' });
    runs.push(...inlineRuns(paragraph.nodes, ctx));
  });
  return runs;
}

/** The text of a node and everything under it, without formatting. */
export function plainText(node: DocumentNode): string {
  if (node.object === 'text') return (node.leaves ?? []).map((leaf) => leaf.text).join('');
  if (node.object === 'inline')
    return inlineRuns([node], NO_PAGES)
      .map((run) => run.text)
      .join('');
  return (node.nodes ?? []).map((child) => plainText(child)).join('');
}

const NO_PAGES: LayoutContext = { pageTitle: () => undefined };

/** Inline content as runs; adjacent runs of equal formatting are joined. */
export function inlineRuns(nodes: DocumentNode[] | undefined, ctx: LayoutContext): TextRun[] {
  const runs: TextRun[] = [];
  for (const node of nodes ?? []) {
    for (const run of nodeRuns(node, ctx)) {
      const last = runs[runs.length - 1];
      if (run.text === '') continue;
      if (last && sameFormat(last, run)) last.text += run.text;
      else runs.push({ ...run });
    }
  }
  return runs;
}

function nodeRuns(node: DocumentNode, ctx: LayoutContext): TextRun[] {
  if (node.object === 'text') return textRuns(node);
  if (node.object === 'block') return inlineRuns(node.nodes, ctx);
  return inline(node, ctx);
}

function textRuns(text: DocumentText): TextRun[] {
  return (text.leaves ?? []).map((leaf) => {
    const run: TextRun = { text: leaf.text ?? '' };
    for (const mark of leaf.marks ?? []) {
      if (mark.type === 'bold') run.bold = true;
      else if (mark.type === 'italic') run.italic = true;
      else if (mark.type === 'code' || mark.type === 'keyboard') run.code = true;
      else if (mark.type === 'strikethrough') run.strike = true;
    }
    return run;
  });
}

function inline(node: DocumentInline, ctx: LayoutContext): TextRun[] {
  const data = node.data ?? {};
  switch (node.type) {
    case 'link': {
      const runs = inlineRuns(node.nodes, ctx);
      const url = refUrl(data.ref);
      const text = runs.length > 0 ? runs : refRuns(data.ref, ctx);
      return url ? text.map((run) => ({ ...run, link: url })) : text;
    }
    case 'inline-image':
      return typeof data.alt === 'string' && data.alt !== '' ? [{ text: data.alt }] : [];
    case 'inline-math':
      return typeof data.formula === 'string'
        ? [{ text: data.formula, code: true, math: true }]
        : [];
    case 'button':
      return typeof data.label === 'string' ? [{ text: data.label }] : [];
    case 'mention':
      return refRuns(data.ref, ctx);
    case 'emoji':
      return emoji(data.code);
    default:
      // Annotations, expressions and unknown inlines: their text, when they have any.
      return inlineRuns(node.nodes, ctx);
  }
}

/** `code` is the hexadecimal code point(s) of the emoji, joined by `-`. */
function emoji(code: unknown): TextRun[] {
  if (typeof code !== 'string' || !/^[0-9a-f]{1,6}(-[0-9a-f]{1,6})*$/i.test(code)) return [];
  try {
    return [{ text: String.fromCodePoint(...code.split('-').map((part) => parseInt(part, 16))) }];
  } catch {
    return [];
  }
}

function sameFormat(a: TextRun, b: TextRun): boolean {
  return (
    !!a.bold === !!b.bold &&
    !!a.italic === !!b.italic &&
    !!a.code === !!b.code &&
    !!a.strike === !!b.strike &&
    !a.math &&
    !b.math &&
    a.link === b.link
  );
}

function asRef(ref: unknown): ContentRef | undefined {
  return ref && typeof ref === 'object' && typeof (ref as { kind?: unknown }).kind === 'string'
    ? (ref as ContentRef)
    : undefined;
}

function refFile(ref: unknown): string | undefined {
  const content = asRef(ref);
  return content?.kind === 'file' && typeof content.file === 'string' ? content.file : undefined;
}

function refUrl(ref: unknown): string | undefined {
  const content = asRef(ref);
  return content?.kind === 'url' &&
    typeof content.url === 'string' &&
    /^https?:\/\//i.test(content.url)
    ? content.url
    : undefined;
}

/** What a reference prints as on its own (a card, a mention, a link without text). */
function refRuns(ref: unknown, ctx: LayoutContext): TextRun[] {
  const content = asRef(ref);
  if (!content) return [];
  if (content.kind === 'url' && typeof content.url === 'string') {
    const url = refUrl(content);
    return [url ? { text: content.url, link: url } : { text: content.url }];
  }
  if (content.kind === 'page' && typeof content.page === 'string') {
    return [{ text: ctx.pageTitle(content.page) ?? 'Page' }];
  }
  return [];
}

/** The ids of the files a layout shows as images, in order, once each. */
export function imageFiles(blocks: LayoutBlock[]): string[] {
  const found = new Set<string>();
  visitBlocks(blocks, (block) => {
    if (block.kind === 'image' && block.file !== undefined) found.add(block.file);
  });
  return [...found];
}

/** The URLs of the web images a layout shows, in order, once each. */
export function imageUrls(blocks: LayoutBlock[]): string[] {
  const found = new Set<string>();
  visitBlocks(blocks, (block) => {
    if (block.kind === 'image' && block.url !== undefined) found.add(block.url);
  });
  return [...found];
}

/** The formulas of a layout, with whether each is shown on its own line (display) or inline. */
export function mathFormulas(blocks: LayoutBlock[]): { formula: string; display: boolean }[] {
  const found = new Map<string, { formula: string; display: boolean }>();
  const add = (formula: string, display: boolean) =>
    found.set(`${display ? 'd' : 'i'}${formula}`, { formula, display });
  const runs = (list: TextRun[]) => list.forEach((run) => run.math && add(run.text, false));
  visitBlocks(blocks, (block) => {
    if (block.kind === 'math') add(block.formula, true);
    if (block.kind === 'paragraph' || block.kind === 'heading') runs(block.runs);
    if (block.kind === 'section') runs(block.title);
  });
  return [...found.values()];
}

function visitBlocks(blocks: LayoutBlock[], visit: (block: LayoutBlock) => void): void {
  for (const block of blocks) {
    visit(block);
    if (block.kind === 'list') block.items.forEach((item) => visitBlocks(item.blocks, visit));
    if (block.kind === 'quote' || block.kind === 'hint' || block.kind === 'section') {
      visitBlocks(block.blocks, visit);
    }
  }
}
