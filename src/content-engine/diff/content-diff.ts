import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ContentEngine } from '../content-engine';
import { RevisionsRepository } from '../revisions.repository';

import { notFound } from '../../platform/errors/domain-error';
import { emptyDocument, type JSONDocument } from '../documents/document';
import { ContentReader, type PageTree, type ReadRevision } from '../reads/content-reader';
import { CachedObjectStore, getRequired, type ObjectStore } from '../tree/object-store';
import { blockStats, diffBlocks, type BlockEntry, type BlockStatus } from './block-diff';
import { pageAttributes, type ChangeAttributes } from './change-attributes';
import { treeChanges, type TreeChange } from './tree-changes';

/** How many tree diffs ContentDiff keeps (a few imports' worth). */
const RECENT_DIFFS = 4;

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
  /**
   * The last tree diffs made, by their trees' hashes (content-addressed: a diff of two trees
   * never changes), newest last: see prepareChanges.
   */
  private readonly recent = new Map<string, Promise<TreeChange[]>>();

  constructor(
    private readonly reader: ContentReader,
    private readonly engine: ContentEngine,
    private readonly revisions: RevisionsRepository,
  ) {}

  /**
   * Diffs two trees ahead of a transaction that will ask for it (changesWithin): a bulk write
   * (a Git import of thousands of pages) diffs outside its transaction, which then only reads
   * the result; on the embedded database a transaction holds every other request. `store`
   * should batch its reads (BatchedObjectStore): thousands of single reads at once would take
   * every connection of the pool from the requests.
   */
  async prepareChanges(store: ObjectStore, fromTree: string, toTree: string): Promise<void> {
    await this.treeDiff(store, fromTree, toTree);
  }

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
    const rows = await this.revisions.findTrees([fromRevisionId, toRevisionId], manager);
    const treeOf = (id: string) => rows.find((row) => row.id === id)?.tree;
    const [from, to] = [treeOf(fromRevisionId), treeOf(toRevisionId)];
    if (from === undefined || to === undefined) throw notFound('Revision');
    return this.treeDiff(this.engine.objectStore(manager), from, to);
  }

  private treeDiff(store: ObjectStore, from: string, to: string): Promise<TreeChange[]> {
    const key = `${from}:${to}`;
    const known = this.recent.get(key);
    if (known) return known;
    const diff = treeChanges(new CachedObjectStore(store), from, to);
    this.recent.set(key, diff);
    diff.catch(() => this.recent.delete(key));
    while (this.recent.size > RECENT_DIFFS) this.recent.delete(this.recent.keys().next().value!);
    return diff;
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
