import { Injectable, Logger } from '@nestjs/common';
import { BlobStore } from '../../platform/blob-store/blob-store';
import { Clock } from '../../platform/clock/clock';
import { ContentObjectsRepository } from '../content-objects.repository';
import { blobKeyOf } from '../files/file-content';
import { RevisionsRepository } from '../revisions.repository';
import { markReachable, type ObjectBatchReader } from './reachability';

/**
 * How old an unreachable object must be before it is swept. A commit stores its objects before
 * it inserts the revision that reaches them; this leaves it far more time than it needs.
 */
export const CONTENT_GC_GRACE_MS = 24 * 60 * 60 * 1000;

/** Hashes per query, in the mark (objects read), the sweep (rows scanned) and blob checks. */
export const CONTENT_GC_BATCH_SIZE = 1000;

export interface ContentGcResult {
  /** Distinct root trees of revisions. */
  roots: number;
  /** Objects reachable from them (including referenced objects that are missing). */
  reachable: number;
  /** Referenced objects that were not found (already broken trees). */
  missing: number;
  /** Unreachable objects older than the grace period, deleted. */
  swept: number;
  /** Blobs of swept files that no remaining file references, deleted from the BlobStore. */
  blobsDeleted: number;
}

/**
 * Removes the content objects that no revision reaches any more (their spaces were purged), and
 * the file bytes only they referenced: mark from every revision's tree, then sweep in batches.
 */
@Injectable()
export class ContentGarbageCollector {
  private readonly logger = new Logger('ContentGarbageCollector');

  constructor(
    private readonly objects: ContentObjectsRepository,
    private readonly revisions: RevisionsRepository,
    private readonly clock: Clock,
    private readonly blobs: BlobStore,
  ) {}

  async collect(batchSize = CONTENT_GC_BATCH_SIZE): Promise<ContentGcResult> {
    // Decided before the mark: an object stored after it started is never old enough.
    const cutoff = new Date(this.clock.now().getTime() - CONTENT_GC_GRACE_MS);
    const { marked, roots, missing } = await this.mark(batchSize);
    const { swept, blobs } = await this.sweep(marked, cutoff, batchSize);
    const blobsDeleted = await this.deleteUnreferencedBlobs(blobs, batchSize);
    const result = { roots, reachable: marked.size, missing, swept, blobsDeleted };
    if (missing > 0) this.logger.warn(result, 'Revisions reference missing content objects');
    return result;
  }

  private async mark(
    batchSize: number,
  ): Promise<{ marked: Set<string>; roots: number; missing: number }> {
    const reader: ObjectBatchReader = {
      readMany: async (hashes) => {
        const rows = await this.objects.findMany(hashes);
        return new Map(rows.map((row) => [row.hash, row.data]));
      },
    };
    const marked = new Set<string>();
    let roots = 0;
    let missing = 0;
    // Keyset over IDX_revisions_tree: each distinct tree once, whatever shares it.
    for (let after = ''; ;) {
      const trees = await this.revisions.distinctTreesAfter(after, batchSize);
      if (trees.length === 0) break;
      roots += trees.length;
      const stats = await markReachable(reader, trees, marked, { batchSize });
      missing += stats.missing.length;
      after = trees[trees.length - 1];
    }
    return { marked, roots, missing };
  }

  /** Deletes unmarked objects created before `cutoff`; answers the blobs of deleted files. */
  private async sweep(
    marked: ReadonlySet<string>,
    cutoff: Date,
    batchSize: number,
  ): Promise<{ swept: number; blobs: Set<string> }> {
    let swept = 0;
    const blobs = new Set<string>();
    for (let after = ''; ;) {
      const hashes = await this.objects.hashesAfter(after, batchSize);
      if (hashes.length === 0) break;
      after = hashes[hashes.length - 1];
      const garbage = hashes.filter((hash) => !marked.has(hash));
      if (garbage.length === 0) continue;
      // A revision inserted since the mark may point at one of them: never delete a root in use.
      const deleted = await this.objects.deleteUnrooted(garbage, cutoff);
      swept += deleted.length;
      for (const row of deleted) {
        if (row.kind === 'file' && typeof row.blob === 'string') blobs.add(row.blob);
      }
    }
    return { swept, blobs };
  }

  /** Deletes the blobs among `candidates` that no file object references any more. */
  private async deleteUnreferencedBlobs(
    candidates: ReadonlySet<string>,
    batchSize: number,
  ): Promise<number> {
    const all = [...candidates];
    let deleted = 0;
    for (let start = 0; start < all.length; start += batchSize) {
      const batch = all.slice(start, start + batchSize);
      const referenced = await this.objects.referencedBlobs(batch);
      for (const blob of batch) {
        if (referenced.has(blob)) continue;
        await this.blobs.delete(blobKeyOf(blob));
        deleted++;
      }
    }
    return deleted;
  }
}
