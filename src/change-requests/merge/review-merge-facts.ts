import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ChangeRequest } from '../entities/change-request.entity';
import { ChangeRequestReviewsService } from '../reviews/change-request-reviews.service';
import { MergeReviewFacts } from './change-request-merge.service';

/** The review facts of the merge rules, from the change request's reviews and requests. */
@Injectable()
export class ReviewMergeFacts extends MergeReviewFacts {
  constructor(private readonly reviews: ChangeRequestReviewsService) {
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
    const changesRequested = await manager.query<{ reviewer_id: string }[]>(
      `SELECT DISTINCT reviewer_id FROM change_request_reviews
        WHERE change_request_id = $1 AND status = 'changes-requested' AND NOT superseded`,
      [changeRequest.id],
    );
    return {
      approvedBy: new Set(approvedBy),
      changesRequestedBy: new Set(changesRequested.map((row) => row.reviewer_id)),
      requestedReviewers: requested.map((request) => request.userId),
    };
  }
}
