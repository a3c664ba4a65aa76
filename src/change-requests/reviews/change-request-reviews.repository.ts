import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, SelectQueryBuilder } from 'typeorm';
import { paginate, PageRequest } from '../../platform/pagination/keyset';
import { Page } from '../../platform/pagination/page';
import { ChangeRequestRequestedReviewer } from './entities/change-request-requested-reviewer.entity';
import { ChangeRequestReview, type ReviewStatus } from './entities/change-request-review.entity';

/** A request to review with the review that answers it, if any, as merge rules read it. */
export interface RequestedReviewerRow {
  user_id: string;
  requested_by: string;
  /** The change request's head revision when the request was made. */
  revision: string;
  created_at: Date;
  review_id: string | null;
  review_status: ReviewStatus | null;
  review_revision: string | null;
  /** Superseded, or made on another revision than the change request's head. */
  review_outdated: boolean | null;
}

/**
 * The `change_request_reviews` and `change_request_requested_reviewers` tables. Reviews are read
 * with their reviewer and requester, requests with their user, asker and answering review's
 * status, as their wire shapes need.
 */
@Injectable()
export class ChangeRequestReviewsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** A page of the change request's reviews, newest first; `outdated` against `head` if given. */
  listReviews(
    changeRequestId: string,
    head: string,
    outdated: boolean | undefined,
    request: PageRequest,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Page<ChangeRequestReview>> {
    const rows = this.reviews(manager).where('r.change_request_id = :changeRequestId', {
      changeRequestId,
    });
    if (outdated !== undefined) {
      rows.andWhere('(r.superseded OR r.revision <> :head) = :outdated', { head, outdated });
    }
    return paginate(rows, request, {
      keys: [
        { sql: 'r.created_at', of: (r) => r.createdAt },
        { sql: 'r.id', of: (r) => r.id },
      ],
      direction: 'DESC',
    });
  }

  /** The change request's review `reviewId` with its reviewer and requester; null when absent. */
  findReview(
    changeRequestId: string,
    reviewId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<ChangeRequestReview | null> {
    return this.reviews(manager)
      .where('r.change_request_id = :changeRequestId AND r.id = :reviewId', {
        changeRequestId,
        reviewId,
      })
      .getOne();
  }

  /**
   * The users whose current approval stands on `revisionId` (their latest review, not
   * superseded, is an approval made on that revision), by id.
   */
  async findApprovers(
    changeRequestId: string,
    revisionId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<string[]> {
    const rows: { reviewer_id: string }[] = await manager.query(
      `SELECT DISTINCT reviewer_id FROM change_request_reviews
        WHERE change_request_id = $1 AND revision = $2 AND status = 'approved' AND NOT superseded
        ORDER BY reviewer_id`,
      [changeRequestId, revisionId],
    );
    return rows.map((row) => row.reviewer_id);
  }

  /** The users whose current review (not superseded, on any revision) requests changes, by id. */
  async findChangesRequesters(
    changeRequestId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<string[]> {
    const rows: { reviewer_id: string }[] = await manager.query(
      `SELECT DISTINCT reviewer_id FROM change_request_reviews
        WHERE change_request_id = $1 AND status = 'changes-requested' AND NOT superseded`,
      [changeRequestId],
    );
    return rows.map((row) => row.reviewer_id);
  }

  /** Marks the current (not yet superseded) reviews of `reviewerIds` as superseded. */
  async supersedeReviews(
    changeRequestId: string,
    reviewerIds: string[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.query(
      `UPDATE change_request_reviews SET superseded = true
        WHERE change_request_id = $1 AND reviewer_id = ANY($2::varchar[]) AND NOT superseded`,
      [changeRequestId, reviewerIds],
    );
  }

  /** A page of the change request's requests to review, in the order they were asked. */
  listRequests(
    changeRequestId: string,
    request: PageRequest,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Page<ChangeRequestRequestedReviewer>> {
    return paginate(this.requests(manager, changeRequestId), request, {
      keys: [
        { sql: 'q.created_at', of: (q) => q.createdAt },
        { sql: 'q.user_id', of: (q) => q.userId },
      ],
      direction: 'ASC',
    });
  }

  /** The change request's requests to `userIds` that exist, by user id. */
  findRequests(
    changeRequestId: string,
    userIds: string[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<ChangeRequestRequestedReviewer[]> {
    return this.requests(manager, changeRequestId)
      .andWhere('q.user_id IN (:...users)', { users: userIds })
      .orderBy('q.user_id')
      .getMany();
  }

  /**
   * Asks `userIds` to review on `revision`, by `requestedBy` at `at`: a new request each, or the
   * existing one renewed (asker, revision and time replaced, its answering review cleared).
   */
  async upsertRequests(
    changeRequestId: string,
    userIds: string[],
    requestedBy: string,
    revision: string,
    at: Date,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.query(
      `INSERT INTO change_request_requested_reviewers
         (change_request_id, user_id, requested_by, revision, review_id, created_at)
       SELECT $1, u, $2, $3, NULL, $4 FROM unnest($5::varchar[]) AS u
       ON CONFLICT (change_request_id, user_id) DO UPDATE
         SET requested_by = EXCLUDED.requested_by, revision = EXCLUDED.revision,
             review_id = NULL, created_at = EXCLUDED.created_at`,
      [changeRequestId, requestedBy, revision, at, userIds],
    );
  }

  /** Every request to review the change request, with its answering review, in asking order. */
  async listRequestsWithReviews(
    changeRequestId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<RequestedReviewerRow[]> {
    // Joins change_requests (same module): whether the answer is outdated needs the head.
    const rows: RequestedReviewerRow[] = await manager.query(
      `SELECT q.user_id, q.requested_by, q.revision, q.created_at, q.review_id,
              r.status AS review_status, r.revision AS review_revision,
              (r.superseded OR r.revision <> cr.revision) AS review_outdated
         FROM change_request_requested_reviewers q
         JOIN change_requests cr ON cr.id = q.change_request_id
         LEFT JOIN change_request_reviews r ON r.id = q.review_id
        WHERE q.change_request_id = $1
        ORDER BY q.created_at, q.user_id`,
      [changeRequestId],
    );
    return rows;
  }

  private reviews(manager: EntityManager): SelectQueryBuilder<ChangeRequestReview> {
    // Joins users, owned by users: a review's wire shape carries its reviewer and requester.
    return manager
      .getRepository(ChangeRequestReview)
      .createQueryBuilder('r')
      .innerJoinAndSelect('r.reviewer', 'reviewer')
      .leftJoinAndSelect('r.requester', 'requester');
  }

  private requests(
    manager: EntityManager,
    changeRequestId: string,
  ): SelectQueryBuilder<ChangeRequestRequestedReviewer> {
    // Joins users, owned by users: a request's wire shape carries its user and asker.
    return manager
      .getRepository(ChangeRequestRequestedReviewer)
      .createQueryBuilder('q')
      .innerJoinAndSelect('q.user', 'user')
      .innerJoinAndSelect('q.requester', 'requester')
      .leftJoin('q.review', 'review')
      .addSelect(['review.id', 'review.status'])
      .where('q.change_request_id = :changeRequestId', { changeRequestId });
  }
}
