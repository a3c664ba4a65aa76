import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { BlobStore } from '../../platform/blob-store/blob-store';
import { Clock } from '../../platform/clock/clock';
import { DomainError, invalidInput, notFound } from '../../platform/errors/domain-error';
import { newId } from '../../platform/ids/ids';
import { Space } from '../../spaces/entities/space.entity';
import { ContentEngine } from '../content-engine';
import type { JSONDocument } from '../documents/document';
import { markdownToDocument } from '../documents/markdown';
import { Revision, RevisionType } from '../entities/revision.entity';
import { blobKeyOf, describeFile, type FileUpload } from '../files/file-content';
import { commit, type PageChange } from '../tree/commit';
import { TREE_FORMAT_VERSION, type FileNode, type RootNode } from '../tree/format';
import { CachedObjectStore, type ObjectStore } from '../tree/object-store';
import { PrimaryMovedListeners } from './primary-moved-listeners';

/**
 * A page's body in a change: the hash of a stored `document` object, a GitBook JSON document,
 * markdown, or null (an empty page).
 */
export type DocumentInput = string | null | JSONDocument | { markdown: string };

type InsertPage = Extract<PageChange, { operation: 'insert_page' }>;

/** A tree change (src/content/tree/commit.ts) whose document may be given as content. */
export type ContentChange =
  | (Omit<InsertPage, 'document'> & { document?: DocumentInput })
  | { operation: 'set_document'; page: string; document: DocumentInput }
  | Exclude<PageChange, { operation: 'insert_page' | 'set_document' }>;

/** The changes of a commit, or how to compute them from the tree they apply to. */
export type ChangesInput =
  | readonly ContentChange[]
  | ((base: { tree: string; store: ObjectStore }) => Promise<readonly ContentChange[]>);

export interface CommitOnPrimaryInput {
  spaceId: string;
  /** The primary revision the changes were made against; another one is a 409. */
  expectedRevisionId: string;
  authorId: string | null;
  type: RevisionType;
  /**
   * The changes, or (for a merge) the tree of the new revision, computed from the primary's
   * tree: `{ tree }` replaces the content whole.
   */
  changes:
    ChangesInput | ((base: { tree: string; store: ObjectStore }) => Promise<{ tree: string }>);
  /** A merge's second parent: the change request revision merged in. */
  mergedParent?: string;
}

/**
 * A file to store: its bytes, a name and, optionally, its content type and id. Files given by
 * URL (REFERENCE §16 `insert_files.url`, issue #6) are fetched through OutboundHttp by the
 * caller, which then stores the bytes here: this class never reaches the network.
 */
export type FileInput = Omit<FileUpload, 'id'> & { id?: string };

export interface StoredFile {
  /** Hash of the `file` object, for an `insert_file` change. */
  hash: string;
  file: FileNode;
}

export interface CommitResult {
  revision: Revision;
  /** The primary before the commit (`revision.parents[0]`). */
  previousRevisionId: string;
}

/** Converts markdown to a JSON document (markdownToDocument; tests may pass their own). */
export type MarkdownConverter = (markdown: string) => Promise<JSONDocument>;

const contentMoved = (spaceId: string) =>
  new DomainError(
    'conflict',
    'SpaceContentMoved',
    `The space's content moved while this change was made (space ${spaceId}); retry with its current revision.`,
  );

const spaceLocked = () =>
  new DomainError(
    'conflict',
    'SpaceLocked',
    'The space is locked: its content cannot be edited until an administrator sets its edit mode back to live.',
  );

/** The root of a tree without pages (format version 2). */
export function emptyRoot(): RootNode {
  return {
    version: TREE_FORMAT_VERSION,
    pages: [],
    files: [],
    reusableContents: [],
    variables: {},
    index: null,
  };
}

/**
 * The changes as the tree takes them: every document given as content is stored as a
 * `document` object and replaced by its hash. Hashes and nulls are kept as they are.
 */
export async function storeDocuments(
  store: ObjectStore,
  changes: readonly ContentChange[],
  toDocument: MarkdownConverter = (markdown) => markdownToDocument(markdown),
): Promise<PageChange[]> {
  const resolved: PageChange[] = [];
  for (const [index, change] of changes.entries()) {
    if (change.operation === 'insert_page' || change.operation === 'set_document') {
      const document = await storeDocument(store, change.document, index, toDocument);
      resolved.push({ ...change, document } as PageChange);
    } else {
      resolved.push(change);
    }
  }
  return resolved;
}

async function storeDocument(
  store: ObjectStore,
  input: DocumentInput | undefined,
  index: number,
  toDocument: MarkdownConverter,
): Promise<string | null> {
  if (input === undefined || input === null) return null;
  if (typeof input === 'string') return input;
  if (typeof input === 'object' && 'markdown' in input) {
    if (typeof input.markdown !== 'string') {
      throw invalidInput(`Change ${index}: markdown must be a string.`);
    }
    return store.put('document', await toDocument(input.markdown));
  }
  if (typeof input === 'object' && input.object === 'document' && Array.isArray(input.nodes)) {
    return store.put('document', input);
  }
  throw invalidInput(
    `Change ${index}: a document is a document hash, a JSON document ({object: "document", nodes}) or {markdown}.`,
  );
}

/**
 * Writes content on a space's primary revision: a batch of page changes becomes one new
 * revision, and the space moves to it with a compare-and-swap on `spaces.revision_id`. Runs in
 * the caller's transaction, so that a refusal (409) leaves nothing written.
 */
@Injectable()
export class ContentWriter {
  constructor(
    private readonly engine: ContentEngine,
    private readonly listeners: PrimaryMovedListeners,
    private readonly clock: Clock,
    private readonly blobs: BlobStore,
  ) {}

  /**
   * Stores an uploaded file: its bytes in the BlobStore under `sha256/<hex>` (once per content),
   * its `file` object in the content store. 400 naming the file when it is larger than 1 MB or
   * its name or content type is invalid. Commit it with `{operation: 'insert_file', file: hash}`.
   */
  async storeFile(manager: EntityManager, input: FileInput): Promise<StoredFile> {
    const file = describeFile({ ...input, id: input.id ?? newId() });
    const key = blobKeyOf(file.blob);
    if ((await this.blobs.size(key)) !== file.size) {
      await this.blobs.put(key, input.data);
    }
    const hash = await this.engine.objectStore(manager).put('file', file);
    return { hash, file };
  }

  async commitOnPrimary(
    manager: EntityManager,
    input: CommitOnPrimaryInput,
  ): Promise<CommitResult> {
    const rows: { revision_id: string; edit_mode: string; deleted_at: Date | null }[] =
      await manager.query('SELECT revision_id, edit_mode, deleted_at FROM spaces WHERE id = $1', [
        input.spaceId,
      ]);
    const space = rows[0];
    if (!space || space.deleted_at !== null) {
      throw notFound('Space');
    }
    if (space.edit_mode === 'locked') {
      throw spaceLocked();
    }
    if (space.revision_id !== input.expectedRevisionId) {
      throw contentMoved(input.spaceId);
    }
    const base: { tree: string }[] = await manager.query(
      'SELECT tree FROM revisions WHERE id = $1 AND space_id = $2',
      [input.expectedRevisionId, input.spaceId],
    );
    if (!base[0]) {
      throw new Error(`Revision ${input.expectedRevisionId} of space ${input.spaceId} is missing`);
    }
    const store = new CachedObjectStore(this.engine.objectStore(manager), { maxEntries: 1000 });
    const tree = await this.applyChanges(store, base[0].tree, input.changes);
    const revision = await this.insertRevision(manager, {
      spaceId: input.spaceId,
      parents: input.mergedParent
        ? [input.expectedRevisionId, input.mergedParent]
        : [input.expectedRevisionId],
      type: input.type,
      tree,
      authorId: input.authorId,
    });
    const moved = await manager
      .createQueryBuilder()
      .update(Space)
      .set({ revisionId: revision.id, updatedAt: this.clock.now() })
      .where('id = :spaceId AND revision_id = :expected', {
        spaceId: input.spaceId,
        expected: input.expectedRevisionId,
      })
      .execute();
    if (moved.affected !== 1) {
      throw contentMoved(input.spaceId);
    }
    await this.listeners.notify({
      spaceId: input.spaceId,
      fromRevision: input.expectedRevisionId,
      toRevision: revision.id,
      manager,
    });
    return { revision, previousRevisionId: input.expectedRevisionId };
  }

  /**
   * The first revision of a new space, made of `changes` applied to an empty tree (`id` given
   * when the space row already names it). The space row is not touched.
   */
  async createFirstRevision(
    manager: EntityManager,
    input: { id?: string; spaceId: string; authorId: string | null; changes: ChangesInput },
  ): Promise<Revision> {
    const store = new CachedObjectStore(this.engine.objectStore(manager), { maxEntries: 1000 });
    const empty = await store.put('tree', emptyRoot());
    return this.insertRevision(manager, {
      id: input.id,
      spaceId: input.spaceId,
      parents: [],
      type: 'edits',
      tree: await this.applyChanges(store, empty, input.changes),
      authorId: input.authorId,
    });
  }

  private async applyChanges(
    store: ObjectStore,
    tree: string,
    changes: CommitOnPrimaryInput['changes'],
  ): Promise<string> {
    const list = typeof changes === 'function' ? await changes({ tree, store }) : changes;
    if ('tree' in list) return list.tree;
    return commit(store, tree, await storeDocuments(store, list));
  }

  private async insertRevision(
    manager: EntityManager,
    input: Pick<Revision, 'spaceId' | 'parents' | 'type' | 'tree' | 'authorId'> & { id?: string },
  ): Promise<Revision> {
    const revision = manager.create(Revision, {
      ...input,
      id: input.id ?? newId(),
      git: null,
      createdAt: this.clock.now(),
    });
    await manager.insert(Revision, revision);
    return revision;
  }
}
