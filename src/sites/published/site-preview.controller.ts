import { Controller, Get } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { Access, CurrentUser, Granted } from '../../platform/auth/access.decorator';
import type { UserActor } from '../../platform/auth/actor';
import { ErrorBody } from '../../platform/errors/error-body';
import { QueryOf } from '../../platform/validation/typed-params';
import { SITE_READ } from '../site-access';
import type { SiteAccess } from '../site-access.policy';
import { SitePreviewQueryDto, SitePreviewResponse } from './published-site.dto';
import { SitePreviewService } from './site-preview.service';

@Controller()
export class SitePreviewController {
  constructor(private readonly previews: SitePreviewService) {}

  @Get('orgs/:organizationId/sites/:siteId/publishing/preview')
  @Access('site', SITE_READ)
  @ApiOperation({
    operationId: 'getSitePublishingPreviewById',
    summary: "Generate a temporary preview URL for a site's published content",
    description:
      'A URL of the renderer (RENDERER_PUBLIC_URL, else RENDERER_URL) that shows the site as ' +
      'published, published or not, for an hour: its multi-id form ' +
      '`/~site/<siteId>/<target>?token=<site token>&api=<PUBLIC_URL>`. The token reads the ' +
      'site space `siteSpace` (else the default) and the spaces a visitor with `claims` (Rison) ' +
      'sees, among those the caller may read; `draft` (default true) shows draft external ' +
      'links. 400 when no renderer is configured, or for a site space not in the site or ' +
      'hidden by the claims.',
  })
  @ApiOkResponse({ type: SitePreviewResponse })
  @ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid input, or no renderer.' })
  async preview(
    @CurrentUser() actor: UserActor,
    @Granted() site: SiteAccess,
    @QueryOf(SitePreviewQueryDto) query: SitePreviewQueryDto,
  ): Promise<SitePreviewResponse> {
    return this.previews.preview(site.entity.site, actor.userId, query);
  }
}
