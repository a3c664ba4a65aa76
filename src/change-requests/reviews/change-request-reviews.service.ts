import { Injectable } from '@nestjs/common';
import { userActor } from '../../platform/events/event-outbox';
import { ChangeRequestEvents } from '../change-request-events';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { markdownToDocument } from '../../content-engine/documents/markdown';
import { resolveStableRefs } from '../../content-engine/refs/markdown-refs';
import type { JSONDocument } from '../../content-engine/documents/document';
import { Clock } from '../../platform/clock/clock';
import { invalidInput, notFound } from '../../platform/errors/domain-error';
import { newId } from '../../platform/ids/ids';
import { Page } from '../../platform/pagination/page';
import type { PageQueryDto } from '../../platform/pagination/page-query.dto';
import { SpaceAccessResolver, type SpaceAccess } from '../../spaces/space-access.resolver';
import { changeRequestMerged } from '../change-request-errors';
import { ChangeRequestsRepository } from '../change-requests.repository';
import { changeRequestKey } from '../change-requests.service';
import { ChangeRequest } from '../entities/change-request.entity';
import { ChangeRequestContributors } from './change-request-contributors';
import type { ChangeRequestContributor } from './entities/change-request-contributor.entity';
import { ChangeRequestReviewsRepository } from './change-request-reviews.repository';
import { ReviewRequestMail } from './review-request-mail';
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
    private readonly repository: ChangeRequestReviewsRepository,
    private readonly changeRequests: ChangeRequestsRepository,
    private readonly events: ChangeRequestEvents,
    private readonly reviewRequestMail: ReviewRequestMail,
  ) {}

  /** Newest first; `outdated` keeps only outdated (true) or current (false) reviews. */
  async list(
    access: SpaceAccess,
    changeRequestId: string,
    query: ListReviewsQueryDto,
  ): Promise<Page<ReviewView>> {
    const manager = this.dataSource.manager;
    const changeRequest = await this.findChangeRequest(manager, access.id, changeRequestId);
    const page = await this.repository.listReviews(
      changeRequest.id,
      changeRequest.revision,
      query.outdated,
      query,
      manager,
    );
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

      await this.repository.supersedeReviews(changeRequest.id, [userId], manager);
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
      await this.events.recordOf(
        manager,
        'change_request_review_submitted',
        changeRequest,
        userActor(userId),
        {
          review: {
            object: 'change-request-review',
            id,
            status: input.status,
            reviewer: userId,
            revision: changeRequest.revision,
            createdAt: now.toISOString(),
          },
        },
      );
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
    const page = await this.repository.listRequests(changeRequest.id, query, manager);
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
      await this.repository.upsertRequests(
        changeRequest.id,
        users,
        requesterId,
        changeRequest.revision,
        now,
        manager,
      );
      await this.repository.supersedeReviews(changeRequest.id, users, manager);
      await this.reviewRequestMail.send(
        manager,
        { ...changeRequest, ...changes },
        access.entity.title,
        requesterId,
        users,
      );
      const requests = await this.repository.findRequests(changeRequest.id, users, manager);
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
    return this.repository.findApprovers(changeRequestId, revisionId, manager);
  }

  /** For merge rules: every user asked to review, with the review that answers it if any. */
  async requestedReviewers(
    manager: EntityManager,
    changeRequestId: string,
  ): Promise<RequestedReviewerState[]> {
    const rows = await this.repository.listRequestsWithReviews(changeRequestId, manager);
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

  /** A comment's body as a document; null when there is none or it is blank. */
  private async commentDocument(input: DocumentInput | undefined): Promise<JSONDocument | null> {
    if (input === undefined) return null;
    let document: JSONDocument | null = null;
    if ('markdown' in input) {
      if (input.markdown.trim() === '') return null;
      document = resolveStableRefs(
        await markdownToDocument(input.markdown),
      ) as unknown as JSONDocument;
    } else if ('document' in input) {
      document = input.document;
    }
    return document && document.nodes.length > 0 ? document : null;
  }

  private async loadReview(
    manager: EntityManager,
    changeRequest: ChangeRequest,
    reviewId: string,
  ): Promise<ReviewView> {
    const review = await this.repository.findReview(changeRequest.id, reviewId, manager);
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
    const key = changeRequestKey(changeRequestId);
    const changeRequest = lock
      ? await this.changeRequests.lockInSpace(spaceId, key, manager)
      : await this.changeRequests.findInSpace(spaceId, key, manager);
    if (!changeRequest) throw changeRequestNotFound();
    return changeRequest;
  }
}
