import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import type { Type } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
} from '@nestjs/swagger';
import { Access, CurrentUser } from '../../platform/auth/access.decorator';
import type { UserActor } from '../../platform/auth/actor';
import { ErrorBody } from '../../platform/errors/error-body';
import { Page, PageOf } from '../../platform/pagination/page';
import { PageQueryDto } from '../../platform/pagination/page-query.dto';
import { QueryOf } from '../../platform/validation/typed-params';
import type { GrantedResourceType } from '../entities/content-grant.entity';
import { ContentGrantsPresenter } from './content-grants.presenter';
import {
  type AggregateFilters,
  type ContentResource,
  ContentGrantsService,
} from './content-grants.service';
import {
  InviteUsersAndTeamsDto,
  ListPermissionsAggregateQueryDto,
  UpdateContentPermissionDto,
} from './dto/content-grant.dto';
import {
  TeamContentPermissionResponse,
  UserContentPermissionResponse,
  UserSitePermissionResponse,
} from './dto/content-grant.response';
import { GrantedContent } from './granted-content.decorator';

export type ContentGrantOperation =
  | 'invite'
  | 'listAggregate'
  | 'listUsers'
  | 'updateUser'
  | 'removeUser'
  | 'listTeams'
  | 'updateTeam'
  | 'removeTeam';

/**
 * What tells a collection's permission routes from a space's or a site's: names, for clients
 * and docs, and the site's own aggregate.
 */
export interface ContentGrantRoutes {
  /** Routes are `<path>/permissions...`; by default `/<resourceType>s/:<resourceType>Id`. */
  resourceType: GrantedResourceType;
  path?: string;
  /** GitBook's operationId and summary of each route. */
  operations: Record<ContentGrantOperation, { operationId: string; summary: string }>;
  /**
   * The aggregate's query and item: by default a role filter and `UserContentPermission`
   * (collections, spaces); a site's has GitBook's member filters and `UserSitePermission`.
   */
  aggregate?: {
    query: Type<AggregateFilters & PageQueryDto>;
    item: Type<UserContentPermissionResponse>;
  };
}

/** The aggregate's filters in a query of either kind. */
const aggregateFilters = (query: AggregateFilters): AggregateFilters => ({
  role: query.role,
  search: query.search,
  team: query.team,
  sort: query.sort,
  order: query.order,
});

const invalidInput = ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid input.' });

/**
 * The permission routes of collections, spaces and sites, which behave alike
 * (ContentGrantsService), as a base class per resource type: who has been given a role on it,
 * and who can reach it. Every route needs the admin role on it.
 */
export function ContentGrantsController(routes: ContentGrantRoutes) {
  const { resourceType: type, operations: op } = routes;
  const admin = () => Access(type, 'admin');
  const aggregate = routes.aggregate ?? {
    query: ListPermissionsAggregateQueryDto,
    item: UserContentPermissionResponse,
  };

  @Controller(`${routes.path ?? `${type}s/:${type}Id`}/permissions`)
  class ContentGrantsControllerBase {
    constructor(
      private readonly grants: ContentGrantsService,
      private readonly presenter: ContentGrantsPresenter,
    ) {}

    @Post()
    @HttpCode(204)
    @admin()
    @ApiOperation({
      ...op.invite,
      description:
        `Gives \`role\` on the ${type} to members of its organization, guests included, and ` +
        'to its teams; replaces a role they already had on it. `role: null` removes their ' +
        'grants. ' +
        (type === 'site'
          ? 'A grant on a site raises the role on the site (its settings, structure and ' +
            'published face), not on the spaces it publishes.'
          : 'A grant on a collection reaches everything inside it.'),
    })
    @ApiNoContentResponse({ description: 'The grants are set.' })
    @ApiBadRequestResponse({
      type: ErrorBody,
      description: 'Invalid input, or a user or team not of the organization.',
    })
    async invite(
      @GrantedContent() content: ContentResource,
      @Body() body: InviteUsersAndTeamsDto,
    ): Promise<void> {
      await this.grants.invite(content, body);
    }

    @Get('aggregate')
    @admin()
    @ApiOperation({
      ...op.listAggregate,
      description:
        type === 'site'
          ? 'Every member who can reach the site, with its effective role there: the higher of ' +
            'its organization role and the grants on the site to it or its teams, and what ' +
            'decided it (`origin`). Guests appear only through grants, disabled members not at ' +
            'all. `role`, `search`, `team` filter; `sort` and `order` order (newest member ' +
            'first by default).'
          : `Every member who can reach the ${type}, with its effective role there: the ` +
            'highest of its organization role, the default level and the grants to it or its ' +
            `teams, on the ${type} or a collection above it. Guests appear only through ` +
            'grants, disabled members not at all. Oldest member first.',
    })
    @ApiOkResponse({ type: PageOf(aggregate.item) })
    @invalidInput
    async listAggregate(
      @GrantedContent() content: ContentResource,
      @QueryOf(aggregate.query) query: AggregateFilters & PageQueryDto,
    ): Promise<Page<UserContentPermissionResponse | UserSitePermissionResponse>> {
      const filters = aggregateFilters(query);
      // GitBook's member lists are newest first by default; the content aggregates oldest first.
      if (type === 'site') filters.order ??= 'desc';
      return this.presenter.memberPage(
        content,
        await this.grants.listAggregate(content, filters, query),
      );
    }

    @Get('users')
    @admin()
    @ApiOperation({
      ...op.listUsers,
      description: `The users given a role on this ${type} itself, oldest grant first.`,
    })
    @ApiOkResponse({ type: PageOf(UserContentPermissionResponse) })
    @invalidInput
    async listUsers(
      @GrantedContent() content: ContentResource,
      @Query() query: PageQueryDto,
    ): Promise<Page<UserContentPermissionResponse>> {
      return this.presenter.userPage(await this.grants.listUsers(content, query));
    }

    @Patch('users/:userId')
    @HttpCode(204)
    @admin()
    @ApiOperation({
      ...op.updateUser,
      description: 'Sets the user’s role (granting it if absent); `role: null` removes the grant.',
    })
    @ApiNoContentResponse({ description: 'User permission was updated.' })
    @invalidInput
    @ApiNotFoundResponse({ type: ErrorBody, description: 'No member with this id.' })
    async updateUser(
      @GrantedContent() content: ContentResource,
      @Param('userId') userId: string,
      @Body() body: UpdateContentPermissionDto,
    ): Promise<void> {
      await this.grants.setUser(content, userId, body.role);
    }

    @Delete('users/:userId')
    @HttpCode(204)
    @admin()
    @ApiOperation({ ...op.removeUser, description: 'Also 204 when the user had no grant on it.' })
    @ApiNoContentResponse({ description: `The user has no grant on the ${type}.` })
    async removeUser(
      @GrantedContent() content: ContentResource,
      @Param('userId') userId: string,
    ): Promise<void> {
      await this.grants.removeUser(content, userId);
    }

    @Get('teams')
    @admin()
    @ApiOperation({
      ...op.listTeams,
      description: `The teams given a role on this ${type} itself, oldest grant first.`,
    })
    @ApiOkResponse({ type: PageOf(TeamContentPermissionResponse) })
    @invalidInput
    async listTeams(
      @CurrentUser() actor: UserActor,
      @GrantedContent() content: ContentResource,
      @Query() query: PageQueryDto,
    ): Promise<Page<TeamContentPermissionResponse>> {
      return this.presenter.teamPage(await this.grants.listTeams(content, actor.userId, query));
    }

    @Patch('teams/:teamId')
    @HttpCode(204)
    @admin()
    @ApiOperation({
      ...op.updateTeam,
      description: 'Sets the team’s role (granting it if absent); `role: null` removes the grant.',
    })
    @ApiNoContentResponse({ description: 'Team permission was updated.' })
    @invalidInput
    @ApiNotFoundResponse({ type: ErrorBody, description: 'No team with this id.' })
    async updateTeam(
      @GrantedContent() content: ContentResource,
      @Param('teamId') teamId: string,
      @Body() body: UpdateContentPermissionDto,
    ): Promise<void> {
      await this.grants.setTeam(content, teamId, body.role);
    }

    @Delete('teams/:teamId')
    @HttpCode(204)
    @admin()
    @ApiOperation({ ...op.removeTeam, description: 'Also 204 when the team had no grant on it.' })
    @ApiNoContentResponse({ description: `The team has no grant on the ${type}.` })
    async removeTeam(
      @GrantedContent() content: ContentResource,
      @Param('teamId') teamId: string,
    ): Promise<void> {
      await this.grants.removeTeam(content, teamId);
    }
  }
  return ContentGrantsControllerBase;
}
