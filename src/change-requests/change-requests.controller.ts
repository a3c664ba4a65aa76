import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
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

const badRequest = ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid input.' });

@ApiTags('change-requests')
@Controller()
export class ChangeRequestsController {
  constructor(
    private readonly changeRequests: ChangeRequestsService,
    private readonly presenter: ChangeRequestsPresenter,
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
      'archived → draft or open; a merged change request cannot change (400).',
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
}
