import { Body, Controller, Get, Param, Put } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
} from '@nestjs/swagger';
import { Access, Granted } from '../../platform/auth/access.decorator';
import { ErrorBody } from '../../platform/errors/error-body';
import { SITE_READ, SITE_WRITE } from '../site-access';
import {
  SiteAdaptiveSchemaResponse,
  SiteAdaptiveTemplateConditionsResponse,
  UpdateSiteAdaptiveSchemaDto,
} from './adaptive-schema.dto';
import type { SiteAccess } from '../site-access.policy';
import { SiteAdaptiveSchemaService } from './adaptive-schema.service';

@Controller('orgs/:organizationId/sites/:siteId/adaptive-schema')
export class SiteAdaptiveSchemaController {
  constructor(private readonly schemas: SiteAdaptiveSchemaService) {}

  @Get()
  @Access('site', SITE_READ)
  @ApiOperation({
    operationId: 'getSiteAdaptiveSchema',
    summary:
      'Get the JSON schema describing the attributes expected for an Adaptive content site visitor.',
    description: '404 until a schema has been set.',
  })
  @ApiOkResponse({ type: SiteAdaptiveSchemaResponse })
  @ApiNotFoundResponse({ type: ErrorBody, description: 'No such site, or no schema yet.' })
  get(
    @Granted() site: SiteAccess,
    @Param('siteId') siteId: string,
  ): Promise<SiteAdaptiveSchemaResponse> {
    return this.schemas.get(site.organizationId, siteId);
  }

  @Put()
  @Access('site', SITE_WRITE)
  @ApiOperation({
    operationId: 'updateSiteAdaptiveSchema',
    summary:
      'Update the JSON schema of the attributes expected for an Adaptive content site visitor.',
    description:
      'Replaces the schema. It must be a draft-07 JSON Schema of the shape GitBook accepts; ' +
      'the 400 names the first thing wrong.',
  })
  @ApiOkResponse({ type: SiteAdaptiveSchemaResponse })
  @ApiBadRequestResponse({ type: ErrorBody, description: 'Not an acceptable visitor schema.' })
  put(
    @Granted() site: SiteAccess,
    @Param('siteId') siteId: string,
    @Body() body: UpdateSiteAdaptiveSchemaDto,
  ): Promise<SiteAdaptiveSchemaResponse> {
    return this.schemas.put(site.organizationId, siteId, body.jsonSchema);
  }

  @Get('template-conditions')
  @Access('site', SITE_READ)
  @ApiOperation({
    operationId: 'listSiteAdaptiveTemplateConditions',
    summary:
      'List templates of conditions generated based on the site visitor schema that can be used in adaptive content expressions.',
    description:
      'One per boolean claim (`=== true`), one per value of a string enum (`=== "value"`) and ' +
      'of an array of enum strings (`.includes("value")`); nested claims included. Empty ' +
      'before a schema is set.',
  })
  @ApiOkResponse({ type: SiteAdaptiveTemplateConditionsResponse })
  async templateConditions(
    @Granted() site: SiteAccess,
    @Param('siteId') siteId: string,
  ): Promise<SiteAdaptiveTemplateConditionsResponse> {
    return { items: await this.schemas.templateConditions(site.organizationId, siteId) };
  }
}
