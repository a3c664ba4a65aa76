import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Access, CurrentUser } from '../../platform/auth/access.decorator';
import type { UserActor } from '../../platform/auth/actor';
import { ErrorBody } from '../../platform/errors/error-body';
import { PublishedContentSiteResponse, PublishedSiteQueryDto } from './published-site.dto';
import { PublishedSiteService } from './published-site.service';

@ApiTags('sites')
@Controller('orgs/:organizationId/sites/:siteId/published')
export class PublishedSiteController {
  constructor(private readonly published: PublishedSiteService) {}

  /** Any user may ask: the service decides, because published sites reach beyond members. */
  @Get()
  @Access.user()
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
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Query() query: PublishedSiteQueryDto,
  ): Promise<PublishedContentSiteResponse> {
    return this.published.get(actor.userId, organizationId, siteId, query.shareKey);
  }
}
