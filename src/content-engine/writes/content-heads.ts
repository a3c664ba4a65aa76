import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/**
 * How a space's row is locked when its head is read for a write: '' for no lock; `FOR SHARE`
 * also waits for, and holds off, moves of the primary (their compare-and-swap updates the row).
 */
export type SpaceHeadLock = 'FOR KEY SHARE' | 'FOR SHARE' | '';

/**
 * What the writer needs of a space's row: its primary revision and whether it may change; and
 * what the search index needs: its language (GitBook's code, or null).
 */
export interface SpaceHead {
  revisionId: string;
  editMode: string;
  deletedAt: Date | null;
  language: string | null;
}

/** A space's primary revision (`spaces.revision_id`), as the spaces module keeps it. */
export interface SpaceHeads {
  /** The space's head, its row locked as `lock` says; undefined when there is no such space. */
  findHead(
    spaceId: string,
    lock: SpaceHeadLock,
    manager: EntityManager,
  ): Promise<SpaceHead | undefined>;
  /**
   * Moves the space's primary revision from `expected` to `next` (its `updated_at` to `at`);
   * false when the primary was not `expected` any more.
   */
  compareAndSwap(
    spaceId: string,
    expected: string,
    next: string,
    at: Date,
    manager: EntityManager,
  ): Promise<boolean>;
}

/** What the writer needs of a change request's row: its revisions and its status. */
export interface LockedChangeRequest {
  revision: string;
  revisionInitial: string;
  revisionMergedAncestor: string | null;
  status: string;
}

/** A change request's head revision (`change_requests.revision`), as its module keeps it. */
export interface ChangeRequestHeads {
  /**
   * The change request `changeRequestId` of `spaceId`, its row locked for update until the
   * transaction ends; undefined when there is none.
   */
  lockHead(
    spaceId: string,
    changeRequestId: string,
    manager: EntityManager,
  ): Promise<LockedChangeRequest | undefined>;
  /** Moves the change request's head from `expected` to `next` (its `updated_at` to `at`). */
  moveHead(
    changeRequestId: string,
    expected: string,
    next: string,
    at: Date,
    manager: EntityManager,
  ): Promise<void>;
}

/**
 * The heads the writer moves, which live in the tables of modules above the engine: the spaces
 * module registers its SpaceHeads and the change-requests module its ChangeRequestHeads when
 * they start. A write without them fails: there is nothing to move.
 */
@Injectable()
export class ContentHeads {
  private spaceHeads?: SpaceHeads;
  private changeRequestHeads?: ChangeRequestHeads;

  registerSpaces(heads: SpaceHeads): void {
    if (this.spaceHeads) throw new Error('Space heads are already registered');
    this.spaceHeads = heads;
  }

  registerChangeRequests(heads: ChangeRequestHeads): void {
    if (this.changeRequestHeads) throw new Error('Change request heads are already registered');
    this.changeRequestHeads = heads;
  }

  get spaces(): SpaceHeads {
    if (!this.spaceHeads) throw new Error('No space heads are registered (the spaces module)');
    return this.spaceHeads;
  }

  get changeRequests(): ChangeRequestHeads {
    if (!this.changeRequestHeads) {
      throw new Error('No change request heads are registered (the change-requests module)');
    }
    return this.changeRequestHeads;
  }
}
