import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { markdownToDocument } from '../../content-engine/documents/markdown';
import type { JSONDocument } from '../../content-engine/documents/document';
import { Clock } from '../../platform/clock/clock';
import { invalidInput, notFound } from '../../platform/errors/domain-error';
import { newId } from '../../platform/ids/ids';
import { paginate } from '../../platform/pagination/keyset';
import { Page } from '../../platform/pagination/page';
import type { PageQueryDto } from '../../platform/pagination/page-query.dto';
import { SpaceAccessResolver, type SpaceAccess } from '../../spaces/space-access.resolver';
import { changeRequestMerged } from '../change-request-errors';
import { ChangeRequest } from '../entities/change-request.entity';
import { ChangeRequestContributors } from './change-request-contributors';
import type { ChangeRequestContributor } from './entities/change-request-contributor.entity';
import { ChangeRequestRequestedReviewer } from './entities/change-request-requested-reviewer.entity';
import { ChangeRequestReview, type ReviewStatus } from './entities/change-request-review.entity';
import {
  type DocumentInput,
  ListReviewsQueryDto,
  RequestReviewersDto,
  SubmitReviewDto,
} from './dto/review.dto';

/** A review with what its wire shape needs. */
export interface ReviewView {
  review: ChangeRequestReview;
  spaceId: string;
  outdated: boolean;
}

/** A request to review, with its user, asker and answering review loaded. */
export interface RequestedReviewerView {
  request: ChangeRequestRequestedReviewer;
  spaceId: string;
}

/** A requested reviewer as merge rules see it. */
export interface RequestedReviewerState {
  userId: string;
  requestedBy: string;
  /** The change request's head revision when the request was made. */
  revision: string;
  createdAt: Date;
  /** The user's latest review since the request, or null while unanswered. */
  review: { id: string; status: ReviewStatus; revision: string; outdated: boolean } | null;
}

const changeRequestNotFound = () => notFound('Change request');
const alreadyMerged = changeRequestMerged;

/**
 * Reviews of a change request and the users asked for one. A review is made on the change
 * request's head revision of the time; it is outdated once the head moves on, or once the same
 * reviewer submits a newer review or is asked again. Writes lock the change request's row, so
 * they queue behind (and ahead of) merges and content writes of the same change request.
 */
@Injectable()
export class ChangeRequestReviewsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly spaceAccess: SpaceAccessResolver,
    private readonly contributors: ChangeRequestContributors,
  ) {}

  /** Newest first; `outdated` keeps only outdated (true) or current (false) reviews. */
  async list(
    access: SpaceAccess,
    changeRequestId: string,
    query: ListReviewsQueryDto,
  ): Promise<Page<ReviewView>> {
    const manager = this.dataSource.manager;
    const changeRequest = await this.findChangeRequest(manager, access.id, changeRequestId);
    const rows = this.reviews(manager).where('r.change_request_id = :changeRequestId', {
      changeRequestId: changeRequest.id,
    });
    if (query.outdated !== undefined) {
      rows.andWhere('(r.superseded OR r.revision <> :head) = :outdated', {
        head: changeRequest.revision,
        outdated: query.outdated,
      });
    }
    const page = await paginate(rows, query, {
      keys: [
        { sql: 'r.created_at', of: (r) => r.createdAt },
        { sql: 'r.id', of: (r) => r.id },
      ],
      direction: 'DESC',
    });
    return { ...page, items: page.items.map((review) => this.view(changeRequest, review)) };
  }

  async get(access: SpaceAccess, changeRequestId: string, reviewId: string): Promise<ReviewView> {
    const manager = this.dataSource.manager;
    const changeRequest = await this.findChangeRequest(manager, access.id, changeRequestId);
    return this.loadReview(manager, changeRequest, reviewId);
  }

  /**
   * Records the caller's review on the head revision (who may review is decided before:
   * ChangeRequestAccessPolicy); never once merged. Earlier reviews of the caller become
   * outdated; a request to the caller is answered by it.
   */
  async submit(
    access: SpaceAccess,
    userId: string,
    changeRequestId: string,
    input: SubmitReviewDto,
  ): Promise<ReviewView> {
    const comment = await this.commentDocument(input.comment);
    return this.dataSource.transaction(async (manager) => {
      const changeRequest = await this.findChangeRequest(manager, access.id, changeRequestId, true);
      if (changeRequest.status === 'merged') throw alreadyMerged('it cannot be reviewed any more');
      const request = await manager.findOneBy(ChangeRequestRequestedReviewer, {
        changeRequestId: changeRequest.id,
        userId,
      });

      await this.supersede(manager, changeRequest.id, [userId]);
      const now = this.clock.now();
      const id = newId();
      await manager.insert(ChangeRequestReview, {
        id,
        changeRequestId: changeRequest.id,
        reviewerId: userId,
        requestedBy: request?.requestedBy ?? null,
        status: input.status,
        revision: changeRequest.revision,
        commentId: comment ? newId() : null,
        // The document's open `data` map is more than TypeORM's deep-partial type can express.
        comment: comment as QueryDeepPartialEntity<JSONDocument> | null,
        superseded: false,
        createdAt: now,
        updatedAt: now,
      });
      if (request) {
        await manager.update(
          ChangeRequestRequestedReviewer,
          { changeRequestId: changeRequest.id, userId },
          { reviewId: id },
        );
      }
      if (comment) await this.contributors.record(manager, changeRequest.id, userId, 'comment');
      return this.loadReview(manager, changeRequest, id);
    });
  }

  /** In the order they were asked (a renewed request moves last). */
  async listRequested(
    access: SpaceAccess,
    changeRequestId: string,
    query: PageQueryDto,
  ): Promise<Page<RequestedReviewerView>> {
    const manager = this.dataSource.manager;
    const changeRequest = await this.findChangeRequest(manager, access.id, changeRequestId);
    const page = await paginate(this.requests(manager, changeRequest.id), query, {
      keys: [
        { sql: 'q.created_at', of: (q) => q.createdAt },
        { sql: 'q.user_id', of: (q) => q.userId },
      ],
      direction: 'ASC',
    });
    return { ...page, items: page.items.map((request) => ({ request, spaceId: access.id })) };
  }

  /**
   * Asks `users` to review, on the head revision; asking a user again renews the request and
   * outdates the user's earlier reviews. Each must be a member of the organization who can see
   * the space, and not the creator. `subject` and `description` update the change request.
   */
  async request(
    access: SpaceAccess,
    requesterId: string,
    changeRequestId: string,
    input: RequestReviewersDto,
  ): Promise<RequestedReviewerView[]> {
    const users = [...new Set(input.users)];
    await this.assertCanReview(access.id, users);
    return this.dataSource.transaction(async (manager) => {
      const changeRequest = await this.findChangeRequest(manager, access.id, changeRequestId, true);
      if (changeRequest.status === 'merged') {
        throw alreadyMerged('reviews can no longer be requested');
      }
      if (changeRequest.createdBy !== null && users.includes(changeRequest.createdBy)) {
        throw invalidInput(
          `users: ${changeRequest.createdBy} created the change request and cannot review it.`,
        );
      }
      const now = this.clock.now();
      const changes: Partial<ChangeRequest> = {};
      if (input.subject !== undefined) changes.subject = input.subject;
      if (input.description !== undefined) changes.description = input.description;
      if (Object.keys(changes).length > 0) {
        changes.updatedAt = now;
        await manager.update(
          ChangeRequest,
          { id: changeRequest.id },
          changes as QueryDeepPartialEntity<ChangeRequest>,
        );
      }
      await manager.query(
        `INSERT INTO change_request_requested_reviewers
           (change_request_id, user_id, requested_by, revision, review_id, created_at)
         SELECT $1, u, $2, $3, NULL, $4 FROM unnest($5::varchar[]) AS u
         ON CONFLICT (change_request_id, user_id) DO UPDATE
           SET requested_by = EXCLUDED.requested_by, revision = EXCLUDED.revision,
               review_id = NULL, created_at = EXCLUDED.created_at`,
        [changeRequest.id, requesterId, changeRequest.revision, now, users],
      );
      await this.supersede(manager, changeRequest.id, users);
      const requests = await this.requests(manager, changeRequest.id)
        .andWhere('q.user_id IN (:...users)', { users })
        .orderBy('q.user_id')
        .getMany();
      const byUser = new Map(requests.map((request) => [request.userId, request]));
      return users.map((userId) => ({ request: byUser.get(userId)!, spaceId: access.id }));
    });
  }

  /** True when the user was asked and no longer is; false when the user was not asked. */
  async removeRequested(
    access: SpaceAccess,
    changeRequestId: string,
    userId: string,
  ): Promise<boolean> {
    const manager = this.dataSource.manager;
    const changeRequest = await this.findChangeRequest(manager, access.id, changeRequestId);
    const result = await manager.delete(ChangeRequestRequestedReviewer, {
      changeRequestId: changeRequest.id,
      userId,
    });
    return (result.affected ?? 0) > 0;
  }

  async contributorsOf(
    access: SpaceAccess,
    changeRequestId: string,
    query: PageQueryDto,
  ): Promise<Page<ChangeRequestContributor>> {
    const changeRequest = await this.findChangeRequest(
      this.dataSource.manager,
      access.id,
      changeRequestId,
    );
    return this.contributors.list(changeRequest.id, query);
  }

  /**
   * For merge rules: the users whose current approval stands on `revisionId` (their latest
   * review, not superseded, is an approval made on that revision).
   */
  async approvals(
    manager: EntityManager,
    changeRequestId: string,
    revisionId: string,
  ): Promise<string[]> {
    const rows: { reviewer_id: string }[] = await manager.query(
      `SELECT DISTINCT reviewer_id FROM change_request_reviews
        WHERE change_request_id = $1 AND revision = $2 AND status = 'approved' AND NOT superseded
        ORDER BY reviewer_id`,
      [changeRequestId, revisionId],
    );
    return rows.map((row) => row.reviewer_id);
  }

  /** For merge rules: every user asked to review, with the review that answers it if any. */
  async requestedReviewers(
    manager: EntityManager,
    changeRequestId: string,
  ): Promise<RequestedReviewerState[]> {
    const rows: {
      user_id: string;
      requested_by: string;
      revision: string;
      created_at: Date;
      review_id: string | null;
      review_status: ReviewStatus | null;
      review_revision: string | null;
      review_outdated: boolean | null;
    }[] = await manager.query(
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
    return rows.map((row) => ({
      userId: row.user_id,
      requestedBy: row.requested_by,
      revision: row.revision,
      createdAt: new Date(row.created_at),
      review:
        row.review_id === null
          ? null
          : {
              id: row.review_id,
              status: row.review_status!,
              revision: row.review_revision!,
              outdated: row.review_outdated!,
            },
    }));
  }

  /** 400 naming the first user who is not a member of the organization able to see the space. */
  private async assertCanReview(spaceId: string, users: string[]): Promise<void> {
    for (const userId of users) {
      const access = await this.spaceAccess.resolve(userId, spaceId);
      if (!access || access.entity.deletedAt !== null) {
        throw invalidInput(
          `users: ${userId} is not a member of the organization who can see this space.`,
        );
      }
    }
  }

  /** Marks the current reviews of `users` as outdated by a newer review or request. */
  private async supersede(
    manager: EntityManager,
    changeRequestId: string,
    users: string[],
  ): Promise<void> {
    await manager.query(
      `UPDATE change_request_reviews SET superseded = true
        WHERE change_request_id = $1 AND reviewer_id = ANY($2::varchar[]) AND NOT superseded`,
      [changeRequestId, users],
    );
  }

  /** A comment's body as a document; null when there is none or it is blank. */
  private async commentDocument(input: DocumentInput | undefined): Promise<JSONDocument | null> {
    if (input === undefined) return null;
    let document: JSONDocument | null = null;
    if ('markdown' in input) {
      if (input.markdown.trim() === '') return null;
      document = (await markdownToDocument(input.markdown)) as unknown as JSONDocument;
    } else if ('document' in input) {
      document = input.document;
    }
    return document && document.nodes.length > 0 ? document : null;
  }

  private reviews(manager: EntityManager) {
    return manager
      .getRepository(ChangeRequestReview)
      .createQueryBuilder('r')
      .innerJoinAndSelect('r.reviewer', 'reviewer')
      .leftJoinAndSelect('r.requester', 'requester');
  }

  private requests(manager: EntityManager, changeRequestId: string) {
    return manager
      .getRepository(ChangeRequestRequestedReviewer)
      .createQueryBuilder('q')
      .innerJoinAndSelect('q.user', 'user')
      .innerJoinAndSelect('q.requester', 'requester')
      .leftJoin('q.review', 'review')
      .addSelect(['review.id', 'review.status'])
      .where('q.change_request_id = :changeRequestId', { changeRequestId });
  }

  private async loadReview(
    manager: EntityManager,
    changeRequest: ChangeRequest,
    reviewId: string,
  ): Promise<ReviewView> {
    const review = await this.reviews(manager)
      .where('r.change_request_id = :changeRequestId AND r.id = :reviewId', {
        changeRequestId: changeRequest.id,
        reviewId,
      })
      .getOne();
    if (!review) throw notFound('Review');
    return this.view(changeRequest, review);
  }

  private view(changeRequest: ChangeRequest, review: ChangeRequestReview): ReviewView {
    return {
      review,
      spaceId: changeRequest.spaceId,
      outdated: review.superseded || review.revision !== changeRequest.revision,
    };
  }

  /** `changeRequestId` is its id or, all digits, its number in the space; 404 otherwise. */
  private async findChangeRequest(
    manager: EntityManager,
    spaceId: string,
    changeRequestId: string,
    lock = false,
  ): Promise<ChangeRequest> {
    const query = manager
      .getRepository(ChangeRequest)
      .createQueryBuilder('cr')
      .where('cr.space_id = :spaceId', { spaceId });
    if (/^\d{1,9}$/.test(changeRequestId)) {
      query.andWhere('cr.number = :number', { number: Number(changeRequestId) });
    } else {
      query.andWhere('cr.id = :id', { id: changeRequestId });
    }
    if (lock) query.setLock('pessimistic_write');
    const changeRequest = await query.getOne();
    if (!changeRequest) throw changeRequestNotFound();
    return changeRequest;
  }
}
