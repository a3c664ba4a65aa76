import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { Organization } from '../orgs/entities/organization.entity';
import { Access, CurrentUser, Granted } from '../platform/auth/access.decorator';
import type { UserActor } from '../platform/auth/actor';
import { ErrorBody } from '../platform/errors/error-body';
import { mapPage, Page, PageOf } from '../platform/pagination/page';
import type { ResolvedAccess } from '../platform/policy/access';
import type { SpaceAccess } from '../spaces/space-access.resolver';
import { ChangeRequestsPresenter } from './change-requests.presenter';
import { ChangeRequestsService } from './change-requests.service';
import {
  CreateChangeRequestDto,
  ListChangeRequestsQueryDto,
  UpdateChangeRequestDto,
} from './dto/change-request.dto';
import { ChangeRequestResponse } from './dto/change-request.response';
import { MergeResponse, UpdateFromPrimaryResponse } from './dto/merge.response';
import { ChangeRequestMergeService } from './merge/change-request-merge.service';

const badRequest = ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid input.' });

@ApiTags('change-requests')
@Controller()
export class ChangeRequestsController {
  constructor(
    private readonly changeRequests: ChangeRequestsService,
    private readonly presenter: ChangeRequestsPresenter,
    private readonly merges: ChangeRequestMergeService,
  ) {}

  @Get('orgs/:organizationId/change-requests')
  @Access('organization', 'view')
  @ApiOperation({
    operationId: 'listChangeRequestsForOrganization',
    summary: 'List all change requests of an organization',
    description:
      'On the spaces the caller can see (guests: those granted to them), newest first; only ' +
      'open ones unless `status` says otherwise.',
  })
  @ApiOkResponse({ type: PageOf(ChangeRequestResponse) })
  @badRequest
  async listForOrganization(
    @CurrentUser() actor: UserActor,
    @Granted() organization: ResolvedAccess<Organization>,
    @Query() query: ListChangeRequestsQueryDto,
  ): Promise<Page<ChangeRequestResponse>> {
    const page = await this.changeRequests.listForOrganization(
      organization.id,
      organization.role,
      actor.userId,
      query,
    );
    return mapPage(page, (view) => this.presenter.present(view));
  }

  @Get('spaces/:spaceId/change-requests')
  @Access('space', 'view')
  @ApiOperation({
    operationId: 'listChangeRequestsForSpace',
    summary: 'List all change requests of a space',
    description: 'Highest number first; only open ones unless `status` says otherwise.',
  })
  @ApiOkResponse({ type: PageOf(ChangeRequestResponse) })
  @badRequest
  async listForSpace(
    @Granted() space: SpaceAccess,
    @Query() query: ListChangeRequestsQueryDto,
  ): Promise<Page<ChangeRequestResponse>> {
    const page = await this.changeRequests.listForSpace(space, query);
    return mapPage(page, (view) => this.presenter.present(view));
  }

  @Post('spaces/:spaceId/change-requests')
  @HttpCode(201)
  @Access('space', 'edit')
  @ApiOperation({
    operationId: 'createChangeRequest',
    summary: 'Create a change request',
    description:
      "Starts from the space's primary revision, numbered after the space's last change " +
      'request, open (a draft with `status: "draft"`). Unknown body properties are ignored.',
  })
  @ApiCreatedResponse({ type: ChangeRequestResponse })
  @badRequest
  async create(
    @CurrentUser() actor: UserActor,
    @Granted() space: SpaceAccess,
    @Body() body: CreateChangeRequestDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<ChangeRequestResponse> {
    const presented = this.presenter.present(
      await this.changeRequests.create(space, actor.userId, body),
    );
    response.location(presented.urls.location);
    return presented;
  }

  @Get('spaces/:spaceId/change-requests/:changeRequestId')
  @Access('space', 'view')
  @ApiOperation({
    operationId: 'getChangeRequestById',
    summary: 'Get a change request by its ID or number',
  })
  @ApiOkResponse({ type: ChangeRequestResponse })
  async get(
    @Granted() space: SpaceAccess,
    @Param('changeRequestId') changeRequestId: string,
  ): Promise<ChangeRequestResponse> {
    return this.presenter.present(await this.changeRequests.get(space, changeRequestId));
  }

  @Patch('spaces/:spaceId/change-requests/:changeRequestId')
  @Access('space', 'edit')
  @ApiOperation({
    operationId: 'updateChangeRequestById',
    summary: 'Update a change request',
    description:
      'Absent fields are unchanged. Status moves: draft ↔ open, draft or open → archived, ' +
      'archived → draft or open; setting `merged` is a 400; a merged change request cannot change (409).',
  })
  @ApiOkResponse({ type: ChangeRequestResponse })
  @badRequest
  async update(
    @Granted() space: SpaceAccess,
    @Param('changeRequestId') changeRequestId: string,
    @Body() body: UpdateChangeRequestDto,
  ): Promise<ChangeRequestResponse> {
    return this.presenter.present(await this.changeRequests.update(space, changeRequestId, body));
  }

  @Post('spaces/:spaceId/change-requests/:changeRequestId/merge')
  @HttpCode(200)
  @Access('space', 'edit')
  @ApiOperation({
    operationId: 'mergeChangeRequest',
    summary: 'Merge a change request into the primary content',
    description:
      "Three-way merge of the change request into the space's primary content. `result: " +
      '"merge"`: the primary moved to the merge revision (`revision`) and the change request ' +
      'is merged. `result: "conflicts"`: nothing changed, `revision` is the primary, and ' +
      '`conflicts` (a Bindery extension) lists the pages and blocks in conflict. The merge ' +
      'rules of the space (or of its organization) must be met: 403 naming the rule, 409 for ' +
      '`require_up_to_date_change_request`. Merging a merged or archived change request is a 409.',
  })
  @ApiOkResponse({ type: MergeResponse })
  @ApiConflictResponse({ type: ErrorBody, description: 'Merged or archived, or out of date.' })
  async merge(
    @CurrentUser() actor: UserActor,
    @Granted() space: SpaceAccess,
    @Param('changeRequestId') changeRequestId: string,
  ): Promise<MergeResponse> {
    return this.merges.merge(space, changeRequestId, actor.userId);
  }

  @Post('spaces/:spaceId/change-requests/:changeRequestId/update')
  @HttpCode(200)
  @Access('space', 'edit')
  @ApiOperation({
    operationId: 'updateChangeRequest',
    summary: 'Update a change request with the changes of the primary content',
    description:
      "Three-way merge of the primary content's changes since the change request's merge " +
      'base into the change request. `result: "update"`: `revision` is the change request\'s ' +
      'new revision (its current one when the primary did not move) and the primary is its ' +
      'new merge base. `result: "conflicts"`: nothing changed, and `conflicts` (a Bindery ' +
      'extension) lists them. A merged change request is a 409.',
  })
  @ApiOkResponse({ type: UpdateFromPrimaryResponse })
  @ApiConflictResponse({ type: ErrorBody, description: 'Merged.' })
  async updateFromPrimary(
    @CurrentUser() actor: UserActor,
    @Granted() space: SpaceAccess,
    @Param('changeRequestId') changeRequestId: string,
  ): Promise<UpdateFromPrimaryResponse> {
    return this.merges.update(space, changeRequestId, actor.userId);
  }
}
