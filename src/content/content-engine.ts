import { Injectable } from '@nestjs/common';
import stringify from 'json-stable-stringify';
import { EntityManager } from 'typeorm';
import { Clock } from '../platform/clock/clock';
import { newId, sha256Hex } from '../platform/ids/ids';
import { Revision, RevisionType } from './entities/revision.entity';
import type { ObjectStore } from './tree/object-store';

/**
 * A page of a tree (format version 1): metadata and children. The document body, when there
 * is one, is another object (`documentId`); absent means an empty page.
 */
export interface PageObject {
  id: string;
  type: 'document';
  title: string;
  slug: string;
  documentId?: string;
  pages: string[];
}

/** The root of a revision (format version 1): top-level pages by hash, files, variables. */
export interface TreeObject {
  version: 1;
  pages: string[];
  files: string[];
  reusableContents: string[];
  variables: Record<string, string | number | boolean>;
}

/** What a new space starts with: one empty page (GitBook's default) or nothing at all. */
export type InitialContent = 'page' | 'empty';

/** The title of the page a new space starts with. */
export const INITIAL_PAGE_TITLE = 'Untitled';

/**
 * The content engine: immutable revisions over content-addressed objects. This is the part
 * spaces need from the start (a first revision, and a revision sharing another's content);
 * reads, commits of changes and merges build on the same objects.
 */
@Injectable()
export class ContentEngine {
  constructor(private readonly clock: Clock) {}

  /** Stores `data` once under the SHA-256 of its canonical JSON and returns that hash. */
  async put(manager: EntityManager, kind: string, data: object): Promise<string> {
    const json = stringify(data) as string;
    const hash = sha256Hex(json);
    await manager.query(
      `INSERT INTO content_objects (hash, kind, data, created_at) VALUES ($1, $2, $3::jsonb, $4)
       ON CONFLICT (hash) DO NOTHING`,
      [hash, kind, json, this.clock.now()],
    );
    return hash;
  }

  /**
   * `content_objects` as an ObjectStore for the tree functions (src/content/tree), within
   * `manager`'s transaction. Wrap it in a CachedObjectStore to cache reads by hash.
   */
  objectStore(manager: EntityManager): ObjectStore {
    return {
      get: async (hash) => {
        const rows: { data: object }[] = await manager.query(
          'SELECT data FROM content_objects WHERE hash = $1',
          [hash],
        );
        return rows[0]?.data;
      },
      put: (kind, data) => this.put(manager, kind, data),
    };
  }

  /** The first revision of a new space (`id` given when the space row already names it). */
  async createInitialRevision(
    manager: EntityManager,
    input: { id?: string; spaceId: string; authorId: string | null; content: InitialContent },
  ): Promise<Revision> {
    const pages: string[] = [];
    if (input.content === 'page') {
      const page: PageObject = {
        id: newId(),
        type: 'document',
        title: INITIAL_PAGE_TITLE,
        slug: INITIAL_PAGE_TITLE.toLowerCase(),
        pages: [],
      };
      pages.push(await this.put(manager, 'page', page));
    }
    const tree: TreeObject = { version: 1, pages, files: [], reusableContents: [], variables: {} };
    return this.insertRevision(manager, {
      id: input.id ?? newId(),
      spaceId: input.spaceId,
      parents: [],
      type: 'edits',
      tree: await this.put(manager, 'tree', tree),
      authorId: input.authorId,
    });
  }

  /**
   * A first revision for `spaceId` with exactly the content of `source` (another space's): it
   * points at the same tree, so nothing is copied.
   */
  forkRevision(
    manager: EntityManager,
    input: { id?: string; spaceId: string; authorId: string | null; source: Revision },
  ): Promise<Revision> {
    return this.insertRevision(manager, {
      id: input.id ?? newId(),
      spaceId: input.spaceId,
      parents: [],
      type: 'edits',
      tree: input.source.tree,
      authorId: input.authorId,
    });
  }

  private async insertRevision(
    manager: EntityManager,
    input: Pick<Revision, 'id' | 'spaceId' | 'parents' | 'type' | 'tree' | 'authorId'> & {
      type: RevisionType;
    },
  ): Promise<Revision> {
    const revision = manager.create(Revision, {
      ...input,
      git: null,
      createdAt: this.clock.now(),
    });
    await manager.insert(Revision, revision);
    return revision;
  }
}
