import type {
  ContentRef,
  DocumentBlock,
  DocumentFragment,
  DocumentInline,
  DocumentNode,
  JSONDocument,
} from '../documents/document';
import { documentSections } from '../search/document-sections';

/** How a document relates to what it references (GitBook's `ContentReferenceRelation`). */
export type ReferenceRelation = 'reference' | 'dependsOn';

/** A reference found in a document, and where: the key of the node that holds it. */
export interface DocumentReference {
  ref: ContentRef;
  relation: ReferenceRelation;
  /** Key of the node carrying the reference, else of its nearest keyed ancestor. */
  node?: string;
}

const REF_KINDS = new Set([
  'url',
  'file',
  'page',
  'anchor',
  'user',
  'collection',
  'space',
  'reusable-content',
  'openapi',
]);

/** The field that names the target, per ContentRef kind (all strings). */
const TARGET_FIELD: Record<string, string> = {
  url: 'url',
  file: 'file',
  page: 'page',
  anchor: 'anchor',
  user: 'user',
  collection: 'collection',
  space: 'space',
  'reusable-content': 'reusableContent',
  openapi: 'spec',
};

/** Nodes whose reference is content they are built from, not a link to it. */
const DEPENDS_ON = new Set(['content-ref', 'reusable-content']);

/** `data` fields that hold a ContentRef on some node type (link, mention, images, files…). */
const REF_FIELDS = ['ref', 'refDark'] as const;

/** A well-formed ContentRef, or undefined: documents come from clients and may hold anything. */
export function asContentRef(value: unknown): ContentRef | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const ref = value as Record<string, unknown>;
  if (typeof ref.kind !== 'string' || !REF_KINDS.has(ref.kind)) return undefined;
  const target = ref[TARGET_FIELD[ref.kind]];
  if (typeof target !== 'string' || target === '') return undefined;
  return value as ContentRef;
}

/**
 * Every reference of a document, in document order: the `ref` (and `refDark`) of any node that
 * has one — `link`, `mention`, `button`, `inline-image`, `image`, `file`, `drawing`,
 * `content-ref`, `reusable-content`, `swagger`, `openapi-*` —, and the URL of `embed` blocks.
 * Fragments (captions, expandable bodies, table cells) are searched too, and so are a table's
 * cells (card targets and covers).
 */
export function documentReferences(document: JSONDocument): DocumentReference[] {
  const found: DocumentReference[] = [];
  const visitNode = (node: DocumentNode, keyAbove: string | undefined): void => {
    if (node.object === 'text') return;
    const key = node.key ?? keyAbove;
    collect(node, key, found);
    for (const child of node.nodes ?? []) visitNode(child, key);
    for (const fragment of node.fragments ?? []) visitFragment(fragment, key);
  };
  const visitFragment = (fragment: DocumentFragment, keyAbove: string | undefined): void => {
    const key = fragment.key ?? keyAbove;
    for (const block of fragment.nodes ?? []) visitNode(block, key);
  };
  for (const block of document.nodes ?? []) visitNode(block, document.key);
  return found;
}

function collect(
  node: DocumentBlock | DocumentInline,
  key: string | undefined,
  into: DocumentReference[],
): void {
  const data = node.data;
  if (!data) return;
  const relation: ReferenceRelation = DEPENDS_ON.has(node.type) ? 'dependsOn' : 'reference';
  const at = key === undefined ? {} : { node: key };
  for (const field of REF_FIELDS) {
    const ref = asContentRef(data[field]);
    if (ref) into.push({ ref, relation, ...at });
  }
  if (node.type === 'embed' && typeof data.url === 'string' && data.url !== '') {
    into.push({ ref: { kind: 'url', url: data.url }, relation, ...at });
  }
  if (node.type === 'table') {
    for (const ref of tableRefs(data)) into.push({ ref, relation, ...at });
  }
}

/**
 * The refs of a table's cells: a `content-ref` column's ref (a card's target), a `files`
 * column's files (by id, as GitBook keeps them: a card's cover).
 */
export function tableRefs(data: Record<string, unknown>): ContentRef[] {
  const records = data.records;
  const definition = data.definition as Record<string, { type?: unknown }> | undefined;
  if (typeof records !== 'object' || records === null || typeof definition !== 'object') return [];
  const refs: ContentRef[] = [];
  for (const record of Object.values(records)) {
    const values = (record as { values?: Record<string, unknown> } | null)?.values ?? {};
    for (const [column, cell] of Object.entries(values)) {
      const ref = asContentRef(cell);
      if (ref) refs.push(ref);
      else if (Array.isArray(cell) && definition?.[column]?.type === 'files') {
        for (const file of cell) {
          const item = typeof file === 'string' ? { kind: 'file', file } : file;
          const fileRef = asContentRef(item);
          if (fileRef) refs.push(fileRef);
        }
      }
    }
  }
  return refs;
}

/**
 * The anchors a link may point at on a page: its headings' (as search names them: `data.id`,
 * else `meta.id`, else a slug of the text) and every block's `meta.id` (tabs, steps…).
 */
export function documentAnchors(document: JSONDocument): Set<string> {
  const anchors = new Set(
    documentSections(document)
      .map((section) => section.id)
      .filter((id) => id !== ''),
  );
  const visit = (block: DocumentBlock): void => {
    const id = block.meta?.id;
    if (typeof id === 'string' && id !== '') anchors.add(id);
    for (const child of block.nodes ?? []) {
      if (child.object === 'block') visit(child);
    }
    for (const fragment of block.fragments ?? []) fragment.nodes?.forEach(visit);
  };
  document.nodes?.forEach(visit);
  return anchors;
}
