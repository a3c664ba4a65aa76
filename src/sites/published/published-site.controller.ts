import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Access, CurrentUser, Granted } from '../../platform/auth/access.decorator';
import type { UserActor } from '../../platform/auth/actor';
import { ErrorBody } from '../../platform/errors/error-body';
import { PublishedContentSiteResponse, PublishedSiteQueryDto } from './published-site.dto';
import type { PublishedSiteAccess } from './published-site-access';
import { PublishedSiteService } from './published-site.service';

@ApiTags('sites')
@Controller('orgs/:organizationId/sites/:siteId/published')
export class PublishedSiteController {
  constructor(private readonly published: PublishedSiteService) {}

  /** Published sites reach beyond members: PublishedSiteAccessPolicy decides who sees one. */
  @Get()
  @Access('publishedSite', 'view', 'siteId')
  @ApiOperation({
    operationId: 'getPublishedContentSite',
    summary: 'Get a published site',
    description:
      'The site, its structure, customizations and scripts, as a renderer needs them. Members ' +
      'read any site of their organization; anyone else a published `public` or `unlisted` ' +
      'site, or a published `share-link` site with `shareKey`. 404 otherwise, and for a ' +
      '`shareKey` that opens nothing.',
  })
  @ApiOkResponse({ type: PublishedContentSiteResponse })
  @ApiNotFoundResponse({
    type: ErrorBody,
    description: 'No such site, not visible to the caller, or a share key that opens nothing.',
  })
  get(
    @CurrentUser() actor: UserActor,
    @Granted() site: PublishedSiteAccess,
    // Validated and documented here; the access policy reads the key.
    @Query() _query: PublishedSiteQueryDto,
  ): Promise<PublishedContentSiteResponse> {
    return this.published.get(site.entity, actor.userId, site.role);
  }
}
