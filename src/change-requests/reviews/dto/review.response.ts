import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { RichDocumentSchema } from '../../../orgs/agent-instructions/dto/agent-instructions.dto';
import type { JSONDocument } from '../../../content-engine/documents/document';
import { LocationUrls, UserResponse } from '../../../users/dto/user.response';
import {
  CONTRIBUTION_TYPES,
  type ContributionType,
} from '../entities/change-request-contributor.entity';
import { REVIEW_STATUSES, type ReviewStatus } from '../entities/change-request-review.entity';

/** GitBook's `Document` in a response: the body in the format asked for. */
export class CommentBodyResponse {
  @ApiPropertyOptional({ description: 'With `format=markdown` (the default).' })
  markdown?: string;
  @ApiPropertyOptional({ type: RichDocumentSchema, description: 'With `format=document`.' })
  document?: JSONDocument;
}

class CommentTargetResponse {
  @ApiProperty({ description: 'ID of the space.' }) space!: string;
  @ApiProperty({ description: 'The revision the review was made on.' }) revision!: string;
  @ApiProperty({ description: 'ID of the change request.' }) changeRequest!: string;
  @ApiProperty({ description: 'ID of the review.' }) review!: string;
}

class CommentPermissionsResponse {
  @ApiProperty() view!: boolean;
  @ApiProperty({ description: 'False: review comments cannot be edited yet.' }) edit!: boolean;
  @ApiProperty({ description: 'False: review comments cannot be replied to yet.' })
  reply!: boolean;
  @ApiProperty({ description: 'False: review comments cannot be deleted.' }) delete!: boolean;
}

/** GitBook's `Comment`, for the comment left with a review (always open, without replies). */
export class ReviewCommentResponse {
  @ApiProperty({ enum: ['comment'] }) object!: 'comment';
  @ApiProperty() id!: string;
  @ApiProperty({ type: UserResponse }) postedBy!: UserResponse;
  @ApiProperty({ format: 'date-time' }) postedAt!: string;
  @ApiProperty({ type: 'array', items: { type: 'object' }, description: 'Always empty.' })
  reactions!: object[];
  @ApiProperty({ description: 'Always 0.' }) replies!: number;
  @ApiProperty({ type: 'array', items: { type: 'object' }, description: 'Always empty.' })
  repliers!: object[];
  @ApiProperty({ type: CommentBodyResponse }) body!: CommentBodyResponse;
  @ApiProperty({ type: CommentTargetResponse }) target!: CommentTargetResponse;
  @ApiProperty({ type: LocationUrls }) urls!: LocationUrls;
  @ApiProperty({ type: CommentPermissionsResponse }) permissions!: CommentPermissionsResponse;
  @ApiProperty({ enum: ['open'] }) status!: 'open';
}

/** GitBook's `ChangeRequestReview`. */
export class ChangeRequestReviewResponse {
  @ApiProperty({ enum: ['change-request-review'] }) object!: 'change-request-review';
  @ApiProperty() id!: string;
  @ApiProperty({ description: 'The revision of the change request the review was made on.' })
  revision!: string;
  @ApiProperty({ type: UserResponse }) reviewer!: UserResponse;
  @ApiPropertyOptional({
    type: UserResponse,
    description: 'Who asked for the review; absent when it was not requested.',
  })
  requestedBy?: UserResponse;
  @ApiProperty({ enum: REVIEW_STATUSES }) status!: ReviewStatus;
  @ApiProperty({
    description:
      'True once the reviewer submitted a newer review or was asked to review again, or the ' +
      "change request's content moved past the reviewed revision.",
  })
  outdated!: boolean;
  @ApiPropertyOptional({ type: ReviewCommentResponse }) comment?: ReviewCommentResponse;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
  @ApiProperty({ type: LocationUrls }) urls!: LocationUrls;
}

/** Bindery extension: the review that answers a request. */
export class RequestAnswerResponse {
  @ApiProperty() id!: string;
  @ApiProperty({ enum: REVIEW_STATUSES }) status!: ReviewStatus;
}

/** GitBook's `ChangeRequestRequestedReviewer` (only users can be asked; no teams). */
export class RequestedReviewerResponse {
  @ApiProperty({ enum: ['change-request-requested-reviewer'] })
  object!: 'change-request-requested-reviewer';
  @ApiProperty({ enum: ['user'] }) kind!: 'user';
  @ApiProperty({ type: UserResponse }) user!: UserResponse;
  @ApiProperty({ description: "The change request's revision when the request was made." })
  revision!: string;
  @ApiProperty({ type: UserResponse }) requestedBy!: UserResponse;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiPropertyOptional({
    type: RequestAnswerResponse,
    description:
      "Bindery extension: the user's latest review since the request; absent while unanswered.",
  })
  review?: RequestAnswerResponse;
}

/** `requestReviewersForChangeRequest`'s response. */
export class RequestReviewersResponse {
  @ApiProperty({ type: [RequestedReviewerResponse], description: 'The requests made.' })
  users!: RequestedReviewerResponse[];
}

/** GitBook's `ChangeRequestUserContributor`. */
export class ChangeRequestContributorResponse {
  @ApiProperty({ type: UserResponse }) user!: UserResponse;
  @ApiProperty({ description: 'How many contributions of this type.' }) count!: number;
  @ApiProperty({ format: 'date-time', description: 'When the latest one was made.' })
  updatedAt!: string;
  @ApiProperty({ enum: CONTRIBUTION_TYPES }) actionType!: ContributionType;
}
