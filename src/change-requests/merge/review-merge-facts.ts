import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ChangeRequest } from '../entities/change-request.entity';
import { ChangeRequestReviewsRepository } from '../reviews/change-request-reviews.repository';
import { ChangeRequestReviewsService } from '../reviews/change-request-reviews.service';
import { MergeReviewFacts } from './change-request-merge.service';

/** The review facts of the merge rules, from the change request's reviews and requests. */
@Injectable()
export class ReviewMergeFacts extends MergeReviewFacts {
  constructor(
    private readonly reviews: ChangeRequestReviewsService,
    private readonly reviewRows: ChangeRequestReviewsRepository,
  ) {
    super();
  }

  async of(manager: EntityManager, changeRequest: ChangeRequest) {
    // One after another: the queries share the merge's transaction, one connection.
    const approvedBy = await this.reviews.approvals(
      manager,
      changeRequest.id,
      changeRequest.revision,
    );
    const requested = await this.reviews.requestedReviewers(manager, changeRequest.id);
    const changesRequestedBy = await this.reviewRows.findChangesRequesters(
      changeRequest.id,
      manager,
    );
    return {
      approvedBy: new Set(approvedBy),
      changesRequestedBy: new Set(changesRequestedBy),
      requestedReviewers: requested.map((request) => request.userId),
    };
  }
}
