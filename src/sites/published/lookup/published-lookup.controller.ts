import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiExtraModels,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiUnauthorizedResponse,
  getSchemaPath,
} from '@nestjs/swagger';
import { Access } from '../../../platform/auth/access.decorator';
import { ErrorBody } from '../../../platform/errors/error-body';
import {
  GetPublishedContentQueryDto,
  PublishedContentRedirectResponse,
  PublishedSiteContentResponse,
  ResolvePublishedContentDto,
} from './published-lookup.dto';
import {
  type PublishedContentRedirect,
  PublishedLookupService,
  type PublishedSiteContent,
} from './published-lookup.service';

const answer = ApiOkResponse({
  description: 'The content the URL shows, or where to send the visitor instead.',
  schema: {
    oneOf: [
      { $ref: getSchemaPath(PublishedSiteContentResponse) },
      { $ref: getSchemaPath(PublishedContentRedirectResponse) },
    ],
  },
});
const notFound = ApiNotFoundResponse({
  type: ErrorBody,
  description: 'No published content at this URL, for this visitor.',
});
const unauthorized = ApiUnauthorizedResponse({
  type: ErrorBody,
  description: 'A `visitor-auth` site and a visitor token that is not valid for it.',
});
const badRequest = ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid input.' });
const DESCRIPTION =
  'Resolves a URL of a published site to its site, section, site space, space and page path, ' +
  'with a site token (`apiToken`) to read that content with. No token needed: visibility ' +
  'decides (`public`, `unlisted`; `share-link` with an active key as the path segment after ' +
  "the site's path; `visitor-auth` with a visitor token, else an external redirect to the " +
  "site's login URL). Adaptive content: sections and site spaces whose condition the " +
  "visitor's claims do not meet do not exist for this visitor.";

/** The published-content lookup, which a site renderer makes for every page view. */
@ApiExtraModels(PublishedSiteContentResponse, PublishedContentRedirectResponse)
@Controller('urls/published')
export class PublishedLookupController {
  constructor(private readonly lookup: PublishedLookupService) {}

  @Post()
  @HttpCode(200)
  @Access.public()
  @ApiOperation({
    operationId: 'resolvePublishedContentByUrl',
    summary: 'Resolve a URL of a published site',
    description: DESCRIPTION,
  })
  @answer
  @badRequest
  @unauthorized
  @notFound
  resolve(
    @Body() body: ResolvePublishedContentDto,
  ): Promise<PublishedSiteContent | PublishedContentRedirect> {
    return this.lookup.resolve(body);
  }

  @Get()
  @Access.public()
  @ApiOperation({
    operationId: 'getPublishedContentByUrl',
    summary: 'Resolve a URL of a published site (query form)',
    description: DESCRIPTION,
  })
  @answer
  @badRequest
  @unauthorized
  @notFound
  get(
    @Query() query: GetPublishedContentQueryDto,
  ): Promise<PublishedSiteContent | PublishedContentRedirect> {
    return this.lookup.resolve({
      url: query.url,
      redirectOnError: query.redirectOnError,
      ...(query.visitorAuthToken ? { visitor: { jwtToken: query.visitorAuthToken } } : {}),
    });
  }
}
