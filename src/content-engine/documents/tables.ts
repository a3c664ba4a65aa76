import type { AlignType, PhrasingContent, Table, TableCell, TableRow } from 'mdast';
import {
  DocumentBlock,
  DocumentFragment,
  DocumentNode,
  TableGridView,
  TableRecord,
  TableTextColumn,
} from './document';
import { block, FromMdastContext } from './from-mdast-context';
import { restoreRaw, restoreText } from './inline-syntax';
import { blocksFromHast } from './html-forms';
import type { ElementContent } from 'hast';
import { inlinesFromMdast } from './inlines-from-mdast';
import { compareOrderIndex, orderIndex } from './order-index';

/*
 * GFM tables and GitBook's table blocks. A GitBook text column holds, per record, the name of
 * a fragment of the table block whose blocks are the cell's content (that is what GitBook's
 * renderer reads); a cell read from markdown is such a fragment with one paragraph, so cells
 * keep their marks, links and images. A plain string value that names no fragment is written
 * as text. Column titles are plain strings in GitBook: formatting in a header cell is dropped.
 * A table markdown cannot express (other column types, cards, hidden headers, column widths,
 * cells of several blocks) has no GFM form; to-mdast.ts writes it through the escape hatch.
 */

export function tableFromMdast(node: Table, ctx: FromMdastContext): DocumentBlock {
  const [header, ...rows] = node.children;
  const headerCells = header?.children ?? [];
  const columns: TableTextColumn[] = headerCells.map((cell, i) => ({
    id: ctx.newKey(),
    title: restoreText(plainText(cell.children), ctx.tokens).trim(),
    type: 'text',
    textAlignment: node.align?.[i] ?? 'left',
  }));
  const records: Record<string, TableRecord> = {};
  const fragments: DocumentFragment[] = [];
  rows.forEach((row, i) => {
    const values: Record<string, string> = {};
    columns.forEach((column, c) => {
      values[column.id] = cellValue(row.children[c], fragments, ctx);
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
    fragments,
  };
}

/** The blocks a GFM table cell holds, as GitBook's HTML when not one paragraph of one line. */
const CELL_BLOCKS = new Set(['paragraph', 'list-unordered', 'list-ordered']);

/** An empty cell is ''; any other is the name of a new fragment holding its paragraph. */
function cellValue(
  cell: TableCell | undefined,
  fragments: DocumentFragment[],
  ctx: FromMdastContext,
): string {
  if (!cell || cell.children.length === 0) return '';
  const name = ctx.newKey();
  // A cell of lines is GitBook's `<p>…<br>…</p>`, HTML (html-forms.ts).
  const { start, end } = cell.position ?? {};
  const raw =
    start?.offset !== undefined && end?.offset !== undefined
      ? restoreRaw(ctx.source.slice(start.offset, end.offset), ctx.tokens)
          .replace(/^\|?\s*/, '')
          .replace(/\s*\|?$/, '')
      : '';
  if (/^<(?:p|ul|ol)>[\s\S]*<\/(?:p|ul|ol)>$/i.test(raw)) {
    const nodes = blocksFromHast(ctx.parseHtml(raw).children as ElementContent[], ctx);
    if (nodes.length > 0 && nodes.every((node) => CELL_BLOCKS.has(node.type))) {
      fragments.push({ object: 'fragment', key: ctx.newKey(), fragment: name, nodes });
      return name;
    }
  }
  const paragraph = block(ctx, 'paragraph', inlinesFromMdast(cell.children, ctx));
  fragments.push({ object: 'fragment', key: ctx.newKey(), fragment: name, nodes: [paragraph] });
  return name;
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

const VIEW_KEYS = new Set(['type', 'columns', 'hideHeader']);
const TABLE_KEYS = new Set(['view', 'records', 'definition']);
const COLUMN_KEYS = new Set(['id', 'title', 'type', 'textAlignment']);

/**
 * The GFM table of a table block, or undefined when it has no GFM form. `cell` writes a cell
 * fragment's paragraph (table cells hold no blocks).
 */
export function tableToMdast(
  table: DocumentBlock,
  phrasing: (nodes: DocumentNode[]) => PhrasingContent[],
  blocksHtml: (blocks: DocumentBlock[]) => string | undefined,
): Table | undefined {
  const data = table.data ?? {};
  const definition = (data.definition ?? {}) as Record<string, Record<string, unknown>>;
  const view = (data.view ?? {}) as { type?: string; columns?: string[]; hideHeader?: boolean };
  const columns = view.columns ?? [];
  const expressible =
    Object.keys(data).every((key) => TABLE_KEYS.has(key)) &&
    view.type === 'grid' &&
    view.hideHeader !== true &&
    Object.keys(view).every((key) => VIEW_KEYS.has(key)) &&
    columns.length > 0 &&
    columns.length === Object.keys(definition).length &&
    columns.every(
      (id) =>
        definition[id]?.type === 'text' &&
        definition[id].id === id &&
        typeof definition[id].title === 'string' &&
        Object.keys(definition[id]).every((key) => COLUMN_KEYS.has(key)),
    );
  if (!expressible) return undefined;
  const fragments = new Map((table.fragments ?? []).map((f) => [f.fragment, f]));
  const records = Object.values((data.records ?? {}) as Record<string, TableRecord>).sort((a, b) =>
    compareOrderIndex(a.orderIndex, b.orderIndex),
  );
  const cells: PhrasingContent[][][] = [];
  for (const record of records) {
    const row: PhrasingContent[][] = [];
    for (const id of columns) {
      const value = record.values?.[id];
      if (value === undefined || value === null || value === '') row.push([]);
      else if (typeof value === 'number' || typeof value === 'boolean') {
        row.push(textCell(String(value)));
      } else if (typeof value !== 'string') return undefined;
      else {
        const fragment = fragments.get(value);
        if (!fragment) row.push(textCell(value));
        else {
          const content = cellContent(fragment.nodes, phrasing, blocksHtml);
          if (!content) return undefined;
          row.push(content);
        }
      }
    }
    cells.push(row);
  }
  const row = (contents: PhrasingContent[][]): TableRow => ({
    type: 'tableRow',
    children: contents.map((children): TableCell => ({ type: 'tableCell', children })),
  });
  const header = row(columns.map((id) => textCell(String(definition[id].title))));
  const align = columns.map((id) => alignment(definition[id].textAlignment));
  return { type: 'table', align, children: [header, ...cells.map(row)] };
}

/**
 * A cell's blocks: one paragraph of one line is its markdown; several paragraphs and lists, or
 * one paragraph of several lines, are GitBook's `<p>…</p><p>…<br>…</p><ul>…</ul>`. Undefined for
 * other blocks (an HTML table holds them).
 */
function cellContent(
  blocks: DocumentBlock[],
  phrasing: (nodes: DocumentNode[]) => PhrasingContent[],
  blocksHtml: (blocks: DocumentBlock[]) => string | undefined,
): PhrasingContent[] | undefined {
  if (blocks.length === 0 || blocks.some((block) => !CELL_BLOCKS.has(block.type))) {
    return undefined;
  }
  const [first] = blocks;
  const lines = (first.nodes ?? []).some(
    (node) => node.object === 'text' && node.leaves.some((leaf) => leaf.text.includes('\n')),
  );
  if (blocks.length === 1 && first.type === 'paragraph' && !lines) {
    if (Object.keys(first.data ?? {}).length > 0) return undefined;
    return withHtmlBreaks(phrasing(first.nodes ?? []));
  }
  const html = blocksHtml(blocks);
  return html === undefined ? undefined : [{ type: 'html', value: html }];
}

function textCell(text: string): PhrasingContent[] {
  return text === '' ? [] : [{ type: 'text', value: text.replace(/\s*\n\s*/g, ' ') }];
}

function alignment(textAlignment: unknown): AlignType {
  return textAlignment === 'center' || textAlignment === 'right' ? textAlignment : null;
}

/** A table row or a heading is one line: hard breaks in it are `<br>`. */
export function withHtmlBreaks(nodes: PhrasingContent[]): PhrasingContent[] {
  return nodes.map((node): PhrasingContent => {
    if (node.type === 'break') return { type: 'html', value: '<br>' };
    if ('children' in node) {
      return { ...node, children: withHtmlBreaks(node.children) } as PhrasingContent;
    }
    return node;
  });
}
