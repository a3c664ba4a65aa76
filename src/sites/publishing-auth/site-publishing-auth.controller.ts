import { Body, Controller, Get, HttpCode, Patch, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { Access, Granted } from '../../platform/auth/access.decorator';
import { ErrorBody } from '../../platform/errors/error-body';
import { SITE_WRITE } from '../site-access';
import type { SiteAccess } from '../site-access.policy';
import {
  SitePublishingAuthResponse,
  UpdateSitePublishingAuthDto,
} from './site-publishing-auth.dto';
import { SitePublishingAuthService, VisitorAuth } from './site-publishing-auth.service';

/**
 * A site's visitor authentication. Its private key opens the site to whoever signs a token with
 * it, so even reading it takes the role that changes the site, as share links do.
 */
@Controller('orgs/:organizationId/sites/:siteId/publishing/auth')
export class SitePublishingAuthController {
  constructor(private readonly publishingAuth: SitePublishingAuthService) {}

  @Get()
  @Access('site', SITE_WRITE)
  @ApiOperation({
    operationId: 'getSitePublishingAuthById',
    summary: 'Get the published content authentication configuration for a site',
    description:
      'The first read gives the site its private key (32 random bytes). The backend is ' +
      'always `custom`.',
  })
  @ApiOkResponse({ type: SitePublishingAuthResponse })
  async get(@Granted() access: SiteAccess): Promise<SitePublishingAuthResponse> {
    return present(await this.publishingAuth.get(access.entity.site));
  }

  @Patch()
  @Access('site', SITE_WRITE)
  @ApiOperation({
    operationId: 'updateSitePublishingAuthById',
    summary: 'Update the published content authentication configuration for a site',
    description:
      '`backend` must be `custom` (Bindery has no visitor-auth integrations). An absent ' +
      '`fallbackURL` or `logoutURL` is unchanged; null unsets it.',
  })
  @ApiOkResponse({ type: SitePublishingAuthResponse })
  @ApiBadRequestResponse({
    type: ErrorBody,
    description: 'Invalid input, or a backend other than `custom`.',
  })
  async update(
    @Granted() access: SiteAccess,
    @Body() body: UpdateSitePublishingAuthDto,
  ): Promise<SitePublishingAuthResponse> {
    return present(await this.publishingAuth.update(access.entity.site, body));
  }

  @Post('regenerate')
  @HttpCode(200)
  @Access('site', SITE_WRITE)
  @ApiOperation({
    operationId: 'regenerateSitePublishingAuthById',
    summary: "Regenerate the private key for a site's published content authentication",
    description: 'A new private key; tokens signed with the old one stop working at once.',
  })
  @ApiOkResponse({ type: SitePublishingAuthResponse })
  async regenerate(@Granted() access: SiteAccess): Promise<SitePublishingAuthResponse> {
    return present(await this.publishingAuth.regenerate(access.entity.site));
  }
}

function present(auth: VisitorAuth): SitePublishingAuthResponse {
  return {
    object: 'publishing-auth',
    privateKey: auth.privateKey,
    backend: 'custom',
    ...(auth.fallbackURL !== null ? { fallbackURL: auth.fallbackURL } : {}),
    ...(auth.logoutURL !== null ? { logoutURL: auth.logoutURL } : {}),
  };
}
