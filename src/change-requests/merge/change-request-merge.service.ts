import { Injectable } from '@nestjs/common';
import { userActor } from '../../platform/events/event-outbox';
import { ChangeRequestEvents } from '../change-request-events';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ContentEngine } from '../../content-engine/content-engine';
import { mergeTrees } from '../../content-engine/merge/merge-trees';
import { BatchedObjectStore } from '../../content-engine/reads/batched-object-store';
import { CachedObjectStore, type ObjectStore } from '../../content-engine/tree/object-store';
import { ContentObjectsRepository } from '../../content-engine/content-objects.repository';
import { RevisionsRepository } from '../../content-engine/revisions.repository';
import {
  assertChangeRequestWritable,
  ContentWriter,
} from '../../content-engine/writes/content-writer';
import { Clock } from '../../platform/clock/clock';
import { DomainError, notFound } from '../../platform/errors/domain-error';
import type { SpaceAccess } from '../../spaces/space-access.resolver';
import { changeRequestMerged } from '../change-request-errors';
import { ChangeRequestsRepository, MergeLockedSpace } from '../change-requests.repository';
import { ChangeRequestsService } from '../change-requests.service';
import type { MergeConflictResponse } from '../dto/merge.response';
import { ChangeRequest } from '../entities/change-request.entity';
import {
  describeConflict,
  matchResolutions,
  unresolvable,
  type ConflictResolution,
  type Side,
} from './conflict-resolution';
import { withVersions } from './conflict-versions';
import { effectiveMergeRules, unmetMergeRule, type MergeFacts } from './merge-rules';
import { applyResolutions } from './resolution-changes';
import { SideTree } from './side-tree';

/** The outcome of a merge or an update: `revision` is the resulting (or, on conflicts, current) one. */
export interface MergeOutcome<R extends 'merge' | 'update'> {
  result: R | 'conflicts';
  revision: string;
  /** What conflicts, when `result` is `conflicts` (a Bindery extension), with each side's version. */
  conflicts?: MergeConflictResponse[];
}

/** An update from the primary: its conflicts' resolutions, and the head they were made on. */
export interface UpdateInput {
  /** Absent or empty: an ordinary update, which answers conflicts rather than resolving them. */
  resolutions?: readonly ConflictResolution[];
  /** `If-Match`: the change request's head the caller saw; another head is a 412. */
  expectedRevisionId?: string;
}

/** The reviews a merge rule looks at; a stand-in answers "none" until reviews are wired. */
export abstract class MergeReviewFacts {
  abstract of(
    manager: EntityManager,
    changeRequest: ChangeRequest,
  ): Promise<Pick<MergeFacts, 'approvedBy' | 'changesRequestedBy' | 'requestedReviewers'>>;
}

const refuse = (code: string, message: string) => new DomainError('conflict', code, message);

/**
 * Merging a change request into its space's primary content, and updating a change request
 * from the primary: three-way merges of revision trees (mergeTrees) over the change request's
 * merge base, its `revisionMergedAncestor` or else `revisionInitial`.
 *
 * Both run in one transaction holding the space row, so merges into one space queue up, each
 * on the primary the previous one left; the primary itself moves with ContentWriter's
 * compare-and-swap. With conflicts nothing changes.
 */
@Injectable()
export class ChangeRequestMergeService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly changeRequests: ChangeRequestsService,
    private readonly repository: ChangeRequestsRepository,
    private readonly engine: ContentEngine,
    private readonly revisions: RevisionsRepository,
    private readonly objects: ContentObjectsRepository,
    private readonly writer: ContentWriter,
    private readonly reviews: MergeReviewFacts,
    private readonly clock: Clock,
    private readonly events: ChangeRequestEvents,
  ) {}

  merge(
    access: SpaceAccess,
    changeRequestId: string,
    userId: string,
    expectedRevisionId?: string,
  ): Promise<MergeOutcome<'merge'>> {
    return this.dataSource.transaction(async (manager) => {
      const space = await this.lockSpace(manager, access.id);
      const cr = await this.lockChangeRequest(manager, access.id, changeRequestId);
      if (cr.status === 'merged') {
        throw changeRequestMerged('it cannot be merged again');
      }
      if (cr.status === 'archived') {
        throw refuse(
          'ChangeRequestArchived',
          'The change request is archived: reopen it (status open) to merge it.',
        );
      }
      assertChangeRequestWritable(cr, expectedRevisionId);
      const base = mergeBase(cr);
      const unmet = unmetMergeRule(
        effectiveMergeRules(space.merge_rules, space.organization_merge_rules),
        {
          userId,
          subject: cr.subject,
          hasDescription: cr.description !== null && cr.description.nodes.length > 0,
          outdated: space.revision_id !== base,
          ...(await this.reviews.of(manager, cr)),
        },
      );
      if (unmet) throw unmet;

      const store = this.store(manager);
      const trees = await this.trees(manager, [base, space.revision_id, cr.revision]);
      const merged = await mergeTrees({
        store,
        base: trees[0],
        ours: trees[1],
        theirs: trees[2],
      });
      if (merged.result === 'conflicts') {
        const sides = sideTrees(store, {
          base: trees[0],
          changeRequest: trees[2],
          primary: trees[1],
        });
        const conflicts = await withVersions(sides, merged.conflicts);
        return { result: 'conflicts', revision: space.revision_id, conflicts };
      }
      const { revision } = await this.writer.commitOnPrimary(manager, {
        spaceId: access.id,
        expectedRevisionId: space.revision_id,
        authorId: userId,
        type: 'merge',
        changes: () => Promise.resolve({ tree: merged.tree }),
        mergedParent: cr.revision,
      });
      await manager.update(
        ChangeRequest,
        { id: cr.id },
        { status: 'merged', revisionMerged: revision.id, updatedAt: this.clock.now() },
      );
      await this.changeRequests.moveCounts(manager, access.id, cr.status, 'merged');
      const mergedView = await this.changeRequests.load(manager, access.id, cr.id);
      await this.events.record(manager, 'change_request_merged', mergedView, userActor(userId), {
        revisionId: revision.id,
      });
      return { result: 'merge', revision: revision.id };
    });
  }

  /**
   * Brings the primary's changes since the merge base into the change request: a new `update`
   * revision on it (parents: its head, then the primary), and the primary becomes its merge
   * base. Nothing to bring (the primary did not move) answers its current revision.
   *
   * With `resolutions`, conflicts are resolved rather than answered: every conflict must have
   * exactly one resolution (conflict-resolution.ts), else nothing is written (409).
   */
  update(
    access: SpaceAccess,
    changeRequestId: string,
    userId: string,
    input: UpdateInput = {},
  ): Promise<MergeOutcome<'update'>> {
    const resolutions = input.resolutions ?? [];
    return this.dataSource.transaction(async (manager) => {
      const space = await this.lockSpace(manager, access.id);
      const cr = await this.lockChangeRequest(manager, access.id, changeRequestId);
      if (cr.status === 'merged') {
        throw changeRequestMerged('it is part of the primary content already');
      }
      if (input.expectedRevisionId !== undefined) {
        assertChangeRequestWritable(cr, input.expectedRevisionId);
      }
      const base = mergeBase(cr);
      if (space.revision_id === base) {
        matchResolutions([], resolutions);
        return { result: 'update', revision: cr.revision };
      }

      const store = this.store(manager);
      const [baseTree, crTree, primaryTree] = await this.trees(manager, [
        base,
        cr.revision,
        space.revision_id,
      ]);
      const sides = sideTrees(store, {
        base: baseTree,
        changeRequest: crTree,
        primary: primaryTree,
      });
      let merged = await mergeTrees({ store, base: baseTree, ours: crTree, theirs: primaryTree });
      if (resolutions.length) {
        const matched = matchResolutions(
          merged.result === 'conflicts' ? merged.conflicts : [],
          resolutions,
        );
        const resolved = await applyResolutions(store, sides, matched);
        merged = await mergeTrees({
          store,
          base: baseTree,
          ours: resolved.changeRequest,
          theirs: resolved.primary,
        });
        if (merged.result === 'conflicts') {
          throw unresolvable(
            'Still in conflict with these resolutions, so nothing was written: ' +
              `${merged.conflicts.map(describeConflict).join('; ')}.`,
          );
        }
      } else if (merged.result === 'conflicts') {
        const conflicts = await withVersions(sides, merged.conflicts);
        return { result: 'conflicts', revision: cr.revision, conflicts };
      }
      const tree = merged.tree;
      const { revision } = await this.writer.commitOnChangeRequest(manager, {
        spaceId: access.id,
        changeRequestId: cr.id,
        expectedRevisionId: cr.revision,
        authorId: userId,
        type: 'update',
        mergedParent: space.revision_id,
        changes: () => Promise.resolve({ tree }),
      });
      await manager.update(
        ChangeRequest,
        { id: cr.id },
        { revisionMergedAncestor: space.revision_id },
      );
      return { result: 'update', revision: revision.id };
    });
  }

  /**
   * What merging the change request would conflict on, each conflict with the three versions
   * of what is in conflict (empty when it merges cleanly). Reads only.
   */
  conflicts(access: SpaceAccess, changeRequestId: string): Promise<MergeConflictResponse[]> {
    return this.dataSource.transaction('REPEATABLE READ', async (manager) => {
      const { changeRequest: cr, primaryRevision } = await this.changeRequests.load(
        manager,
        access.id,
        changeRequestId,
      );
      if (cr.status === 'merged') return [];
      const store = this.store(manager);
      const [base, changeRequest, primary] = await this.trees(manager, [
        mergeBase(cr),
        cr.revision,
        primaryRevision,
      ]);
      const merged = await mergeTrees({ store, base, ours: changeRequest, theirs: primary });
      if (merged.result === 'merge') return [];
      return withVersions(sideTrees(store, { base, changeRequest, primary }), merged.conflicts);
    });
  }

  /** The space row, locked: merges and updates in one space run one after another. */
  private async lockSpace(manager: EntityManager, spaceId: string): Promise<MergeLockedSpace> {
    const space = await this.repository.lockSpaceForMerge(spaceId, manager);
    if (!space) throw notFound('Space');
    return space;
  }

  private async lockChangeRequest(
    manager: EntityManager,
    spaceId: string,
    changeRequestId: string,
  ): Promise<ChangeRequest> {
    const { changeRequest: found } = await this.changeRequests.load(
      manager,
      spaceId,
      changeRequestId,
    );
    await this.repository.lock(found.id, manager);
    // Read again under the lock: a content write may have moved its head meanwhile.
    return (await this.changeRequests.load(manager, spaceId, found.id)).changeRequest;
  }

  /** Root tree hashes of revisions of the space, in the order asked. */
  private async trees(manager: EntityManager, revisionIds: string[]): Promise<string[]> {
    const rows = await this.revisions.findTrees(revisionIds, manager);
    const byId = new Map(rows.map((row) => [row.id, row.tree]));
    return revisionIds.map((id) => {
      const tree = byId.get(id);
      if (tree === undefined) throw new Error(`Revision ${id} is missing`);
      return tree;
    });
  }

  /** Content objects in the transaction: reads of one tick in one query, cached by hash. */
  private store(manager: EntityManager): ObjectStore {
    const batched = new BatchedObjectStore(
      manager,
      (kind, data) => this.engine.put(manager, kind, data),
      this.objects,
    );
    return new CachedObjectStore(batched, { maxEntries: 5000 });
  }
}

/** The three versions of a conflict, read from their root trees. */
function sideTrees(store: ObjectStore, trees: Record<Side, string>): Record<Side, SideTree> {
  return {
    base: new SideTree(store, trees.base),
    changeRequest: new SideTree(store, trees.changeRequest),
    primary: new SideTree(store, trees.primary),
  };
}

function mergeBase(cr: ChangeRequest): string {
  return cr.revisionMergedAncestor ?? cr.revisionInitial;
}
