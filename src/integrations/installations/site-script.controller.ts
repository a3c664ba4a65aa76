import { Controller, Get, Param, Res } from '@nestjs/common';
import {
  ApiBadGatewayResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { Access } from '../../platform/auth/access.decorator';
import { ErrorBody } from '../../platform/errors/error-body';
import { SiteScriptsService } from './site-scripts.service';

/**
 * The script an integration injects in a published site's pages (`listSiteIntegrationScripts`'
 * `script`): loaded by the visitors' browsers with `<script src>`, so without a token.
 */
@Controller('integrations/:integrationName/installations/:installationId/sites/:siteId/script.js')
export class SiteScriptController {
  constructor(private readonly scripts: SiteScriptsService) {}

  @Get()
  @Access.public()
  @ApiOperation({
    operationId: 'getIntegrationSiteScript',
    summary: "An integration's script for a published site",
    description:
      "Bindery's own. The URL `listSiteIntegrationScripts` gives a site's renderer: the " +
      "integration's script answers GitBook's `fetch_published_script` event for its active " +
      'installation on the published site (`site:script:inject`), with the site installation ' +
      'and its configuration in its environment, and its answer is served as JavaScript, with ' +
      'the `Cache-Control` it set (else `public, max-age=300`) and never a cookie.',
  })
  @ApiOkResponse({
    description: 'The script.',
    content: { 'application/javascript': { schema: { type: 'string' } } },
  })
  @ApiNotFoundResponse({
    type: ErrorBody,
    description:
      'No such installation on the site, not active, of an integration without ' +
      '`site:script:inject`, or the site is not published.',
  })
  @ApiBadGatewayResponse({
    type: ErrorBody,
    description: "The integration's script did not answer 2xx (its events say why).",
  })
  async script(
    @Param('integrationName') integrationName: string,
    @Param('installationId') installationId: string,
    @Param('siteId') siteId: string,
    @Res() response: Response,
  ): Promise<void> {
    const script = await this.scripts.fetch(integrationName, installationId, siteId);
    response.setHeader('Content-Type', script.contentType);
    response.setHeader('Cache-Control', script.cacheControl);
    response.setHeader('X-Content-Type-Options', 'nosniff');
    response.status(200).end(script.body);
  }
}
