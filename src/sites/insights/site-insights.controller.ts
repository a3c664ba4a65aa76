import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import { Access, Granted } from '../../platform/auth/access.decorator';
import { ErrorBody } from '../../platform/errors/error-body';
import { SITE_READ } from '../site-access';
import type { SiteAccess } from '../site-access.policy';
import { AggregateSiteEventsDto, SiteInsightsAggregationResponse } from './aggregate-events.dto';
import { SiteInsightsService } from './site-insights.service';
import { MAX_EVENTS_PER_REQUEST, TrackSiteInsightsEventsDto } from './track-events.dto';

const badRequest = ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid input.' });

/**
 * A site's insights. GitBook's renderer sends events without a token, so tracking is public
 * (the rate limit keys it by client address); reading them takes a member who reads the site.
 */
@Controller('orgs/:organizationId/sites/:siteId/insights/events')
export class SiteInsightsController {
  constructor(private readonly insights: SiteInsightsService) {}

  @Post()
  @HttpCode(204)
  @Access.public()
  @ApiOperation({
    operationId: 'trackEventsInSiteById',
    summary: 'Track site events',
    description:
      `No token needed; for a published site only. At most ${MAX_EVENTS_PER_REQUEST} events. ` +
      'Bindery keeps only daily counts per event type, site space, page and feedback rating: ' +
      'IP addresses, user agents, visitor and session ids, cookies, claims, languages, ' +
      'referrers, URLs, search queries, questions and feedback comments are dropped, never ' +
      'stored. Events of an unknown type, over a day old or more than five minutes ahead are ' +
      'ignored.',
  })
  @ApiNoContentResponse({ description: 'Events have been tracked.' })
  @ApiNotFoundResponse({
    type: ErrorBody,
    description: 'No such published site in the organization.',
  })
  @ApiTooManyRequestsResponse({
    type: ErrorBody,
    description: 'Rate limit exceeded (without a token, per client address).',
  })
  @badRequest
  async track(
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Body() body: TrackSiteInsightsEventsDto,
  ): Promise<void> {
    await this.insights.track(organizationId, siteId, body.events);
  }

  @Post('aggregate')
  @HttpCode(200)
  @Access('site', SITE_READ, { reads: true })
  @ApiOperation({
    operationId: 'aggregateSiteEvents',
    summary: "Query a site's analytics events",
    description:
      'Sums of the daily counters over the range (whole UTC days), one value per group in ' +
      'each column: the grouping columns `select` does not name, then `select`’s. Supported: ' +
      '`eventsCount`, `pageFeedbackRating` (of `page_post_feedback` events) and ' +
      '`askResponseRating`; grouped by `datetime` (`day`, `week`, `month`), `dayOfWeek`, ' +
      '`eventType`, `siteSpace`, `page`; filtered with `in`/`notIn` on `eventType`, ' +
      '`siteSpace`, `page`. Anything else (visitors, sessions, URLs, hours, …) is a 400: ' +
      'Bindery does not keep it.',
  })
  @ApiOkResponse({ type: SiteInsightsAggregationResponse })
  @badRequest
  async aggregate(
    @Granted() access: SiteAccess,
    @Body() body: AggregateSiteEventsDto,
  ): Promise<SiteInsightsAggregationResponse> {
    return this.insights.aggregate(access.entity.site, body);
  }
}
