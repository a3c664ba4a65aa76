import type {
  DocumentBlock,
  DocumentFragment,
  DocumentInline,
  DocumentNode,
  DocumentText,
  JSONDocument,
} from './document';

/*
 * Documents read by someone who must not learn of some pages (a published site's visitor who
 * does not see them): their refs to those pages go, each in the way that keeps the document
 * valid against GitBook's document schema (its `Document*` shapes):
 *
 * - a link, an inline `link` (whose `ref` is required) or a mark holding a ref, keeps its text
 *   and loses the link;
 * - a table record's value holding one (a content-ref column, a card's target) is dropped:
 *   records' values are optional;
 * - any other node holding one in its data is removed: a `mention`, a `content-ref` block, a
 *   `button` (which needs a ref or an action), and nodes Bindery does not know, whose data it
 *   cannot tell optional from required;
 * - a list of nodes that this leaves empty gets an empty paragraph (blocks) or an empty text
 *   (inlines): GitBook requires some (an expandable's body, an annotation's) to hold one, and
 *   its editor holds one in every other.
 */

/**
 * The ids of the pages `value` (a document or any part of one) refers to by page or anchor
 * refs, whatever space they name: what a reader may need to look for, cheaply compared.
 */
export function referencedPageIds(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) {
    for (const item of value) referencedPageIds(item, into);
  } else if (typeof value === 'object' && value !== null) {
    const { kind, page } = value as { kind?: unknown; page?: unknown };
    if ((kind === 'page' || kind === 'anchor') && typeof page === 'string') into.add(page);
    for (const child of Object.values(value)) referencedPageIds(child, into);
  }
  return into;
}

/**
 * `document` without refs to `pages`, pages of space `spaceId` (a ref naming no space is in
 * the document's own); the same document when it has none.
 */
export function withoutPageRefs(
  document: JSONDocument,
  pages: ReadonlySet<string>,
  spaceId: string,
): JSONDocument {
  const nodes = new PageRefRemoval(pages, spaceId).nodes(document.nodes);
  return nodes === document.nodes ? document : { ...document, nodes: nodes as DocumentBlock[] };
}

class PageRefRemoval {
  constructor(
    private readonly pages: ReadonlySet<string>,
    private readonly spaceId: string,
  ) {}

  /** `nodes` without the refs; the same array when nothing changed (stored nodes are frozen). */
  nodes(nodes: DocumentNode[]): DocumentNode[] {
    const kept: DocumentNode[] = [];
    let changed = false;
    for (const node of nodes) {
      const next = this.node(node);
      changed ||= next.length !== 1 || next[0] !== node;
      kept.push(...next);
    }
    if (!changed) return nodes;
    return kept.length === 0 ? [emptyLike(nodes[0])] : kept;
  }

  /** What takes a node's place: itself, changed or not, its children (a link), or nothing. */
  private node(node: DocumentNode): DocumentNode[] {
    if (node.object === 'text') return [this.text(node)];
    if (node.object === 'inline' && node.type === 'link' && this.refers(node.data)) {
      return this.nodes(node.nodes ?? []);
    }
    const data =
      node.object === 'block' && node.type === 'table' ? this.tableData(node.data) : node.data;
    if (this.refers(data)) return [];
    let next: DocumentBlock | DocumentInline = data === node.data ? node : { ...node, data };
    if (node.nodes) {
      const nodes = this.nodes(node.nodes);
      if (nodes !== node.nodes) next = { ...next, nodes } as DocumentBlock | DocumentInline;
    }
    if (node.fragments) {
      const fragments = this.fragments(node.fragments);
      if (fragments !== node.fragments) next = { ...next, fragments };
    }
    return [next];
  }

  private fragments(fragments: DocumentFragment[]): DocumentFragment[] {
    let changed = false;
    const next = fragments.map((fragment) => {
      const stored = fragment.nodes ?? [];
      const nodes = this.nodes(stored);
      if (nodes === stored) return fragment;
      changed = true;
      return { ...fragment, nodes: nodes as DocumentBlock[] };
    });
    return changed ? next : fragments;
  }

  /** The text with the marks that link to the pages left out. */
  private text(node: DocumentText): DocumentText {
    let changed = false;
    const leaves = node.leaves.map((leaf) => {
      if (!leaf.marks?.some((mark) => this.refers(mark.data))) return leaf;
      changed = true;
      return { ...leaf, marks: leaf.marks.filter((mark) => !this.refers(mark.data)) };
    });
    return changed ? { ...node, leaves } : node;
  }

  /** A table's data without the record values that refer to the pages. */
  private tableData(data: DocumentBlock['data']): DocumentBlock['data'] {
    const records = data?.records;
    if (typeof records !== 'object' || records === null) return data;
    let changed = false;
    const kept: Record<string, unknown> = {};
    for (const [id, record] of Object.entries(records as Record<string, unknown>)) {
      const values = (record as { values?: unknown } | null)?.values;
      if (typeof values !== 'object' || values === null || !this.refers(values)) {
        kept[id] = record;
        continue;
      }
      changed = true;
      kept[id] = {
        ...(record as object),
        values: Object.fromEntries(Object.entries(values).filter(([, v]) => !this.refers(v))),
      };
    }
    return changed ? { ...data, records: kept } : data;
  }

  /** Whether `value` holds a page or anchor ref to one of the pages, at any depth. */
  private refers(value: unknown): boolean {
    if (Array.isArray(value)) return value.some((item) => this.refers(item));
    if (typeof value !== 'object' || value === null) return false;
    const ref = value as { kind?: unknown; page?: unknown; space?: unknown };
    if (
      (ref.kind === 'page' || ref.kind === 'anchor') &&
      typeof ref.page === 'string' &&
      this.pages.has(ref.page) &&
      (ref.space === undefined || ref.space === this.spaceId)
    ) {
      return true;
    }
    return Object.values(value).some((child) => this.refers(child));
  }
}

/** An empty node of the kind `removed` was: a paragraph for a block, a text otherwise. */
function emptyLike(removed: DocumentNode): DocumentNode {
  const text: DocumentText = {
    object: 'text',
    leaves: [{ object: 'leaf', text: '', marks: [] }],
  };
  if (removed.object !== 'block') return text;
  return {
    object: 'block',
    type: 'paragraph',
    // The removed block's key is free, and keeps keys unique within the document.
    ...(removed.key !== undefined ? { key: removed.key } : {}),
    data: {},
    nodes: [text],
  };
}
