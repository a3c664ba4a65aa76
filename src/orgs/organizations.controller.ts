import { Body, Controller, Get, HttpCode, Patch, Post, Query, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { Access, CurrentUser, Granted } from '../platform/auth/access.decorator';
import type { UserActor } from '../platform/auth/actor';
import { ErrorBody } from '../platform/errors/error-body';
import type { ResolvedAccess } from '../platform/policy/access';
import { PageQueryDto } from '../platform/pagination/page-query.dto';
import { mapPage, Page, PageOf } from '../platform/pagination/page';
import { CreateOrganizationDto } from './dto/create-organization.dto';
import { OrganizationResponse } from './dto/organization.response';
import { UpdateOrganizationDto } from './dto/update-organization.dto';
import { OrganizationsPresenter } from './organizations.presenter';
import { Organization } from './entities/organization.entity';
import { OrganizationsService } from './organizations.service';

@Controller('orgs')
export class OrganizationsController {
  constructor(
    private readonly organizations: OrganizationsService,
    private readonly presenter: OrganizationsPresenter,
  ) {}

  @Post()
  @HttpCode(201)
  @Access.user()
  @ApiOperation({
    operationId: 'createOrganization',
    summary: 'Create an organization',
    description: 'The caller becomes its admin member.',
  })
  @ApiCreatedResponse({ type: OrganizationResponse })
  async create(
    @CurrentUser() actor: UserActor,
    @Body() body: CreateOrganizationDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<OrganizationResponse> {
    const organization = await this.organizations.create(actor.userId, body);
    const presented = this.presenter.present(organization, 'admin');
    response.location(presented.urls.location);
    return presented;
  }

  @Get()
  @Access.user({ limitedTokens: true })
  @ApiOperation({
    operationId: 'listOrganizationsForAuthenticatedUser',
    summary: 'List the organizations of the authenticated user',
    description: 'A token limited to one organization lists that one only.',
  })
  @ApiOkResponse({ type: PageOf(OrganizationResponse) })
  async list(
    @CurrentUser() actor: UserActor,
    @Query() query: PageQueryDto,
  ): Promise<Page<OrganizationResponse>> {
    const only = actor.scope?.organization ?? null;
    const page = await this.organizations.listForUser(actor.userId, query, only);
    return mapPage(page, (member) => this.presenter.present(member.organization!, member.role));
  }

  @Get(':organizationId')
  @Access('organization', 'view', { integrations: { integration: true, installation: 'any' } })
  @ApiOperation({ operationId: 'getOrganizationById', summary: 'Get an organization by its ID' })
  @ApiOkResponse({ type: OrganizationResponse })
  get(@Granted() access: ResolvedAccess<Organization>): OrganizationResponse {
    return this.presenter.present(access.entity as Organization, access.role);
  }

  @Patch(':organizationId')
  @Access('organization', 'admin')
  @ApiOperation({
    operationId: 'updateOrganizationById',
    summary: 'Update an organization',
    description:
      'Absent fields are unchanged; null clears `hostname`, `defaultRole` (new members are ' +
      'guests), `defaultContent` and `logo`. An empty body changes nothing.',
  })
  @ApiOkResponse({ type: OrganizationResponse })
  @ApiBadRequestResponse({
    type: ErrorBody,
    description: 'Invalid field, default content or merge-rule user that is not a member.',
  })
  @ApiConflictResponse({ type: ErrorBody, description: 'The hostname is already taken.' })
  async update(
    @Granted() access: ResolvedAccess<Organization>,
    @Body() body: UpdateOrganizationDto,
  ): Promise<OrganizationResponse> {
    const organization = await this.organizations.update(access.entity as Organization, body);
    return this.presenter.present(organization, access.role);
  }
}
