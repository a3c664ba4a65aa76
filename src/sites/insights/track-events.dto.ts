import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsObject,
  IsOptional,
  IsRFC3339,
  IsString,
  ValidateNested,
} from 'class-validator';
import { MaxChars } from '../../platform/validation/chars';
import { DiscriminatedType } from '../../platform/validation/discriminated-type';
import { IgnoreUnknownProperties } from '../../platform/validation/validation.pipe';

/** GitBook's `SiteInsightsEventType` (0.201.0). */
export const SITE_INSIGHTS_EVENT_TYPES = [
  'page_view',
  'page_markdown_request',
  'search_open',
  'search_type_query',
  'search_open_result',
  'page_post_feedback',
  'page_post_feedback_comment',
  'agent_feedback',
  'ask_question',
  'ask_view',
  'ask_rate_response',
  'link_click',
  'api_client_open',
  'api_client_request',
  'ad_click',
  'ad_display',
  'trademark_click',
  'llms_request',
  'mcp_request',
  'rss_request',
] as const;
export type SiteInsightsEventType = (typeof SITE_INSIGHTS_EVENT_TYPES)[number];

/** GitBook's `PageFeedbackRating`. */
export const PAGE_FEEDBACK_RATINGS = ['bad', 'ok', 'good'] as const;
export type PageFeedbackRating = (typeof PAGE_FEEDBACK_RATINGS)[number];

/** Events in one request at most: the route is open to anyone, so a batch stays small. */
export const MAX_EVENTS_PER_REQUEST = 100;

/** Ids longer than this name nothing Bindery has. */
const MAX_ID = 64;

/** Where an event happened; only the site space and page are kept (the space is the site space's). */
export class SiteInsightsLocationDto {
  @ApiProperty({ format: 'uri', maxLength: 2048, description: 'Checked, not kept.' })
  @IsString()
  @MaxChars(2048)
  url!: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: MAX_ID })
  @IsOptional()
  @IsString()
  @MaxChars(MAX_ID)
  siteSpace?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: MAX_ID,
    description: 'Not kept: the space is the site space’s.',
  })
  @IsOptional()
  @IsString()
  @MaxChars(MAX_ID)
  space?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: MAX_ID })
  @IsOptional()
  @IsString()
  @MaxChars(MAX_ID)
  page?: string | null;
}

/** An event of a known type: what every `SiteInsightsEvent` has and Bindery reads. */
export class SiteInsightsEventDto {
  @ApiProperty({ enum: SITE_INSIGHTS_EVENT_TYPES })
  @IsIn(SITE_INSIGHTS_EVENT_TYPES)
  type!: SiteInsightsEventType;

  @ApiProperty({ type: SiteInsightsLocationDto })
  @IsObject()
  @ValidateNested()
  @Type(() => SiteInsightsLocationDto)
  location!: SiteInsightsLocationDto;

  @ApiPropertyOptional({
    format: 'date-time',
    description: 'When it happened; now when absent. Ignored if over a day old or in the future.',
  })
  @IsOptional()
  @IsRFC3339()
  timestamp?: string;
}

export class PageFeedbackDto {
  @ApiProperty({ enum: PAGE_FEEDBACK_RATINGS })
  @IsIn(PAGE_FEEDBACK_RATINGS)
  rating!: PageFeedbackRating;
}

/** `page_post_feedback` and `page_post_feedback_comment`: the rating counts, the comment is dropped. */
export class SiteInsightsPageFeedbackEventDto extends SiteInsightsEventDto {
  @ApiProperty({ type: PageFeedbackDto })
  @IsObject()
  @ValidateNested()
  @Type(() => PageFeedbackDto)
  feedback!: PageFeedbackDto;
}

/**
 * `ask_rate_response`: the rating counts, and rates the site's recorded answer `responseId`
 * (the assistant's response id); the question is dropped.
 */
export class SiteInsightsAskRateEventDto extends SiteInsightsEventDto {
  @ApiProperty({ enum: [1, -1] })
  @IsIn([1, -1])
  rating!: 1 | -1;

  @ApiPropertyOptional({
    maxLength: MAX_ID,
    description: 'The rated response (`response_finish`’s `response.id`); empty: none named.',
  })
  @IsOptional()
  @IsString()
  @MaxChars(MAX_ID)
  responseId?: string;
}

/** An event of a type GitBook added after 0.201.0: accepted and ignored. */
export class UnknownSiteInsightsEventDto {
  @IsString()
  type!: string;
}

export type SiteInsightsEvent =
  | SiteInsightsEventDto
  | SiteInsightsPageFeedbackEventDto
  | SiteInsightsAskRateEventDto
  | UnknownSiteInsightsEventDto;

const EVENT_CLASSES: Record<string, new () => object> = Object.fromEntries(
  SITE_INSIGHTS_EVENT_TYPES.map((type) => [type, SiteInsightsEventDto]),
);
EVENT_CLASSES.page_post_feedback = SiteInsightsPageFeedbackEventDto;
EVENT_CLASSES.page_post_feedback_comment = SiteInsightsPageFeedbackEventDto;
EVENT_CLASSES.ask_rate_response = SiteInsightsAskRateEventDto;

/**
 * `trackEventsInSiteById` body. Whatever an event carries beyond its type, location (site space
 * and page), time and rating (the session with its visitor and session ids, address, user
 * agent, cookies and claims; the URL kept aside; queries, comments, links) is dropped unread.
 */
@IgnoreUnknownProperties()
@ApiExtraModels(SiteInsightsEventDto, SiteInsightsPageFeedbackEventDto, SiteInsightsAskRateEventDto)
export class TrackSiteInsightsEventsDto {
  @ApiProperty({
    type: 'array',
    maxItems: MAX_EVENTS_PER_REQUEST,
    items: {
      oneOf: [
        { $ref: getSchemaPath(SiteInsightsEventDto) },
        { $ref: getSchemaPath(SiteInsightsPageFeedbackEventDto) },
        { $ref: getSchemaPath(SiteInsightsAskRateEventDto) },
      ],
    },
    description:
      "GitBook's `SiteInsightsEvent`s. Events of a type not listed are ignored; other fields " +
      'are dropped.',
  })
  @IsArray()
  @ArrayMaxSize(MAX_EVENTS_PER_REQUEST)
  @ValidateNested({ each: true })
  @DiscriminatedType('type', EVENT_CLASSES, UnknownSiteInsightsEventDto)
  events!: SiteInsightsEvent[];
}
