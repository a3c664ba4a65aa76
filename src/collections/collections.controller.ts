import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Query, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiPreconditionFailedResponse,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { Organization } from '../orgs/entities/organization.entity';
import { Access, CurrentUser, Granted } from '../platform/auth/access.decorator';
import type { UserActor } from '../platform/auth/actor';
import { ErrorBody } from '../platform/errors/error-body';
import type { ResolvedAccess } from '../platform/policy/access';
import { mapPage, Page, PageOf } from '../platform/pagination/page';
import {
  CreateCollectionDto,
  ListCollectionsQueryDto,
  MoveContentDto,
  TransferContentDto,
  UpdateCollectionDto,
} from './dto/collection.dto';
import { CollectionResponse } from './dto/collection.response';
import { CollectionsPresenter } from './collections.presenter';
import { CollectionAccess, CollectionsService } from './collections.service';

const badRequest = ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid input.' });

@Controller()
export class CollectionsController {
  constructor(
    private readonly collections: CollectionsService,
    private readonly presenter: CollectionsPresenter,
  ) {}

  @Post('orgs/:organizationId/collections')
  @HttpCode(201)
  @Access('organization', 'view')
  @ApiOperation({
    operationId: 'createCollection',
    summary: 'Create a collection',
    description:
      'Needs the create role in the organization, or on `parent` when given. Added after its siblings.',
  })
  @ApiCreatedResponse({ type: CollectionResponse })
  @ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid input or unknown parent.' })
  async create(
    @CurrentUser() actor: UserActor,
    @Granted() organization: ResolvedAccess<Organization>,
    @Body() body: CreateCollectionDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<CollectionResponse> {
    const access = await this.collections.create(
      organization.entity as Organization,
      organization.role,
      actor.userId,
      body,
    );
    const presented = this.presenter.present(access.entity, access.role);
    response.location(presented.urls.location);
    return presented;
  }

  @Get('orgs/:organizationId/collections')
  @Access('organization', 'view')
  @ApiOperation({
    operationId: 'listCollectionsInOrganizationById',
    summary: 'List all collections',
    description:
      'The collections the caller can see, oldest first; guests see only those granted to them.',
  })
  @ApiOkResponse({ type: PageOf(CollectionResponse) })
  @badRequest
  async list(
    @CurrentUser() actor: UserActor,
    @Granted() organization: ResolvedAccess<Organization>,
    @Query() query: ListCollectionsQueryDto,
  ): Promise<Page<CollectionResponse>> {
    const page = await this.collections.list(
      organization.id,
      organization.role,
      actor.userId,
      query,
    );
    return mapPage(page, (access) => this.presenter.present(access.entity, access.role));
  }

  @Get('collections/:collectionId')
  @Access('collection', 'view')
  @ApiOperation({ operationId: 'getCollectionById', summary: 'Get a collection by its ID' })
  @ApiOkResponse({ type: CollectionResponse })
  get(@Granted() access: CollectionAccess): CollectionResponse {
    return this.presenter.present(access.entity, access.role);
  }

  @Patch('collections/:collectionId')
  @Access('collection', 'admin')
  @ApiOperation({
    operationId: 'updateCollectionById',
    summary: 'Update a collection',
    description: 'Absent fields are unchanged; `description: null` clears it.',
  })
  @ApiOkResponse({ type: CollectionResponse })
  @badRequest
  async update(
    @CurrentUser() actor: UserActor,
    @Granted() access: CollectionAccess,
    @Body() body: UpdateCollectionDto,
  ): Promise<CollectionResponse> {
    const updated = await this.collections.update(access, actor.userId, body);
    return this.presenter.present(updated.entity, updated.role);
  }

  @Delete('collections/:collectionId')
  @HttpCode(204)
  @Access('collection', 'admin', { ifAbsent: 'proceed' })
  @ApiOperation({
    operationId: 'deleteCollectionById',
    summary: 'Delete a collection',
    description:
      'Needs the admin role on it; its sub-collections go with it. Also 204 when there is no ' +
      'such collection or the caller cannot see it (the same answer, so nothing is revealed).',
  })
  @ApiNoContentResponse({ description: 'The collection is gone.' })
  async remove(@Granted() access: CollectionAccess | null): Promise<void> {
    if (access) await this.collections.remove(access);
  }

  @Post('collections/:collectionId/move')
  @HttpCode(200)
  @Access('collection', 'admin')
  @ApiOperation({
    operationId: 'moveCollection',
    summary: 'Move a collection to a new position',
    description:
      'Needs admin on the collection and create on the target parent (in the organization for the root).',
  })
  @ApiOkResponse({ type: CollectionResponse })
  @ApiBadRequestResponse({
    type: ErrorBody,
    description:
      'Empty body, an unknown target collection, a move into itself, or a position sibling not in the target.',
  })
  @ApiConflictResponse({ type: ErrorBody, description: 'The move would not change anything.' })
  async move(
    @CurrentUser() actor: UserActor,
    @Granted() access: CollectionAccess,
    @Body() body: MoveContentDto,
  ): Promise<CollectionResponse> {
    const moved = await this.collections.move(access, actor.userId, body);
    return this.presenter.present(moved.entity, moved.role);
  }

  @Post('collections/:collectionId/transfer')
  @HttpCode(200)
  @Access('collection', 'admin', { reaches: 'otherOrganizations' })
  @ApiOperation({
    operationId: 'transferCollection',
    summary: 'Transfer a collection to another organization',
    description:
      'Needs admin in both organizations. It and its sub-collections go to the root of the ' +
      'target; their access grants are dropped.',
  })
  @ApiOkResponse({ type: CollectionResponse })
  @badRequest
  @ApiConflictResponse({ type: ErrorBody, description: 'It already belongs to that organization.' })
  @ApiPreconditionFailedResponse({ type: ErrorBody, description: 'It cannot be transferred.' })
  async transfer(
    @CurrentUser() actor: UserActor,
    @Granted() access: CollectionAccess,
    @Body() body: TransferContentDto,
  ): Promise<CollectionResponse> {
    const moved = await this.collections.transfer(access, actor.userId, body);
    return this.presenter.present(moved.entity, moved.role);
  }
}
