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

export type MergeConflictKind =
  /** The same top-level block changed differently on both sides (or added twice, differently). */
  | 'block-edit'
  /** One side deleted a block whose content the other side changed. */
  | 'block-delete-edit'
  /** Both sides moved the same block to different places. */
  | 'block-move'
  /** Document-level properties changed differently, or blocks without (unique) keys to merge by. */
  | 'document'
  /** The same metadata field changed differently on both sides (`fields` names them). */
  | 'metadata'
  /** One side deleted a page the other side changed (its content, metadata or parent). */
  | 'delete-edit'
  /** Both sides moved the same page to different places. */
  | 'move-move'
  /** A page moved or added under a page the other side deleted. */
  | 'parent-deleted'
  /** Moves on the two sides together put a page inside its own subtree. */
  | 'cycle'
  /** Both sides added a page with the same id, differently. */
  | 'insert-insert';

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
