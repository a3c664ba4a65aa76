import { Controller, Get, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Access, Granted } from '../../platform/auth/access.decorator';
import { ErrorBody } from '../../platform/errors/error-body';
import { Page, PageOf } from '../../platform/pagination/page';
import type { SpaceAccess } from '../space-access.resolver';
import { SearchContentQueryDto, SearchPageResultResponse } from './dto/search-content.dto';
import { SearchService } from './search.service';

@ApiTags('space-content')
@Controller()
export class SearchController {
  constructor(private readonly search: SearchService) {}

  @Get('spaces/:spaceId/search')
  @Access('space', 'view')
  @ApiOperation({
    operationId: 'searchSpaceContent',
    summary: 'Search content in a space',
    description:
      'Pages of the space’s primary revision matching `query`, best first, each with its ' +
      'matching sections (the page split at its headings).',
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
