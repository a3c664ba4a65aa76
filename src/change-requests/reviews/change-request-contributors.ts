import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Clock } from '../../platform/clock/clock';
import { Page } from '../../platform/pagination/page';
import type { PageQueryDto } from '../../platform/pagination/page-query.dto';
import { ChangeRequestContributorsRepository } from './change-request-contributors.repository';
import {
  ChangeRequestContributor,
  type ContributionType,
} from './entities/change-request-contributor.entity';

/**
 * Who contributed to a change request: one counter per user and kind of contribution. Writers
 * (content edits, comments, reviews with a comment, space templates applied to a change
 * request) call `record` inside their own transaction, so a contribution counts only when the
 * write commits.
 */
@Injectable()
export class ChangeRequestContributors {
  constructor(
    private readonly repository: ChangeRequestContributorsRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * Counts one contribution of `userId` now (from the Clock, millisecond precision, so listing
   * cursors round-trip); concurrent calls for the same row queue on it.
   */
  record(
    manager: EntityManager,
    changeRequestId: string,
    userId: string,
    actionType: ContributionType,
  ): Promise<void> {
    return this.repository.increment(
      changeRequestId,
      userId,
      actionType,
      this.clock.now(),
      manager,
    );
  }

  /** Latest contribution first, one item per user and kind. */
  list(changeRequestId: string, request: PageQueryDto): Promise<Page<ChangeRequestContributor>> {
    return this.repository.listForChangeRequest(changeRequestId, request);
  }
}
