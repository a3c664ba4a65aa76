import { Controller, Get, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
} from '@nestjs/swagger';
import { Access } from '../../platform/auth/access.decorator';
import { invalidInput } from '../../platform/errors/domain-error';
import { ErrorBody } from '../../platform/errors/error-body';
import { EmbedQueryDto, EmbedResponse } from './dto/embed.dto';
import { EMBED_TTL_MS, EmbedsService } from './embeds.service';

@Controller('spaces/:spaceId')
export class EmbedsController {
  constructor(private readonly embeds: EmbedsService) {}

  @Get('embed')
  @Access('space', 'view', { siteReaders: true })
  @ApiOperation({
    operationId: 'getEmbedByUrlInSpace',
    summary: 'Resolve a URL to an embed within a space',
    description:
      'A link card for an external page: its title, site name and icon, read from its head ' +
      '(OpenGraph, Twitter, <title>, icons). Always `type: "link"`: no HTML of another site is ' +
      'passed on. The page is fetched under the outbound policy (OUTBOUND_ALLOW_PRIVATE) and the ' +
      `answer kept for ${EMBED_TTL_MS / 3_600_000} hours. 404 when the page cannot be fetched.`,
  })
  @ApiOkResponse({ type: EmbedResponse })
  @ApiBadRequestResponse({ type: ErrorBody, description: 'Not an http or https URL.' })
  @ApiNotFoundResponse({
    type: ErrorBody,
    description: 'No such space, not visible to the caller, or a page that could not be fetched.',
  })
  getEmbedByUrl(@Query() query: EmbedQueryDto): Promise<EmbedResponse> {
    let url: URL;
    try {
      url = new URL(query.url);
    } catch {
      throw invalidInput('url must be an http or https URL');
    }
    return this.embeds.byUrl(url);
  }
}
