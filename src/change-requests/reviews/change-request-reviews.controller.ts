import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiResponse,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { Access, CurrentUser, Granted } from '../../platform/auth/access.decorator';
import type { ChangeRequestAccess } from '../change-request-access';
import type { UserActor } from '../../platform/auth/actor';
import { ErrorBody } from '../../platform/errors/error-body';
import { mapPage, Page, PageOf } from '../../platform/pagination/page';
import { PageQueryDto } from '../../platform/pagination/page-query.dto';
import { ChangeRequestReviewsPresenter } from './change-request-reviews.presenter';
import { ChangeRequestReviewsService } from './change-request-reviews.service';
import {
  ListReviewsQueryDto,
  RequestReviewersDto,
  ReviewQueryDto,
  SubmitReviewDto,
} from './dto/review.dto';
import {
  ChangeRequestContributorResponse,
  ChangeRequestReviewResponse,
  RequestedReviewerResponse,
  RequestReviewersResponse,
} from './dto/review.response';

const badRequest = ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid input.' });
const BASE = 'spaces/:spaceId/change-requests/:changeRequestId';

@Controller()
export class ChangeRequestReviewsController {
  constructor(
    private readonly reviews: ChangeRequestReviewsService,
    private readonly presenter: ChangeRequestReviewsPresenter,
  ) {}

  @Get(`${BASE}/reviews`)
  @Access('changeRequest', 'view')
  @ApiOperation({
    operationId: 'getReviewsByChangeRequestId',
    summary: 'List all change request reviews',
    description: 'Newest first. `outdated` keeps only outdated (true) or current (false) ones.',
  })
  @ApiOkResponse({ type: PageOf(ChangeRequestReviewResponse) })
  @badRequest
  async list(
    @Granted() changeRequest: ChangeRequestAccess,
    @Query() query: ListReviewsQueryDto,
  ): Promise<Page<ChangeRequestReviewResponse>> {
    const page = await this.reviews.list(changeRequest.entity.space, changeRequest.id, query);
    const items = await Promise.all(
      page.items.map((view) => this.presenter.review(view, query.format)),
    );
    return { ...page, items };
  }

  @Post(`${BASE}/reviews`)
  @HttpCode(201)
  @Access('changeRequest', 'review')
  @ApiOperation({
    operationId: 'submitChangeRequestReview',
    summary: 'Submit a change request review',
    description:
      'Open to users with the review role on the space and to requested reviewers, never to ' +
      "the change request's creator (403); a merged change request takes no review (409). " +
      "The caller's earlier reviews become outdated; a request to the caller is answered.",
  })
  @ApiCreatedResponse({ type: ChangeRequestReviewResponse })
  @badRequest
  async submit(
    @CurrentUser() actor: UserActor,
    @Granted() changeRequest: ChangeRequestAccess,
    @Body() body: SubmitReviewDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<ChangeRequestReviewResponse> {
    const { space, id } = changeRequest.entity;
    const presented = await this.presenter.review(
      await this.reviews.submit(space, actor.userId, id, body),
    );
    response.location(presented.urls.location);
    return presented;
  }

  @Get(`${BASE}/reviews/:reviewId`)
  @Access('changeRequest', 'view')
  @ApiOperation({
    operationId: 'getChangeRequestReviewById',
    summary: 'Get a change request review by its ID',
  })
  @ApiOkResponse({ type: ChangeRequestReviewResponse })
  @badRequest
  async get(
    @Granted() changeRequest: ChangeRequestAccess,
    @Param('reviewId') reviewId: string,
    @Query() query: ReviewQueryDto,
  ): Promise<ChangeRequestReviewResponse> {
    return this.presenter.review(
      await this.reviews.get(changeRequest.entity.space, changeRequest.id, reviewId),
      query.format,
    );
  }

  @Get(`${BASE}/requested-reviewers`)
  @Access('changeRequest', 'view')
  @ApiOperation({
    operationId: 'getRequestedReviewersByChangeRequestId',
    summary: 'Get all change request reviewers',
    description: 'Users asked to review, in the order they were asked. Teams cannot be asked.',
  })
  @ApiOkResponse({ type: PageOf(RequestedReviewerResponse) })
  @badRequest
  async listRequested(
    @Granted() changeRequest: ChangeRequestAccess,
    @Query() query: PageQueryDto,
  ): Promise<Page<RequestedReviewerResponse>> {
    const page = await this.reviews.listRequested(
      changeRequest.entity.space,
      changeRequest.id,
      query,
    );
    return mapPage(page, (view) => this.presenter.requestedReviewer(view));
  }

  @Post(`${BASE}/requested-reviewers`)
  @HttpCode(200)
  @Access('changeRequest', 'edit')
  @ApiOperation({
    operationId: 'requestReviewersForChangeRequest',
    summary: 'Request change request reviewers',
    description:
      'Each user must be a member of the organization who can see the space, other than the ' +
      "change request's creator (400 otherwise). Asking a user again renews the request and " +
      "outdates the user's earlier reviews. `subject` and `description` update the change request.",
  })
  @ApiOkResponse({ type: RequestReviewersResponse })
  @badRequest
  async request(
    @CurrentUser() actor: UserActor,
    @Granted() changeRequest: ChangeRequestAccess,
    @Body() body: RequestReviewersDto,
  ): Promise<RequestReviewersResponse> {
    const requests = await this.reviews.request(
      changeRequest.entity.space,
      actor.userId,
      changeRequest.id,
      body,
    );
    return { users: requests.map((view) => this.presenter.requestedReviewer(view)) };
  }

  @Delete(`${BASE}/requested-reviewers/:userId`)
  @Access('changeRequest', 'edit')
  @ApiOperation({
    operationId: 'removeRequestedReviewerFromChangeRequest',
    summary: 'Remove a reviewer from a change request',
    description: "The user's reviews stay.",
  })
  @ApiResponse({ status: 205, description: 'The request was removed.' })
  @ApiResponse({ status: 204, description: 'The user was not asked to review.' })
  async removeRequested(
    @Granted() changeRequest: ChangeRequestAccess,
    @Param('userId') userId: string,
    @Res({ passthrough: true }) response: Response,
  ): Promise<void> {
    const removed = await this.reviews.removeRequested(
      changeRequest.entity.space,
      changeRequest.id,
      userId,
    );
    response.status(removed ? 205 : 204);
  }

  @Get(`${BASE}/contributors`)
  @Access('changeRequest', 'view')
  @ApiOperation({
    operationId: 'getContributorsByChangeRequestId',
    summary: 'Get all contributors of a change request',
    description: 'One item per user and kind of contribution, latest first.',
  })
  @ApiOkResponse({ type: PageOf(ChangeRequestContributorResponse) })
  @badRequest
  async contributors(
    @Granted() changeRequest: ChangeRequestAccess,
    @Query() query: PageQueryDto,
  ): Promise<Page<ChangeRequestContributorResponse>> {
    const page = await this.reviews.contributorsOf(
      changeRequest.entity.space,
      changeRequest.id,
      query,
    );
    return mapPage(page, (contributor) => this.presenter.contributor(contributor));
  }
}
