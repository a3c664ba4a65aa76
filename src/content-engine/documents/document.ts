import { randomBytes } from 'node:crypto';

/*
 * GitBook's rich document model (JSONDocument, API 0.146.0; REFERENCE §15). The node shapes are
 * deliberately loose (`type: string`, `data` as a record): documents come from clients and from
 * GitBook itself, and code that does not understand a node must still carry it along unchanged.
 * The `*Type` unions name the types this codebase produces or reads specifically.
 */

/** A reference to content (REFERENCE §2 `ContentRef`), discriminated by `kind`. */
export type ContentRef =
  | { kind: 'url'; url: string }
  | { kind: 'file'; file: string }
  | { kind: 'page'; page: string; space?: string }
  | { kind: 'anchor'; anchor: string; space?: string; page?: string }
  | { kind: 'user'; user: string }
  | { kind: 'collection'; collection: string }
  | { kind: 'space'; space: string }
  | { kind: 'reusable-content'; reusableContent: string; space?: string }
  | { kind: 'openapi'; spec: string };

export type MarkType =
  'bold' | 'italic' | 'code' | 'keyboard' | 'strikethrough' | 'superscript' | 'subscript' | 'color';

export interface DocumentMark {
  object: 'mark';
  type: MarkType | (string & {});
  data?: Record<string, unknown>;
}

/** The marks markdown expresses, in the order a leaf lists them (equal formatting compares equal). */
export const MARK_ORDER: readonly MarkType[] = [
  'bold',
  'italic',
  'strikethrough',
  'code',
  'keyboard',
  'superscript',
  'subscript',
  'color',
];

export interface DocumentLeaf {
  object: 'leaf';
  text: string;
  marks: DocumentMark[];
}

export interface DocumentText {
  object: 'text';
  key?: string;
  leaves: DocumentLeaf[];
}

export type InlineType =
  | 'link'
  | 'inline-image'
  | 'emoji'
  | 'icon'
  | 'expression'
  | 'inline-math'
  | 'annotation'
  | 'mention'
  | 'button';

export interface DocumentInline {
  object: 'inline';
  key?: string;
  type: InlineType | (string & {});
  data?: Record<string, unknown>;
  isVoid?: boolean;
  nodes?: (DocumentText | DocumentInline)[];
  fragments?: DocumentFragment[];
}

export type BlockType =
  | 'paragraph'
  | 'heading-1'
  | 'heading-2'
  | 'heading-3'
  | 'list-ordered'
  | 'list-unordered'
  | 'list-tasks'
  | 'list-item'
  | 'divider'
  | 'blockquote'
  | 'hint'
  | 'code'
  | 'code-line'
  | 'math'
  | 'images'
  | 'image'
  | 'file'
  | 'drawing'
  | 'embed'
  | 'content-ref'
  | 'reusable-content'
  | 'expandable'
  | 'tabs'
  | 'tabs-item'
  | 'stepper'
  | 'stepper-step'
  | 'columns'
  | 'column'
  | 'if'
  | 'table'
  | 'swagger'
  | 'openapi-operation'
  | 'openapi-schemas'
  | 'openapi-webhook'
  | 'integration'
  | 'prompt'
  | 'updates'
  | 'update';

export interface DocumentBlock {
  object: 'block';
  key?: string;
  type: BlockType | (string & {});
  data?: Record<string, unknown>;
  isVoid?: boolean;
  /** Absent on void blocks. */
  nodes?: DocumentNode[];
  fragments?: DocumentFragment[];
  meta?: { id?: string; token?: string };
}

/** A named sub-document of a block or inline (captions, table cells, expandable bodies). */
export interface DocumentFragment {
  object: 'fragment';
  key?: string;
  fragment?: string;
  type?: string;
  nodes: DocumentBlock[];
}

export type DocumentNode = DocumentBlock | DocumentInline | DocumentText;

export interface JSONDocument {
  object: 'document';
  key?: string;
  data: { schemaVersion?: number; [key: string]: unknown };
  nodes: DocumentBlock[];
}

export type HintStyle = 'info' | 'warning' | 'danger' | 'success';
export const HINT_STYLES: readonly HintStyle[] = ['info', 'warning', 'danger', 'success'];

/** A table column of type `text`, the only kind the markdown mapping produces. */
export interface TableTextColumn {
  id: string;
  title: string;
  type: 'text';
  textAlignment: 'left' | 'center' | 'right';
}

export interface TableGridView {
  type: 'grid';
  columns: string[];
  columnWidths?: Record<string, number>;
  hideHeader: boolean;
}

export interface TableRecord {
  orderIndex: string;
  values: Record<string, unknown>;
}

/**
 * A key for a node: short (8 characters of [A-Za-z0-9_-], 48 random bits) because documents
 * carry one per node; keys need only be unique within a document, where blocks are matched by
 * key during merges.
 */
export function newKey(): string {
  return randomBytes(6).toString('base64url');
}

export function emptyDocument(): JSONDocument {
  return { object: 'document', data: {}, nodes: [] };
}
