import { Controller, Get, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { Access, CurrentUser, Granted } from '../../platform/auth/access.decorator';
import type { UserActor } from '../../platform/auth/actor';
import { ErrorBody } from '../../platform/errors/error-body';
import { Page, PageOf } from '../../platform/pagination/page';
import type { ResolvedAccess } from '../../platform/policy/access';
import type { SpaceAccess } from '../space-access.resolver';
import {
  SearchContentQueryDto,
  SearchOrganizationContentQueryDto,
  SearchPageResultResponse,
  SearchSpaceResultResponse,
} from './dto/search-content.dto';
import { SearchService } from './search.service';

/** Content search in one space. */
@Controller()
export class SearchController {
  constructor(private readonly search: SearchService) {}

  @Get('spaces/:spaceId/search')
  @Access('space', 'view')
  @ApiOperation({
    operationId: 'searchSpaceContent',
    summary: 'Search content in a space',
    description:
      'Pages of the space’s primary revision matching `query` in the space’s language, best ' +
      'first (pages found only through typo corrections after the others), each with its ' +
      'matching sections (the page split at its headings). A section’s `body` is the passage ' +
      'around its best hit, each hit marked `**hit**` (Markdown strong emphasis). `count` is ' +
      'the number of matching pages when they are at most the instance’s rank limit ' +
      '(SEARCH_EXACT_RANK_LIMIT, 1000 by default); when more match, that many candidates are ' +
      'ranked (pages with the terms in their title first) and `count` is their number.',
  })
  @ApiOkResponse({ type: PageOf(SearchPageResultResponse) })
  @ApiBadRequestResponse({
    type: ErrorBody,
    description: 'Missing or invalid `query`, `page` or `limit`.',
  })
  searchSpace(
    @Granted() access: SpaceAccess,
    @Query() query: SearchContentQueryDto,
  ): Promise<Page<SearchPageResultResponse>> {
    return this.search.searchSpace(access.entity, query);
  }
}

/** Content search over the spaces of an organization that the caller may read. */
@Controller()
export class OrganizationSearchController {
  constructor(private readonly search: SearchService) {}

  /**
   * Over the organization's live spaces that the caller may read (members with a role: all of
   * them; guests: those granted to them), by the spaces' best matches, each with its best pages
   * (DESIGN.md, "Content model").
   */
  @Get('orgs/:organizationId/search')
  @Access('organization', 'view')
  @ApiOperation({
    operationId: 'searchOrganizationContent',
    summary: 'Search content in an organization',
    description:
      'Pages matching `query`, grouped by space, over the spaces the caller may read; spaces ' +
      'ranked by their best page, each with its best 10 pages. With `spaceId` (a Bindery ' +
      'extension), that space alone with a page of its matching pages. Section bodies are ' +
      'passages around the hits, marked `**hit**`.',
  })
  @ApiOkResponse({ type: PageOf(SearchSpaceResultResponse) })
  @ApiBadRequestResponse({
    type: ErrorBody,
    description: 'Missing or invalid `query`, `page` or `limit`.',
  })
  searchOrganization(
    @CurrentUser() actor: UserActor,
    @Granted() access: ResolvedAccess,
    @Query() query: SearchOrganizationContentQueryDto,
  ): Promise<Page<SearchSpaceResultResponse>> {
    return this.search.searchOrganization(
      access.organizationId,
      { userId: actor.userId, role: access.role },
      query,
    );
  }
}
