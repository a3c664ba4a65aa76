import { Body, Controller, HttpCode, Post, Query, Res } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Response } from 'express';
import { Access, CurrentActor, Granted } from '../../platform/auth/access.decorator';
import type { Actor } from '../../platform/auth/actor';
import { ErrorBody } from '../../platform/errors/error-body';
import { Page, PageOf } from '../../platform/pagination/page';
import { cacheTag, setCacheTags } from '../../platform/revalidation/cache-tags';
import { ScoredSearchSpaceResultResponse } from '../../spaces/search/dto/search-content.dto';
import { SITE_READ } from '../site-access';
import type { SiteAccess } from '../site-access.policy';
import { SearchSiteContentDto, SearchSiteContentQueryDto } from './dto/search-site-content.dto';
import { SiteSearchService } from './site-search.service';

/** Content search over a site's spaces: its search box. */
@Controller('orgs/:organizationId/sites/:siteId')
export class SiteSearchController {
  constructor(private readonly search: SiteSearchService) {}

  @Post('search')
  @HttpCode(200)
  @Access('site', SITE_READ, { param: 'siteId', siteReaders: true, reads: true })
  @ApiOperation({
    operationId: 'searchSiteContent',
    summary: 'Search content in a site',
    description:
      'Pages matching `query` in the spaces of the site space the scope covers, grouped by ' +
      'space (`id` is the space’s), best first. Members read every site space of any site of ' +
      "the organization; a site's token (`resolvePublishedContentByUrl`) only those of its own " +
      'site that its visitor may see, and in them only the pages its visitor may see (pages ' +
      'hidden by their adaptive-content condition, or an ancestor’s, are neither found nor ' +
      'counted). A site space the scope names that the caller cannot ' +
      'see is 400, as an unknown one. Each page is matched in its space’s language; section ' +
      'bodies are passages starting near their hit, unmarked (the renderer highlights).',
  })
  @ApiOkResponse({ type: PageOf(ScoredSearchSpaceResultResponse) })
  @ApiBadRequestResponse({
    type: ErrorBody,
    description:
      'Missing or invalid `query`, scope, `page` or `limit`, or a site space not in the site.',
  })
  async searchSite(
    @CurrentActor() actor: Actor,
    @Granted() access: SiteAccess,
    @Body() body: SearchSiteContentDto,
    @Query() query: SearchSiteContentQueryDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<Page<ScoredSearchSpaceResultResponse>> {
    const { page, spaceIds } = await this.search.searchSite(access.entity.site, actor, body, query);
    // The renderer caches results under the site's tag and those of the spaces searched, so
    // a change of structure or of their content refreshes them.
    setCacheTags(
      response,
      cacheTag.site(access.entity.site.id),
      ...spaceIds.map((spaceId) => cacheTag.space(spaceId)),
    );
    return page;
  }
}
