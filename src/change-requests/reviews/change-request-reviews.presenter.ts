import { Injectable } from '@nestjs/common';
import { documentToMarkdown } from '../../content-engine/documents/markdown';
import { stableUrl } from '../../content-engine/refs/markdown-refs';
import type { JSONDocument } from '../../content-engine/documents/document';
import { UrlBuilder } from '../../platform/urls/url-builder';
import { UsersPresenter } from '../../users/users.presenter';
import type { RequestedReviewerView, ReviewView } from './change-request-reviews.service';
import type { CommentFormat } from './dto/review.dto';
import {
  ChangeRequestContributorResponse,
  ChangeRequestReviewResponse,
  CommentBodyResponse,
  RequestedReviewerResponse,
  ReviewCommentResponse,
} from './dto/review.response';
import type { ChangeRequestContributor } from './entities/change-request-contributor.entity';

@Injectable()
export class ChangeRequestReviewsPresenter {
  constructor(
    private readonly urls: UrlBuilder,
    private readonly users: UsersPresenter,
  ) {}

  async review(
    { review, spaceId, outdated }: ReviewView,
    format: CommentFormat = 'markdown',
  ): Promise<ChangeRequestReviewResponse> {
    const base = ['spaces', spaceId, 'change-requests', review.changeRequestId];
    return {
      object: 'change-request-review',
      id: review.id,
      revision: review.revision,
      reviewer: this.users.user(review.reviewer!),
      ...(review.requester ? { requestedBy: this.users.user(review.requester) } : {}),
      status: review.status,
      outdated,
      ...(review.comment !== null && review.commentId !== null
        ? { comment: await this.comment({ review, spaceId, outdated }, format) }
        : {}),
      createdAt: review.createdAt.toISOString(),
      updatedAt: review.updatedAt.toISOString(),
      urls: { location: this.urls.api(...base, 'reviews', review.id) },
    };
  }

  /**
   * The review's comment as GitBook's Comment. Comments cannot be edited, replied to or deleted
   * yet, so those permissions are false; its location is where the change request's comments
   * will be served.
   */
  private async comment(
    { review, spaceId }: ReviewView,
    format: CommentFormat,
  ): Promise<ReviewCommentResponse> {
    const document = review.comment!;
    const body: CommentBodyResponse =
      format === 'document'
        ? { document }
        : {
            markdown: await documentToMarkdown(document as unknown as JSONDocument, {
              refToUrl: stableUrl,
            }),
          };
    return {
      object: 'comment',
      id: review.commentId!,
      postedBy: this.users.user(review.reviewer!),
      postedAt: review.createdAt.toISOString(),
      reactions: [],
      replies: 0,
      repliers: [],
      body,
      target: {
        space: spaceId,
        revision: review.revision,
        changeRequest: review.changeRequestId,
        review: review.id,
      },
      urls: {
        location: this.urls.api(
          'spaces',
          spaceId,
          'change-requests',
          review.changeRequestId,
          'comments',
          review.commentId!,
        ),
      },
      permissions: { view: true, edit: false, reply: false, delete: false },
      status: 'open',
    };
  }

  requestedReviewer({ request }: RequestedReviewerView): RequestedReviewerResponse {
    return {
      object: 'change-request-requested-reviewer',
      kind: 'user',
      user: this.users.user(request.user!),
      revision: request.revision,
      requestedBy: this.users.user(request.requester!),
      createdAt: request.createdAt.toISOString(),
      ...(request.review
        ? { review: { id: request.review.id, status: request.review.status } }
        : {}),
    };
  }

  contributor(contributor: ChangeRequestContributor): ChangeRequestContributorResponse {
    return {
      user: this.users.user(contributor.user!),
      count: contributor.count,
      updatedAt: contributor.updatedAt.toISOString(),
      actionType: contributor.actionType,
    };
  }
}
