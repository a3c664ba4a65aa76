import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ContentEngine } from '../content-engine';
import { RevisionsRepository } from '../revisions.repository';

import { notFound } from '../../platform/errors/domain-error';
import { emptyDocument, type JSONDocument } from '../documents/document';
import { ContentReader, type PageTree, type ReadRevision } from '../reads/content-reader';
import { CachedObjectStore, getRequired } from '../tree/object-store';
import { blockStats, diffBlocks, type BlockEntry, type BlockStatus } from './block-diff';
import { pageAttributes, type ChangeAttributes } from './change-attributes';
import { treeChanges, type TreeChange } from './tree-changes';

/** A page as one side of a page diff has it. */
export interface PageVersion {
  page: PageTree;
  /** Its document; empty for a page without one (and for groups, links, computed pages). */
  document: JSONDocument;
}

/** One page from one revision to another: absent on a side where it is not. */
export interface PageDiff {
  before: PageVersion | null;
  after: PageVersion | null;
  /** What changed of the page itself (GitBook's page change attributes); {} when one-sided. */
  attributes: ChangeAttributes;
  blocks: BlockEntry[];
  stats: Record<BlockStatus, number>;
}

/**
 * What changed between two revisions of a space, over the objects the reads cache: the
 * semantic changes of the whole tree, and the blocks of one page.
 */
@Injectable()
export class ContentDiff {
  constructor(
    private readonly reader: ContentReader,
    private readonly engine: ContentEngine,
    private readonly revisions: RevisionsRepository,
  ) {}

  /**
   * What changed from `fromRevisionId` to `toRevisionId` of `spaceId`, read within `manager`'s
   * transaction (so a revision it has just written, not yet committed, is seen); only the
   * subtrees whose hashes differ are read.
   */
  async changesWithin(
    manager: EntityManager,
    spaceId: string,
    fromRevisionId: string,
    toRevisionId: string,
  ): Promise<TreeChange[]> {
    const [from, to] = await Promise.all([
      this.revisions.findTree(fromRevisionId, spaceId, manager),
      this.revisions.findTree(toRevisionId, spaceId, manager),
    ]);
    if (from === undefined || to === undefined) throw notFound('Revision');
    return treeChanges(new CachedObjectStore(this.engine.objectStore(manager)), from, to);
  }

  /** From `from` (null: nothing, for a revision without a parent) to `to`. */
  changes(from: ReadRevision | null, to: ReadRevision): Promise<TreeChange[]> {
    return treeChanges(this.reader.objects, from?.revision.tree ?? null, to.revision.tree);
  }

  /** The page `pageId` from `from` (null: nothing) to `to`; 404 when neither has it. */
  async page(from: ReadRevision | null, to: ReadRevision, pageId: string): Promise<PageDiff> {
    const [before, after] = await Promise.all([
      from ? this.version(from, pageId) : null,
      this.version(to, pageId),
    ]);
    if (!before && !after) throw notFound('Page');
    const blocks = diffBlocks(before?.document.nodes ?? [], after?.document.nodes ?? []);
    return {
      before,
      after,
      attributes: before && after ? pageAttributes(before.page.node, after.page.node) : {},
      blocks,
      stats: blockStats(blocks),
    };
  }

  private async version(revision: ReadRevision, pageId: string): Promise<PageVersion | null> {
    const page = await this.reader.findPage(revision, pageId);
    if (!page) return null;
    const hash = page.node.type === 'document' ? page.node.document : null;
    const document =
      hash === null ? emptyDocument() : await getRequired<JSONDocument>(this.reader.objects, hash);
    return { page, document };
  }
}
