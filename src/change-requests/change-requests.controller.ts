import {
  Body,
  Controller,
  Get,
  Headers,
  HttpCode,
  Param,
  Patch,
  Post,
  Query,
  Res,
} from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiPreconditionFailedResponse,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { Organization } from '../orgs/entities/organization.entity';
import { Access, CurrentUser, Granted } from '../platform/auth/access.decorator';
import type { UserActor } from '../platform/auth/actor';
import { ErrorBody } from '../platform/errors/error-body';
import { mapPage, Page, PageOf } from '../platform/pagination/page';
import { LargeBody } from '../platform/validation/request-body';
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
import {
  ChangeRequestConflictsResponse,
  MergeResponse,
  UpdateFromPrimaryResponse,
} from './dto/merge.response';
import { UpdateFromPrimaryDto } from './dto/update-from-primary.dto';
import { entityTagOf, expectedRevisionOf } from './content-writes/if-match';
import { ChangeRequestMergeService } from './merge/change-request-merge.service';

const badRequest = ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid input.' });
const ifMatchHeader = (what: string) =>
  ApiHeader({
    name: 'If-Match',
    required: false,
    description: `The change request's ETag (\`"<revision id>"\`) ${what}; another head is a 412.`,
  });
const stale = ApiPreconditionFailedResponse({
  type: ErrorBody,
  description: "If-Match does not name the change request's head.",
});

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
  @ApiOkResponse({
    type: ChangeRequestResponse,
    headers: {
      ETag: {
        description: 'Its head: `"<revision id>"`, for `If-Match` on its writes and merge.',
        schema: { type: 'string' },
      },
    },
  })
  async get(
    @Granted() space: SpaceAccess,
    @Param('changeRequestId') changeRequestId: string,
    @Res({ passthrough: true }) response: Response,
  ): Promise<ChangeRequestResponse> {
    const view = await this.changeRequests.get(space, changeRequestId);
    response.setHeader('ETag', entityTagOf(view.changeRequest.revision));
    return this.presenter.present(view);
  }

  @Get('spaces/:spaceId/change-requests/:changeRequestId/conflicts')
  @Access('space', 'view')
  @ApiOperation({
    operationId: 'getChangeRequestConflicts',
    summary: 'List the conflicts a merge of the change request would meet',
    description:
      'Bindery: the three-way merge of the change request and the primary content, tried ' +
      "without writing anything. Each conflict carries the merge base's, the change " +
      "request's and the primary's versions of what is in conflict: `blocks` for block " +
      'conflicts (JSON document blocks, null where a version has none), `page` for ' +
      'page-level ones (title, parent and the fields in conflict; null where a version does ' +
      'not have the page). Empty when it merges cleanly (and for a merged change request). ' +
      'Resolve them with `POST …/update` and `resolutions`.',
  })
  @ApiOkResponse({ type: ChangeRequestConflictsResponse })
  async conflicts(
    @Granted() space: SpaceAccess,
    @Param('changeRequestId') changeRequestId: string,
  ): Promise<ChangeRequestConflictsResponse> {
    return { conflicts: await this.merges.conflicts(space, changeRequestId) };
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
    @CurrentUser() actor: UserActor,
    @Granted() space: SpaceAccess,
    @Param('changeRequestId') changeRequestId: string,
    @Body() body: UpdateChangeRequestDto,
  ): Promise<ChangeRequestResponse> {
    return this.presenter.present(
      await this.changeRequests.update(space, actor.userId, changeRequestId, body),
    );
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
      '`require_up_to_date_change_request`. Merging a merged or archived change request is a ' +
      "409. `If-Match` with the change request's ETag merges only that revision (412 when it " +
      'moved).',
  })
  @ifMatchHeader('that was reviewed')
  @ApiOkResponse({ type: MergeResponse })
  @ApiConflictResponse({ type: ErrorBody, description: 'Merged or archived, or out of date.' })
  @stale
  async merge(
    @CurrentUser() actor: UserActor,
    @Granted() space: SpaceAccess,
    @Param('changeRequestId') changeRequestId: string,
    @Headers('if-match') ifMatch: string | undefined,
  ): Promise<MergeResponse> {
    return this.merges.merge(space, changeRequestId, actor.userId, expectedRevisionOf(ifMatch));
  }

  @Post('spaces/:spaceId/change-requests/:changeRequestId/update')
  @HttpCode(200)
  @Access('space', 'edit')
  @LargeBody()
  @ApiOperation({
    operationId: 'updateChangeRequest',
    summary: 'Update a change request with the changes of the primary content',
    description:
      "Three-way merge of the primary content's changes since the change request's merge " +
      'base into the change request. `result: "update"`: `revision` is the change request\'s ' +
      'new revision (its current one when the primary did not move) and the primary is its ' +
      'new merge base. `result: "conflicts"`: nothing changed, and `conflicts` (a Bindery ' +
      'extension) lists them, as `getChangeRequestConflicts` does. A merged change request is ' +
      'a 409.\n\nBindery: a body `{resolutions}` resolves the conflicts instead, one ' +
      'resolution per conflict: `pageId` with `blockKey` (a block conflict) or `kind` (a ' +
      'page-level one: `metadata`, `document` (keeps one version of the document whole), ' +
      '`delete-edit`, `parent-deleted` or `move-move`), and what to keep: `keep` ' +
      "(`changeRequest`, `primary` or `base`; not `base` for the page's existence or place), " +
      '`block` (a block merged by hand) or, for `metadata`, `fields` (a value for each field ' +
      'in conflict). `cycle` and `insert-insert` conflicts need an edit of the change ' +
      'request. The change request then gets an `update` revision whose ' +
      'parents are its head and the primary. A resolution naming no conflict, or conflicts ' +
      'left without one, is a 409 naming them, and nothing is written; a resolution that ' +
      'cannot settle the conflict it names is a 400. `If-Match` with the ETag the conflicts ' +
      'were read against makes it conditional on the head (412).',
  })
  @ifMatchHeader('the resolutions were made against')
  @ApiOkResponse({ type: UpdateFromPrimaryResponse })
  @badRequest
  @ApiConflictResponse({
    type: ErrorBody,
    description: 'Merged, or resolutions that do not match the conflicts.',
  })
  @stale
  async updateFromPrimary(
    @CurrentUser() actor: UserActor,
    @Granted() space: SpaceAccess,
    @Param('changeRequestId') changeRequestId: string,
    @Body() body: UpdateFromPrimaryDto,
    @Headers('if-match') ifMatch: string | undefined,
  ): Promise<UpdateFromPrimaryResponse> {
    return this.merges.update(space, changeRequestId, actor.userId, {
      resolutions: body?.resolutions,
      expectedRevisionId: expectedRevisionOf(ifMatch),
    });
  }
}
