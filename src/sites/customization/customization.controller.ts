import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Put } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
} from '@nestjs/swagger';
import { Access, Granted } from '../../platform/auth/access.decorator';
import { ErrorBody } from '../../platform/errors/error-body';
import { SITE_READ, SITE_WRITE } from '../site-access';
import type { SiteAccess } from '../site-access.policy';
import { Customization } from './customization';
import { SiteCustomizationService } from './customization.service';

const customizationResponse = ApiOkResponse({
  description: "GitBook's `SiteCustomizationSettings`.",
  schema: { type: 'object', additionalProperties: true },
});
const badRequest = ApiBadRequestResponse({
  type: ErrorBody,
  description: 'Invalid customization; the message names the setting.',
});

@Controller('orgs/:organizationId/sites/:siteId')
export class SiteCustomizationController {
  constructor(private readonly customizations: SiteCustomizationService) {}

  @Get('customization')
  @Access('site', SITE_READ)
  @ApiOperation({
    operationId: 'getSiteCustomizationById',
    summary: 'Get a site customization settings',
    description: 'The defaults until the site is customized.',
  })
  @customizationResponse
  get(@Granted() site: SiteAccess, @Param('siteId') siteId: string): Promise<Customization> {
    return this.customizations.getForSite(site.organizationId, siteId);
  }

  @Put('customization')
  @Access('site', SITE_WRITE)
  @ApiOperation({
    operationId: 'updateSiteCustomizationById',
    summary: 'Update a site customization settings',
    description:
      'Replaces the customization. Settings left out take their defaults (objects such as ' +
      '`styling` are completed key by key).',
  })
  @ApiBody({ schema: { type: 'object', additionalProperties: true } })
  @customizationResponse
  @badRequest
  put(
    @Granted() site: SiteAccess,
    @Param('siteId') siteId: string,
    @Body() body: Customization,
  ): Promise<Customization> {
    return this.customizations.putForSite(site.organizationId, siteId, body);
  }

  @Get('site-spaces/:siteSpaceId/customization')
  @Access('siteSpace', SITE_READ)
  @ApiOperation({
    operationId: 'getSiteSpaceCustomizationById',
    summary: 'Get a site space customization settings',
    description: "The site's customization with the site space's overrides.",
  })
  @customizationResponse
  getForSiteSpace(
    @Granted() site: SiteAccess,
    @Param('siteId') siteId: string,
    @Param('siteSpaceId') siteSpaceId: string,
  ): Promise<Customization> {
    return this.customizations.getForSiteSpace(site.organizationId, siteId, siteSpaceId);
  }

  @Patch('site-spaces/:siteSpaceId/customization')
  @Access('siteSpace', SITE_WRITE)
  @ApiOperation({
    operationId: 'overrideSiteSpaceCustomizationById',
    summary: 'Override a site space customization settings',
    description:
      'Sets overrides of the site customization for this site space: a value overrides, null ' +
      'removes the override, an absent setting keeps its override. Answers what the site ' +
      'space then shows.',
  })
  @ApiBody({ schema: { type: 'object', additionalProperties: true } })
  @customizationResponse
  @badRequest
  override(
    @Granted() site: SiteAccess,
    @Param('siteId') siteId: string,
    @Param('siteSpaceId') siteSpaceId: string,
    @Body() body: Customization,
  ): Promise<Customization> {
    return this.customizations.overrideForSiteSpace(site.organizationId, siteId, siteSpaceId, body);
  }

  @Delete('site-spaces/:siteSpaceId/customization')
  @HttpCode(204)
  @Access('siteSpace', SITE_WRITE)
  @ApiOperation({
    operationId: 'deleteSiteSpaceCustomizationById',
    summary: 'Delete a site space customization settings',
    description:
      "Removes the site space's overrides; it shows the site's customization again. Also 204 " +
      'when it had none.',
  })
  @ApiNoContentResponse({ description: 'The site space has no overrides.' })
  async reset(
    @Granted() site: SiteAccess,
    @Param('siteId') siteId: string,
    @Param('siteSpaceId') siteSpaceId: string,
  ): Promise<void> {
    await this.customizations.resetSiteSpace(site.organizationId, siteId, siteSpaceId);
  }
}
