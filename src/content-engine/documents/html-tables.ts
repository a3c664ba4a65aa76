import type { Element, ElementContent, Properties } from 'hast';
import type { ContentRef, DocumentBlock, DocumentFragment, TableRecord } from './document';
import {
  blocksFromHast,
  blocksToHast,
  element,
  hastText,
  HtmlReadContext,
  HtmlWriteContext,
} from './html-forms';
import { lastSegment } from './link-labels';
import { compareOrderIndex, orderIndex } from './order-index';

/*
 * GitBook's HTML tables: what a GFM table cannot say (cards, column widths and vertical
 * alignment, column types, hidden headers, full width, search, cells of several blocks) GitBook
 * writes as `<table>`:
 *
 *   <table data-card-size="large" data-view="cards" data-header-hidden data-full-width="false"
 *     data-search="false"><thead><tr><th width="120" align="center" valign="top" data-hidden
 *     data-card-target data-card-cover data-type="content-ref">Title</th>…</tr></thead>
 *   <tbody><tr><td align="center" valign="top">cell</td>…</tr></tbody></table>
 *
 * on one line. Every column of the definition has a `<th>`: those the view shows, in its order,
 * then the others, `data-hidden` (a card's target, then its covers, as GitBook writes them). A text cell holds its
 * fragment's blocks as HTML (html-forms.ts), a content-ref cell a link `<a href>` whose text is
 * the last segment of its path (as in `{% content-ref %}`), a files cell a link per file, a
 * checkbox `true` or `false`, a number its digits.
 */

type Definition = Record<string, unknown> & { id: string; title: string; type: string };

const READ_TYPES = new Set(['text', 'number', 'checkbox', 'content-ref', 'files', 'image']);

function children(node: Element, tagName: string): Element[] {
  return node.children.filter(
    (child): child is Element => child.type === 'element' && child.tagName === tagName,
  );
}

function flag(node: Element, name: string): boolean {
  const value = node.properties[name];
  return value !== undefined && value !== null && value !== false;
}

function stringProperty(node: Element, name: string): string | undefined {
  const value = node.properties[name];
  return value === undefined || value === null || value === false ? undefined : String(value);
}

function booleanProperty(node: Element, name: string): boolean | undefined {
  const value = stringProperty(node, name);
  return value === 'true' ? true : value === 'false' ? false : undefined;
}

function links(cell: Element): Element[] {
  const found: Element[] = [];
  const visit = (nodes: readonly ElementContent[]) =>
    nodes.forEach((node) => {
      if (node.type !== 'element') return;
      if (node.tagName === 'a') found.push(node);
      else visit(node.children);
    });
  visit(cell.children);
  return found;
}

/** A `<table>` as a table block; undefined when it is not one of GitBook's. */
export function tableFromHast(table: Element, ctx: HtmlReadContext): DocumentBlock | undefined {
  const head = children(table, 'thead')[0];
  const body = children(table, 'tbody')[0];
  const headers = head ? children(children(head, 'tr')[0] ?? head, 'th') : [];
  if (headers.length === 0) return undefined;
  const definition: Record<string, Definition> = {};
  const columns: string[] = [];
  const columnWidths: Record<string, number> = {};
  let target: string | undefined;
  let cover: string | undefined;
  let coverDark: string | undefined;
  for (const th of headers) {
    const id = ctx.newKey();
    const type = stringProperty(th, 'dataType') ?? 'text';
    if (!READ_TYPES.has(type)) return undefined;
    const column: Definition = { id, title: hastText(th.children), type };
    if (type === 'text') {
      const align = stringProperty(th, 'align');
      column.textAlignment = align === 'center' || align === 'right' ? align : 'left';
      const valign = stringProperty(th, 'vAlign');
      if (valign !== undefined) column.verticalAlignment = valign;
    }
    definition[id] = column;
    const width = Number(stringProperty(th, 'width'));
    if (stringProperty(th, 'width') !== undefined && Number.isFinite(width)) {
      columnWidths[id] = width;
    }
    if (!flag(th, 'dataHidden')) columns.push(id);
    if (flag(th, 'dataCardTarget')) target = id;
    if (flag(th, 'dataCardCover')) cover = id;
    if (flag(th, 'dataCardCoverDark')) coverDark = id;
  }
  const ids = Object.keys(definition);
  const fragments: DocumentFragment[] = [];
  const records: Record<string, TableRecord> = {};
  (body ? children(body, 'tr') : []).forEach((row, i) => {
    const cells = children(row, 'td');
    const values: Record<string, unknown> = {};
    ids.forEach((id, c) => {
      values[id] = cellValue(definition[id].type, cells[c], fragments, ctx);
    });
    records[ctx.newKey()] = { orderIndex: orderIndex(i), values };
  });
  const cards = stringProperty(table, 'dataView') === 'cards';
  const view: Record<string, unknown> = cards
    ? {
        type: 'cards',
        columns,
        cardSize: stringProperty(table, 'dataCardSize') === 'large' ? 'large' : 'medium',
        ...(target !== undefined ? { targetDefinition: target } : {}),
        ...(cover !== undefined ? { coverDefinition: cover } : {}),
        ...(coverDark !== undefined ? { coverDefinitionDark: coverDark } : {}),
      }
    : {
        type: 'grid',
        columns,
        ...(Object.keys(columnWidths).length > 0 ? { columnWidths, useNewSizing: true } : {}),
        hideHeader: flag(table, 'dataHeaderHidden'),
      };
  const data: Record<string, unknown> = { view, records, definition };
  const fullWidth = booleanProperty(table, 'dataFullWidth');
  if (fullWidth !== undefined) data.fullWidth = fullWidth;
  const search = booleanProperty(table, 'dataSearch');
  if (search !== undefined) data.search = search;
  return { object: 'block', key: ctx.newKey(), type: 'table', data, isVoid: true, fragments };
}

function cellValue(
  type: string,
  cell: Element | undefined,
  fragments: DocumentFragment[],
  ctx: HtmlReadContext,
): unknown {
  if (!cell) return '';
  const text = hastText(cell.children);
  switch (type) {
    case 'text': {
      const blocks = blocksFromHast(cell.children, ctx);
      if (blocks.length === 0) return '';
      const name = ctx.newKey();
      fragments.push({ object: 'fragment', key: ctx.newKey(), fragment: name, nodes: blocks });
      return name;
    }
    case 'number': {
      const value = Number(text);
      return text.trim() === '' ? '' : Number.isFinite(value) ? value : text;
    }
    case 'checkbox':
      return text === 'true' ? true : text === 'false' ? false : '';
    case 'files':
      return links(cell).map((a): ContentRef => ({ kind: 'url', url: String(a.properties.href) }));
    default: {
      const [link] = links(cell);
      return link ? { kind: 'url', url: String(link.properties.href ?? '') } : '';
    }
  }
}

const TABLE_KEYS = new Set(['view', 'records', 'definition', 'fullWidth', 'search']);
const GRID_KEYS = new Set(['type', 'columns', 'columnWidths', 'hideHeader', 'useNewSizing']);
const CARDS_KEYS = new Set([
  'type',
  'columns',
  'cardSize',
  'targetDefinition',
  'coverDefinition',
  'coverDefinitionDark',
]);
const COLUMN_KEYS: Record<string, Set<string>> = {
  text: new Set(['id', 'title', 'type', 'textAlignment', 'verticalAlignment']),
  number: new Set(['id', 'title', 'type']),
  checkbox: new Set(['id', 'title', 'type']),
  'content-ref': new Set(['id', 'title', 'type']),
  files: new Set(['id', 'title', 'type']),
  image: new Set(['id', 'title', 'type']),
};

/** A table block as GitBook's HTML table; undefined when it has no such form. */
export function tableToHast(table: DocumentBlock, ctx: HtmlWriteContext): Element | undefined {
  const data = table.data ?? {};
  const view = (data.view ?? {}) as Record<string, unknown>;
  const definition = (data.definition ?? {}) as Record<string, Definition>;
  const cards = view.type === 'cards';
  const viewColumns = Array.isArray(view.columns) ? (view.columns as string[]) : [];
  // Object keys are no order (stored documents have them sorted): the view's is the order,
  // then a card's target and covers, then other hidden columns.
  const hidden = [view.targetDefinition, view.coverDefinition, view.coverDefinitionDark];
  const ids = [
    ...viewColumns,
    ...hidden.filter((id): id is string => typeof id === 'string' && id in definition),
    ...Object.keys(definition).filter((id) => !viewColumns.includes(id) && !hidden.includes(id)),
  ].filter((id, i, all) => all.indexOf(id) === i);
  const expressible =
    Object.keys(data).every((key) => TABLE_KEYS.has(key)) &&
    (cards || view.type === 'grid') &&
    Object.keys(view).every((key) => (cards ? CARDS_KEYS : GRID_KEYS).has(key)) &&
    ids.length > 0 &&
    ids.every((id) => {
      const column = definition[id];
      const keys = column && COLUMN_KEYS[column.type];
      return (
        column.id === id &&
        typeof column.title === 'string' &&
        keys !== undefined &&
        Object.keys(column).every((key) => keys.has(key))
      );
    });
  if (!expressible) return undefined;
  const widths = (view.columnWidths ?? {}) as Record<string, unknown>;
  const header = ids.map((id) => {
    const column = definition[id];
    const properties: Properties = {};
    if (typeof widths[id] === 'number') properties.width = widths[id];
    Object.assign(properties, cellAlignment(column));
    if (!viewColumns.includes(id)) properties.dataHidden = true;
    if (view.targetDefinition === id) properties.dataCardTarget = true;
    if (view.coverDefinition === id) properties.dataCardCover = true;
    if (view.coverDefinitionDark === id) properties.dataCardCoverDark = true;
    if (column.type !== 'text') properties.dataType = column.type;
    return element('th', properties, column.title ? [{ type: 'text', value: column.title }] : []);
  });
  const fragments = new Map((table.fragments ?? []).map((f) => [f.fragment, f]));
  const records = Object.values((data.records ?? {}) as Record<string, TableRecord>).sort((a, b) =>
    compareOrderIndex(a.orderIndex, b.orderIndex),
  );
  const rows: Element[] = [];
  for (const record of records) {
    const cells: Element[] = [];
    for (const id of ids) {
      const content = cellContent(definition[id].type, record.values?.[id], fragments, ctx);
      if (!content) return undefined;
      cells.push(element('td', cellAlignment(definition[id]), content));
    }
    rows.push(element('tr', {}, cells));
  }
  const properties: Properties = {};
  if (cards && view.cardSize === 'large') properties.dataCardSize = 'large';
  if (cards) properties.dataView = 'cards';
  if (!cards && view.hideHeader === true) properties.dataHeaderHidden = true;
  if (typeof data.fullWidth === 'boolean') properties.dataFullWidth = String(data.fullWidth);
  if (typeof data.search === 'boolean') properties.dataSearch = String(data.search);
  return element('table', properties, [
    element('thead', {}, [element('tr', {}, header)]),
    element('tbody', {}, rows),
  ]);
}

function cellAlignment(column: Definition): Properties {
  const properties: Properties = {};
  if (column.textAlignment === 'center' || column.textAlignment === 'right') {
    properties.align = column.textAlignment;
  }
  if (typeof column.verticalAlignment === 'string') properties.vAlign = column.verticalAlignment;
  return properties;
}

function refLink(ref: unknown, ctx: HtmlWriteContext): ElementContent | undefined {
  if (!ref || typeof ref !== 'object') return undefined;
  const href = ctx.refToUrl(ref as ContentRef);
  if (href === undefined) return undefined;
  return element('a', { href }, [{ type: 'text', value: decodeSegment(lastSegment(href)) }]);
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function cellContent(
  type: string,
  value: unknown,
  fragments: ReadonlyMap<string | undefined, DocumentFragment>,
  ctx: HtmlWriteContext,
): ElementContent[] | undefined {
  if (value === undefined || value === null || value === '') return [];
  switch (type) {
    case 'text': {
      if (typeof value !== 'string') return undefined;
      const fragment = fragments.get(value);
      if (!fragment) return [{ type: 'text', value }];
      return blocksToHast(fragment.nodes, ctx);
    }
    case 'number':
      // A cell of a number column that is not a number is read as its text (`null`, `n/a`), and
      // written so; text that reads as a number would come back as one.
      if (typeof value === 'string' && !Number.isFinite(Number(value)) && value.trim() !== '') {
        return [{ type: 'text', value }];
      }
      return typeof value === 'number' ? [{ type: 'text', value: String(value) }] : undefined;
    case 'checkbox':
      return typeof value === 'boolean' ? [{ type: 'text', value: String(value) }] : undefined;
    case 'files': {
      if (!Array.isArray(value)) return undefined;
      const written = value.map((file) =>
        refLink(typeof file === 'string' ? { kind: 'file', file } : file, ctx),
      );
      return written.every(Boolean) ? (written as ElementContent[]) : undefined;
    }
    default: {
      const link = refLink(value, ctx);
      return link ? [link] : undefined;
    }
  }
}
