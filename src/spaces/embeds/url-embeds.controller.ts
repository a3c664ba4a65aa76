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

/** `getEmbedByUrl`: getEmbedByUrlInSpace without a space, for any signed-in user. */
@Controller('urls')
export class UrlEmbedsController {
  constructor(private readonly embeds: EmbedsService) {}

  @Get('embed')
  @Access.user({ limitedTokens: true })
  @ApiOperation({
    operationId: 'getEmbedByUrl',
    summary: 'Resolve a URL to an embed',
    description:
      'A link card for an external page, as getEmbedByUrlInSpace answers it but outside any ' +
      'space: its title, site name and icon, read from its head (OpenGraph, Twitter, <title>, ' +
      'icons). Always `type: "link"`: no HTML of another site is passed on. The page is fetched ' +
      'under the outbound policy (public addresses only unless OUTBOUND_ALLOW_PRIVATE, bounded ' +
      `time and size) and the answer kept for ${EMBED_TTL_MS / 3_600_000} hours. Any signed-in ` +
      'user may call it (a token limited to an organization too: it reads nothing of the ' +
      'instance). 404 when the page cannot be fetched.',
  })
  @ApiOkResponse({ type: EmbedResponse })
  @ApiBadRequestResponse({ type: ErrorBody, description: 'Not an http or https URL.' })
  @ApiNotFoundResponse({ type: ErrorBody, description: 'A page that could not be fetched.' })
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
