import { Controller, Get, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
} from '@nestjs/swagger';
import { Access, CurrentUser } from '../platform/auth/access.decorator';
import type { UserActor } from '../platform/auth/actor';
import { ErrorBody } from '../platform/errors/error-body';
import { ContentByUrlService } from './content-by-url.service';
import { ContentByUrlQueryDto, ContentByUrlResponse } from './dto/content-by-url.dto';

@Controller('urls')
export class ContentByUrlController {
  constructor(private readonly content: ContentByUrlService) {}

  @Get('content')
  @Access.user()
  @ApiOperation({
    operationId: 'getContentByUrl',
    summary: 'Resolve a URL to a content (space, collection, page)',
    description:
      'What a URL of Bindery names, as the caller sees it: an app URL (APP_URL, as `urls.app` ' +
      'gives them) of a collection (`{collection}`), a space (`{space}`), a change request ' +
      '(`{space, changeRequest}`) or a revision, then a page path (`page`, at that content); ' +
      "or a published site's URL (the space it shows there and the page at its path, as the " +
      'published lookup opens it to a visitor). 404 when it names nothing the caller may see. ' +
      'Tokens limited to an organization, a space or a site may not call it (403).',
  })
  @ApiOkResponse({ type: ContentByUrlResponse })
  @ApiBadRequestResponse({ type: ErrorBody, description: 'Not an absolute http(s) URL.' })
  @ApiNotFoundResponse({
    type: ErrorBody,
    description: 'The URL names no content, or none the caller may see.',
  })
  get(
    @CurrentUser() user: UserActor,
    @Query() query: ContentByUrlQueryDto,
  ): Promise<ContentByUrlResponse> {
    return this.content.resolve(user.userId, query.url);
  }
}
