import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { DomainError } from '../../platform/errors/domain-error';
import { ContentEngine } from '../content-engine';
import { RevisionsRepository } from '../revisions.repository';
import { CachedObjectStore } from '../tree/object-store';
import { ContentHeads } from '../writes/content-heads';
import { ContentWriter } from '../writes/content-writer';
import { apiReferenceChanges } from './api-reference-sources';

/** What regenerating a space's API-reference pages came to. */
export type ApiReferenceUpdate =
  /** A new primary revision with the pages as the version gives them. */
  | 'written'
  /** The pages were already what the version gives: nothing written. */
  | 'unchanged'
  /** The space is locked: nothing written (its pages follow the next version after it opens). */
  | 'locked'
  /** No such live space, or no page of it is computed from the specification any more. */
  | 'none';

/** Attempts when the primary moves between reading it and writing on it. */
const ATTEMPTS = 3;

/**
 * Regenerates the pages of a space's primary content that are computed from an OpenAPI
 * specification (`builtin:openapi`, written by the api-reference template), from the
 * specification's latest processed version: one `edits` revision by nobody, in one transaction,
 * through the ContentWriter (the primary moves by compare-and-swap and its listeners, the
 * search index and the sites' cache, hear of it); none when nothing changes.
 */
@Injectable()
export class ApiReferenceUpdates {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly engine: ContentEngine,
    private readonly revisions: RevisionsRepository,
    private readonly heads: ContentHeads,
    private readonly writer: ContentWriter,
  ) {}

  /**
   * `specRefs`: the spec's id and slug (a page's content ref names it by either); `document`:
   * its latest version, dereferenced.
   */
  async update(
    spaceId: string,
    specRefs: readonly string[],
    document: unknown,
  ): Promise<ApiReferenceUpdate> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.dataSource.transaction(async (manager) => {
          const head = await this.heads.spaces.findHead(spaceId, '', manager);
          if (!head || head.deletedAt !== null) return 'none';
          const tree = await this.revisions.findTree(head.revisionId, spaceId, manager);
          if (tree === undefined) return 'none';
          const store = new CachedObjectStore(this.engine.objectStore(manager), {
            maxEntries: 1000,
          });
          const changes = await apiReferenceChanges(store, tree, specRefs, document);
          if (changes === null) return 'none';
          if (changes.length === 0) return 'unchanged';
          if (head.editMode === 'locked') return 'locked';
          await this.writer.commitOnPrimary(manager, {
            spaceId,
            expectedRevisionId: head.revisionId,
            authorId: null,
            type: 'edits',
            changes,
          });
          return 'written';
        });
      } catch (error) {
        const moved = error instanceof DomainError && error.code === 'SpaceContentMoved';
        if (!moved || attempt >= ATTEMPTS) throw error;
      }
    }
  }
}
