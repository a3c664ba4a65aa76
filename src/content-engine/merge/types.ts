import type { JSONDocument } from '../documents/document';
import type { PageSnapshot } from '../tree/snapshot';

export type { DocumentBlock, JSONDocument } from '../documents/document';

/** Loads a document body by hash; may answer synchronously (an in-memory cache) or not. */
export type DocumentLoader = (hash: string) => JSONDocument | Promise<JSONDocument>;

export interface MergeInput {
  /** The merge base: the last revision both sides share. */
  base: PageSnapshot;
  /** Its sibling insertions come first where both sides insert at the same place. */
  ours: PageSnapshot;
  theirs: PageSnapshot;
  documents: DocumentLoader;
}

/**
 * What conflicts: `block-edit` the same top-level block changed differently on both sides (or
 * added twice, differently); `block-delete-edit` one side deleted a block the other changed;
 * `block-move` both moved the same block to different places; `document` document-level
 * properties changed differently, or blocks without (unique) keys to merge by; `metadata` the
 * same fields changed differently (`fields` names them); `delete-edit` one side deleted a page
 * the other changed (content, metadata or parent); `move-move` both moved the same page to
 * different places; `parent-deleted` a page moved or added under a page the other side
 * deleted; `cycle` moves on the two sides together put a page inside its own subtree;
 * `insert-insert` both added a page with the same id, differently.
 */
export const MERGE_CONFLICT_KINDS = [
  'block-edit',
  'block-delete-edit',
  'block-move',
  'document',
  'metadata',
  'delete-edit',
  'move-move',
  'parent-deleted',
  'cycle',
  'insert-insert',
] as const;
export type MergeConflictKind = (typeof MERGE_CONFLICT_KINDS)[number];

export interface MergeConflict {
  pageId: string;
  kind: MergeConflictKind;
  /** The top-level block keys involved (empty for page-level conflicts). */
  blockKeys: string[];
  /** For `metadata`: the fields changed differently on both sides. */
  fields?: string[];
}

export type MergeResult =
  | {
      result: 'merge';
      pages: PageSnapshot;
      /** New bodies of the pages whose documents were merged block by block, by page id. */
      documents: Map<string, JSONDocument>;
    }
  | { result: 'conflicts'; conflicts: MergeConflict[] };
