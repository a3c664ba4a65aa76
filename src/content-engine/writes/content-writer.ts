import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { BlobStore } from '../../platform/blob-store/blob-store';
import { Clock } from '../../platform/clock/clock';
import { DomainError, invalidInput, notFound } from '../../platform/errors/domain-error';
import { newId } from '../../platform/ids/ids';
import { ContentEngine } from '../content-engine';
import type { JSONDocument } from '../documents/document';
import { markdownToDocument } from '../documents/markdown';
import { Revision, RevisionType } from '../entities/revision.entity';
import { createHash } from 'node:crypto';
import {
  blobKeyOf,
  describeFile,
  describeFileBytes,
  FILE_HEAD_BYTES,
  type FileUpload,
} from '../files/file-content';
import { RevisionsRepository } from '../revisions.repository';
import { commit, type PageChange } from '../tree/commit';
import { TREE_FORMAT_VERSION, type FileNode, type RootNode } from '../tree/format';
import { CachedObjectStore, type ObjectStore } from '../tree/object-store';
import { ContentHeads, type SpaceHead, type SpaceHeadLock } from './content-heads';
import { PrimaryMovedListeners } from './primary-moved-listeners';

/**
 * A page's body in a change: the hash of a stored `document` object, a GitBook JSON document,
 * markdown, or null (an empty page).
 */
export type DocumentInput = string | null | JSONDocument | { markdown: string };

type InsertPage = Extract<PageChange, { operation: 'insert_page' }>;

/** A tree change (src/content-engine/tree/commit.ts) whose document may be given as content. */
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
    | readonly ContentChange[]
    | ((base: {
        tree: string;
        store: ObjectStore;
      }) => Promise<readonly ContentChange[] | { tree: string }>);
  /** A merge's second parent: the change request revision merged in. */
  mergedParent?: string;
  /** Many pages change (PrimaryMoved.bulk): listeners may follow after the transaction. */
  bulk?: boolean;
}

/** A change request's revisions as locked for a write: its head and its merge base. */
export interface ChangeRequestHead {
  id: string;
  revision: string;
  revisionInitial: string;
  revisionMergedAncestor: string | null;
}

export interface CommitOnChangeRequestInput {
  spaceId: string;
  changeRequestId: string;
  /** The head the changes were made against (`If-Match`); another one is a 412. */
  expectedRevisionId?: string;
  authorId: string | null;
  /**
   * The changes, or how to compute them from the head's tree and the change request; `{ tree }`
   * (an update from the primary) replaces the content whole.
   */
  changes:
    | readonly ContentChange[]
    | ((base: {
        tree: string;
        store: ObjectStore;
        changeRequest: ChangeRequestHead;
      }) => Promise<readonly ContentChange[] | { tree: string }>);
  /** `edits` unless said otherwise. */
  type?: RevisionType;
  /** An update's second parent: the primary revision merged in. */
  mergedParent?: string;
}

/**
 * A file to store: its bytes, a name and, optionally, its content type and id. Files given by
 * URL (REFERENCE §16 `insert_files.url`, issue #6) are fetched through OutboundHttp by the
 * caller, which then stores the bytes here: this class never reaches the network.
 */
export type FileInput = Omit<FileUpload, 'id'> & { id?: string };

/**
 * A file too large to hold, read as a stream (twice: to learn what it is, then to store it);
 * its `size` is checked, and bounded by `maxBytes`.
 */
export interface StreamedFileInput {
  id?: string;
  name: string;
  contentType?: string;
  size: number;
  maxBytes: number;
  open(): Promise<NodeJS.ReadableStream>;
}

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

const changeRequestClosed = (status: string) =>
  new DomainError(
    'conflict',
    status === 'merged' ? 'ChangeRequestAlreadyMerged' : 'ChangeRequestArchived',
    status === 'merged'
      ? 'The change request is merged: its content cannot change any more.'
      : 'The change request is archived: reopen it (status open or draft) before editing its content.',
  );

const headMoved = (expected: string, head: string) =>
  new DomainError(
    'precondition_failed',
    'ChangeRequestRevisionMismatch',
    `The change request is at revision ${head}, not ${expected} (If-Match): read it again and retry.`,
  );

/**
 * Refuses a write on a merged or archived change request (409), or on one whose head is not
 * `expectedRevisionId` when given (412). commitOnChangeRequest checks under the row lock;
 * callers may check early too, before work that a refusal would waste.
 */
export function assertChangeRequestWritable(
  changeRequest: { status: string; revision: string },
  expectedRevisionId: string | undefined,
): void {
  if (changeRequest.status === 'merged' || changeRequest.status === 'archived') {
    throw changeRequestClosed(changeRequest.status);
  }
  if (expectedRevisionId !== undefined && expectedRevisionId !== changeRequest.revision) {
    throw headMoved(expectedRevisionId, changeRequest.revision);
  }
}

/** Refuses a write on a locked space (409). */
export function assertSpaceEditable(space: { editMode: string }): void {
  if (space.editMode === 'locked') {
    throw spaceLocked();
  }
}

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
 * Writes content on a space's primary revision or on a change request: a batch of page changes
 * becomes one new revision, and the space (compare-and-swap on `spaces.revision_id`) or the
 * change request (under its row lock) moves to it, through the ContentHeads their modules
 * register. Runs in the caller's transaction, so that a refusal leaves nothing written.
 */
@Injectable()
export class ContentWriter {
  constructor(
    private readonly engine: ContentEngine,
    private readonly revisions: RevisionsRepository,
    private readonly heads: ContentHeads,
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

  /**
   * Stores a file read as a stream, as storeFile stores bytes: read once for its SHA-256, its
   * size and its start (kind, dimensions), then once more into the BlobStore when it does not
   * hold those bytes yet, so that it never is in memory whole. 400 naming the file when it is
   * larger than `maxBytes` or its name or content type is invalid.
   */
  async storeFileStream(manager: EntityManager, input: StreamedFileInput): Promise<StoredFile> {
    const tooLarge = (size: number) =>
      invalidInput(
        `File ${JSON.stringify(input.name)} is ${size} bytes; the limit is ${input.maxBytes} bytes.`,
      );
    if (input.size > input.maxBytes) throw tooLarge(input.size);
    const hash = createHash('sha256');
    const head: Buffer[] = [];
    let headLength = 0;
    let size = 0;
    for await (const chunk of await input.open()) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      hash.update(bytes);
      size += bytes.length;
      if (size > input.maxBytes) throw tooLarge(size);
      if (headLength < FILE_HEAD_BYTES) {
        head.push(bytes.subarray(0, FILE_HEAD_BYTES - headLength));
        headLength += head[head.length - 1].length;
      }
    }
    if (size !== input.size) {
      throw new Error(`File ${JSON.stringify(input.name)} is not the size it was said to be.`);
    }
    const file = describeFileBytes({
      id: input.id ?? newId(),
      name: input.name,
      contentType: input.contentType,
      size,
      blob: hash.digest('hex'),
      head: Buffer.concat(head, headLength),
    });
    const key = blobKeyOf(file.blob);
    if ((await this.blobs.size(key)) !== file.size) {
      const stored = await this.blobs.put(key, await input.open());
      if (stored.size !== file.size) {
        await this.blobs.delete(key);
        throw new Error(`File ${JSON.stringify(input.name)} changed while it was stored.`);
      }
    }
    return { hash: await this.engine.objectStore(manager).put('file', file), file };
  }

  async commitOnPrimary(
    manager: EntityManager,
    input: CommitOnPrimaryInput,
  ): Promise<CommitResult> {
    const space = await this.editableSpace(manager, input.spaceId);
    if (space.revisionId !== input.expectedRevisionId) {
      throw contentMoved(input.spaceId);
    }
    const revision = await this.commitOn(manager, {
      spaceId: input.spaceId,
      head: input.expectedRevisionId,
      parents: input.mergedParent
        ? [input.expectedRevisionId, input.mergedParent]
        : [input.expectedRevisionId],
      type: input.type,
      authorId: input.authorId,
      changes: input.changes,
    });
    const moved = await this.heads.spaces.compareAndSwap(
      input.spaceId,
      input.expectedRevisionId,
      revision.id,
      this.clock.now(),
      manager,
    );
    if (!moved) {
      throw contentMoved(input.spaceId);
    }
    await this.listeners.notify({
      spaceId: input.spaceId,
      fromRevision: input.expectedRevisionId,
      toRevision: revision.id,
      authorId: input.authorId,
      manager,
      ...(input.bulk ? { bulk: true } : {}),
    });
    return { revision, previousRevisionId: input.expectedRevisionId };
  }

  /**
   * Writes content on a change request: the changes become one `edits` revision on top of its
   * head, and the change request moves to it. The change request's row stays locked until the
   * caller's transaction ends, so concurrent writes apply one after the other, each on the head
   * the previous one made (the space's row is share-locked first, the order every writer of a
   * space and its change requests follows). Refused: a locked space (409), a merged or archived
   * change request (409), a head other than `expectedRevisionId` when given (412). The search
   * index follows the primary only: no PrimaryMovedListeners here.
   */
  async commitOnChangeRequest(
    manager: EntityManager,
    input: CommitOnChangeRequestInput,
  ): Promise<CommitResult> {
    await this.editableSpace(manager, input.spaceId, 'FOR KEY SHARE');
    const row = await this.heads.changeRequests.lockHead(
      input.spaceId,
      input.changeRequestId,
      manager,
    );
    if (!row) {
      throw notFound('Change request');
    }
    assertChangeRequestWritable(row, input.expectedRevisionId);
    const head: ChangeRequestHead = {
      id: input.changeRequestId,
      revision: row.revision,
      revisionInitial: row.revisionInitial,
      revisionMergedAncestor: row.revisionMergedAncestor,
    };
    const changes = input.changes;
    const revision = await this.commitOn(manager, {
      spaceId: input.spaceId,
      head: row.revision,
      parents: input.mergedParent ? [row.revision, input.mergedParent] : [row.revision],
      type: input.type ?? 'edits',
      authorId: input.authorId,
      changes:
        typeof changes === 'function'
          ? (base) => changes({ ...base, changeRequest: head })
          : changes,
    });
    await this.heads.changeRequests.moveHead(
      input.changeRequestId,
      row.revision,
      revision.id,
      this.clock.now(),
      manager,
    );
    return { revision, previousRevisionId: row.revision };
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

  /** The space's row (locked as `lock` says), refusing a deleted (404) or locked (409) space. */
  private async editableSpace(
    manager: EntityManager,
    spaceId: string,
    lock: SpaceHeadLock = '',
  ): Promise<SpaceHead> {
    const space = await this.heads.spaces.findHead(spaceId, lock, manager);
    if (!space || space.deletedAt !== null) {
      throw notFound('Space');
    }
    assertSpaceEditable(space);
    return space;
  }

  /** A new revision of `spaceId` with `parents`, made of `changes` applied to `head`'s tree. */
  private async commitOn(
    manager: EntityManager,
    input: {
      spaceId: string;
      head: string;
      parents: string[];
      type: RevisionType;
      authorId: string | null;
      changes: CommitOnPrimaryInput['changes'];
    },
  ): Promise<Revision> {
    const base = await this.revisions.findTree(input.head, input.spaceId, manager);
    if (base === undefined) {
      throw new Error(`Revision ${input.head} of space ${input.spaceId} is missing`);
    }
    const store = new CachedObjectStore(this.engine.objectStore(manager), { maxEntries: 1000 });
    return this.insertRevision(manager, {
      spaceId: input.spaceId,
      parents: input.parents,
      type: input.type,
      tree: await this.applyChanges(store, base, input.changes),
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
