import {
  Body,
  Controller,
  Delete,
  Get,
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
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiPreconditionFailedResponse,
  ApiQuery,
} from '@nestjs/swagger';
import type { Response } from 'express';
import type { CollectionAccess } from '../collections/collections.service';
import { Organization } from '../orgs/entities/organization.entity';
import { ListMemberSpacesQueryDto } from '../orgs/members/dto/list-members.query';
import { Access, CurrentUser, Granted } from '../platform/auth/access.decorator';
import type { UserActor } from '../platform/auth/actor';
import { ErrorBody } from '../platform/errors/error-body';
import type { ResolvedAccess } from '../platform/policy/access';
import { mapPage, Page, PageOf } from '../platform/pagination/page';
import { PageQueryDto } from '../platform/pagination/page-query.dto';
import { cacheTag, setCacheTags } from '../platform/revalidation/cache-tags';
import {
  CreateSpaceDto,
  MoveContentDto,
  TransferContentDto,
  UpdateSpaceDto,
} from './dto/space.dto';
import { MemberSpacePermissionResponse, SpaceResponse } from './dto/space.response';
import type { SpaceAccess } from './space-access.resolver';
import { SpacesPresenter } from './spaces.presenter';
import { SpaceLifecycle } from './space-lifecycle.service';
import { SpacesService } from './spaces.service';

const badRequest = ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid input.' });

@Controller()
export class SpacesController {
  constructor(
    private readonly spaces: SpacesService,
    private readonly lifecycle: SpaceLifecycle,
    private readonly presenter: SpacesPresenter,
  ) {}

  @Post('orgs/:organizationId/spaces')
  @HttpCode(201)
  @Access('organization', 'view')
  @ApiOperation({
    operationId: 'createSpace',
    summary: 'Create a space',
    description:
      'Needs the create role in the organization, or on `parent` when given. The space starts ' +
      'with one empty page, or none with `empty: true`, and is added after its siblings.',
  })
  @ApiCreatedResponse({ type: SpaceResponse })
  @ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid input or unknown parent.' })
  async create(
    @CurrentUser() actor: UserActor,
    @Granted() organization: ResolvedAccess<Organization>,
    @Body() body: CreateSpaceDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<SpaceResponse> {
    const access = await this.spaces.create(
      organization.entity as Organization,
      organization.role,
      actor.userId,
      body,
    );
    const presented = this.present(access);
    response.location(presented.urls.location);
    return presented;
  }

  @Get('orgs/:organizationId/spaces')
  @Access('organization', 'view')
  @ApiOperation({
    operationId: 'listSpacesInOrganizationById',
    summary: 'List all organization spaces',
    description:
      'The spaces the caller can see, oldest first; guests see only those granted to them.',
  })
  @ApiOkResponse({ type: PageOf(SpaceResponse) })
  @badRequest
  async list(
    @CurrentUser() actor: UserActor,
    @Granted() organization: ResolvedAccess<Organization>,
    @Query() query: PageQueryDto,
  ): Promise<Page<SpaceResponse>> {
    const page = await this.spaces.list(organization.id, organization.role, actor.userId, query);
    return mapPage(page, (access) => this.present(access));
  }

  @Get('collections/:collectionId/spaces')
  @Access('collection', 'view')
  @ApiOperation({
    operationId: 'listSpacesInCollectionById',
    summary: 'List all spaces in a collection',
    description: 'The spaces directly in the collection that the caller can see, oldest first.',
  })
  @ApiOkResponse({ type: PageOf(SpaceResponse) })
  @badRequest
  async listInCollection(
    @CurrentUser() actor: UserActor,
    @Granted() collection: CollectionAccess,
    @Query() query: PageQueryDto,
  ): Promise<Page<SpaceResponse>> {
    const page = await this.spaces.listInCollection(collection, actor.userId, query);
    return mapPage(page, (access) => this.present(access));
  }

  @Get('orgs/:organizationId/members/:userId/spaces')
  @Access('organization', 'read')
  @ApiOperation({
    operationId: 'listSpacesForOrganizationMember',
    summary: 'List an organization member space permissions',
    description:
      "The spaces the member can reach with the member's role on each, newest first by default.",
  })
  @ApiOkResponse({ type: PageOf(MemberSpacePermissionResponse) })
  @badRequest
  async listForMember(
    @CurrentUser() actor: UserActor,
    @Granted() organization: ResolvedAccess,
    @Param('userId') userId: string,
    @Query() query: ListMemberSpacesQueryDto,
  ): Promise<Page<MemberSpacePermissionResponse>> {
    const page = await this.spaces.listForMember(organization.id, userId, actor.userId, query);
    return mapPage(page, ({ permission, space }) => ({ permission, space: this.present(space) }));
  }

  @Get('spaces/:spaceId')
  @Access('spaceIncludingDeleted', 'view', {
    param: 'spaceId',
    siteReaders: true,
    integrations: { installation: 'space:metadata:read' },
  })
  @ApiOperation({
    operationId: 'getSpaceById',
    summary: 'Get a space by its ID',
    description: 'A space in the trash is answered too, with `deletedAt`, until it is purged.',
  })
  @ApiQuery({
    name: 'shareKey',
    required: false,
    description: 'For share-link content; accepted and not needed by members.',
  })
  @ApiOkResponse({ type: SpaceResponse })
  get(
    @Granted() access: SpaceAccess,
    @Res({ passthrough: true }) response: Response,
  ): SpaceResponse {
    setCacheTags(response, cacheTag.space(access.entity.id));
    return this.present(access);
  }

  @Patch('spaces/:spaceId')
  @Access('space', 'admin')
  @ApiOperation({
    operationId: 'updateSpaceById',
    summary: 'Update a space',
    description:
      'Absent fields are unchanged. `emoji` and `icon` replace each other; both null clear them.',
  })
  @ApiOkResponse({ type: SpaceResponse })
  @badRequest
  async update(
    @CurrentUser() actor: UserActor,
    @Granted() access: SpaceAccess,
    @Body() body: UpdateSpaceDto,
  ): Promise<SpaceResponse> {
    return this.present(await this.spaces.update(access, actor.userId, body));
  }

  @Delete('spaces/:spaceId')
  @HttpCode(204)
  @Access('space', 'admin', { ifAbsent: 'proceed' })
  @ApiOperation({
    operationId: 'deleteSpaceById',
    summary: 'Delete a space',
    description:
      'Moves it to the trash: restorable for 7 days, then purged with all its content. Needs ' +
      'the admin role on it. Also 204 when there is no such space, it is already in the trash, ' +
      'or the caller cannot see it.',
  })
  @ApiNoContentResponse({ description: 'The space is in the trash.' })
  async remove(
    @Granted() access: SpaceAccess | null,
    @CurrentUser() actor: UserActor,
  ): Promise<void> {
    if (access) await this.lifecycle.remove(access, actor.userId);
  }

  @Post('spaces/:spaceId/duplicate')
  @HttpCode(200)
  @Access('space', 'view', { reaches: 'organization' })
  @ApiOperation({
    operationId: 'duplicateSpace',
    summary: 'Duplicate a space',
    description:
      'A copy next to it, titled "… (copy)", private (in-collection stays in-collection), ' +
      'with the same content and settings and ' +
      'no grants of its own. Needs the create role where the copy goes.',
  })
  @ApiOkResponse({ type: SpaceResponse })
  async duplicate(
    @CurrentUser() actor: UserActor,
    @Granted() access: SpaceAccess,
    @Res({ passthrough: true }) response: Response,
  ): Promise<SpaceResponse> {
    const presented = this.present(await this.lifecycle.duplicate(access, actor.userId));
    response.location(presented.urls.location);
    return presented;
  }

  @Post('spaces/:spaceId/restore')
  @HttpCode(200)
  @Access('spaceIncludingDeleted', 'admin', 'spaceId')
  @ApiOperation({
    operationId: 'restoreSpace',
    summary: 'Restore a deleted space',
    description:
      'Within 7 days of its deletion; it returns at the end of its collection (the root when ' +
      'the collection is gone). A space not in the trash is answered as it is.',
  })
  @ApiOkResponse({ type: SpaceResponse })
  async restore(
    @CurrentUser() actor: UserActor,
    @Granted() access: SpaceAccess,
  ): Promise<SpaceResponse> {
    return this.present(await this.lifecycle.restore(access, actor.userId));
  }

  @Post('spaces/:spaceId/move')
  @HttpCode(200)
  @Access('space', 'admin', { reaches: 'organization' })
  @ApiOperation({
    operationId: 'moveSpace',
    summary: 'Move a space to a new position',
    description:
      'Needs admin on the space and create on the target collection (in the organization for ' +
      'the root). A space with `in-collection` visibility moved to the root becomes private.',
  })
  @ApiOkResponse({ type: SpaceResponse })
  @ApiBadRequestResponse({
    type: ErrorBody,
    description:
      'Empty body, an unknown target collection, or a position sibling not in the target.',
  })
  @ApiConflictResponse({ type: ErrorBody, description: 'The move would not change anything.' })
  async move(
    @CurrentUser() actor: UserActor,
    @Granted() access: SpaceAccess,
    @Body() body: MoveContentDto,
  ): Promise<SpaceResponse> {
    return this.present(await this.lifecycle.move(access, actor.userId, body));
  }

  @Post('spaces/:spaceId/transfer')
  @HttpCode(200)
  @Access('space', 'admin', { reaches: 'otherOrganizations' })
  @ApiOperation({
    operationId: 'transferSpace',
    summary: 'Transfer a space to another organization',
    description:
      'Needs admin in both organizations. It goes to the root of the target; its access ' +
      'grants are dropped.',
  })
  @ApiOkResponse({ type: SpaceResponse })
  @badRequest
  @ApiConflictResponse({ type: ErrorBody, description: 'It already belongs to that organization.' })
  @ApiPreconditionFailedResponse({
    type: ErrorBody,
    description: 'It cannot be transferred (the message says why).',
  })
  async transfer(
    @CurrentUser() actor: UserActor,
    @Granted() access: SpaceAccess,
    @Body() body: TransferContentDto,
  ): Promise<SpaceResponse> {
    return this.present(await this.lifecycle.transfer(access, actor.userId, body));
  }

  private present(access: SpaceAccess): SpaceResponse {
    return this.presenter.present(access.entity, access.role);
  }
}
