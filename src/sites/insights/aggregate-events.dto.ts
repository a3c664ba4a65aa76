import { PresentNotNull } from '../../platform/validation/present-not-null';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateBy,
  ValidateNested,
} from 'class-validator';

/** Every column of GitBook's `SiteInsightsQueryEventsColumn` (0.201.0). */
export const SITE_INSIGHTS_COLUMNS = [
  'datetime',
  'dayOfWeek',
  'hourOfDay',
  'url',
  'urlPath',
  'eventType',
  'eventsCount',
  'sessionsCount',
  'visitorsCount',
  'siteSection',
  'siteSpace',
  'siteShareKey',
  'displayContext',
  'page',
  'visitorGeoCountry',
  'visitorGeoPoint',
  'visitorDevice',
  'visitorBrowser',
  'visitorOS',
  'visitorBot',
  'visitorLanguage',
  'eventLinkTargetValue',
  'eventLinkTargetKind',
  'eventLinkTargetDomain',
  'eventLinkPosition',
  'eventAPIOperationPath',
  'eventAPIOperationMethod',
  'eventLLMSVariant',
  'eventPageNotFoundType',
  'eventMarkdownSource',
  'eventSearchQuery',
  'eventSearchResultRecordId',
  'eventPageFeedbackRating',
  'eventPageFeedbackComment',
  'eventAskResponseRating',
  'pageFeedbackRating',
  'askResponseRating',
  'referrer',
  'referrerDomain',
  'utmSource',
  'utmMedium',
  'utmCampaign',
  'utmTerm',
  'utmContent',
  'visitorAuthenticated',
  'visitorClaimProperty',
  'visitorClaim',
  'eventAdDomain',
  'eventAdPlacement',
  'eventTrademarkPlacement',
] as const;
export type SiteInsightsColumnName = (typeof SITE_INSIGHTS_COLUMNS)[number];

export const DATETIME_INTERVALS = ['hour', 'day', 'week', 'month'] as const;
export const QUERY_OPERATORS = [
  'in',
  'notIn',
  'greaterThan',
  'greaterThanOrEqual',
  'lessThan',
  'lessThanOrEqual',
] as const;
export const RANGE_PRESETS = [
  'lastYear',
  'last3Months',
  'last30Days',
  'last7Days',
  'last24Hours',
] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];

const DESCRIPTION =
  'Bindery keeps daily counters: it answers `eventsCount`, `pageFeedbackRating` and ' +
  '`askResponseRating`, grouped by `datetime` (interval `day`, `week` or `month`), ' +
  '`dayOfWeek`, `eventType`, `siteSpace` and `page`, filtered (`in`, `notIn`) on `eventType`, ' +
  '`siteSpace` and `page`; any other column is refused (400).';

/** GitBook's `SiteInsightsQueryEventsColumn`. */
export class SiteInsightsColumnDto {
  @ApiProperty({ enum: SITE_INSIGHTS_COLUMNS })
  @IsIn(SITE_INSIGHTS_COLUMNS)
  column!: SiteInsightsColumnName;

  @ApiPropertyOptional({
    enum: DATETIME_INTERVALS,
    description: 'For `datetime`; `day` if absent.',
  })
  @IsOptional()
  @IsIn(DATETIME_INTERVALS)
  interval?: (typeof DATETIME_INTERVALS)[number];

  @ApiPropertyOptional({ description: 'For `visitorClaim`.' })
  @IsOptional()
  @IsString()
  @MaxLength(256)
  claim?: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: 15,
    description: 'For `visitorGeoPoint`.',
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(15)
  precision?: number;
}

/** GitBook's `SiteInsightsQueryEventsFilter`. */
export class SiteInsightsFilterDto {
  @ApiProperty({ enum: SITE_INSIGHTS_COLUMNS })
  @IsIn(SITE_INSIGHTS_COLUMNS)
  column!: SiteInsightsColumnName;

  @ApiProperty({
    type: 'array',
    items: {},
    maxItems: 1000,
    description: 'As the column answers them (`page`: `{page, space}` or null).',
  })
  @IsArray()
  @ArrayMaxSize(1000)
  values!: unknown[];

  @ApiPropertyOptional({ enum: QUERY_OPERATORS, description: '`in` if absent.' })
  @IsOptional()
  @IsIn(QUERY_OPERATORS)
  operator?: (typeof QUERY_OPERATORS)[number];

  @ApiPropertyOptional({ description: 'For `visitorClaim`.' })
  @IsOptional()
  @IsString()
  @MaxLength(256)
  claim?: string;
}

export class SiteInsightsOrderDto {
  @ApiProperty({ type: SiteInsightsColumnDto })
  @IsObject()
  @ValidateNested()
  @Type(() => SiteInsightsColumnDto)
  by!: SiteInsightsColumnDto;

  @ApiProperty({ enum: ['asc', 'desc'] })
  @IsIn(['asc', 'desc'])
  direction!: 'asc' | 'desc';
}

/** GitBook's `SiteInsightsQueryRangeCustom`. */
export interface RangeCustom {
  from: string;
  to: string;
}

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;
const isDateTime = (value: unknown) =>
  typeof value === 'string' && ISO_DATE_TIME.test(value) && !Number.isNaN(Date.parse(value));

/** A preset, or `{from, to}` date-times. */
function IsInsightsRange(): PropertyDecorator {
  return ValidateBy({
    name: 'isInsightsRange',
    validator: {
      validate: (value: unknown) =>
        (typeof value === 'string' && (RANGE_PRESETS as readonly string[]).includes(value)) ||
        (typeof value === 'object' &&
          value !== null &&
          !Array.isArray(value) &&
          isDateTime((value as RangeCustom).from) &&
          isDateTime((value as RangeCustom).to)),
      defaultMessage: () =>
        `range must be one of ${RANGE_PRESETS.join(', ')}, or {from, to} with two date-times`,
    },
  });
}

/** `aggregateSiteEvents` body (GitBook's `SiteInsightsQueryEventsAggregation`). */
export class AggregateSiteEventsDto {
  @ApiPropertyOptional({
    type: [SiteInsightsColumnDto],
    maxItems: 20,
    description: '`[{column: "eventsCount"}]` if absent. ' + DESCRIPTION,
  })
  @PresentNotNull()
  @IsArray()
  @ArrayMaxSize(20)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => SiteInsightsColumnDto)
  select?: SiteInsightsColumnDto[];

  @ApiPropertyOptional({ type: [SiteInsightsFilterDto], maxItems: 20 })
  @PresentNotNull()
  @IsArray()
  @ArrayMaxSize(20)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => SiteInsightsFilterDto)
  where?: SiteInsightsFilterDto[];

  @ApiPropertyOptional({ type: [SiteInsightsColumnDto], maxItems: 20 })
  @PresentNotNull()
  @IsArray()
  @ArrayMaxSize(20)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => SiteInsightsColumnDto)
  groupBy?: SiteInsightsColumnDto[];

  @ApiPropertyOptional({
    type: SiteInsightsOrderDto,
    description: 'By a column of the answer; by the grouping columns, ascending, if absent.',
  })
  @PresentNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => SiteInsightsOrderDto)
  order?: SiteInsightsOrderDto;

  @ApiProperty({
    oneOf: [
      { type: 'string', enum: [...RANGE_PRESETS] },
      {
        type: 'object',
        properties: {
          from: { type: 'string', format: 'date-time' },
          to: { type: 'string', format: 'date-time' },
        },
        required: ['from', 'to'],
      },
    ],
    description: 'Counted in whole UTC days: the days of `from` and `to` are included.',
  })
  @IsInsightsRange()
  range!: RangePreset | RangeCustom;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 1000, default: 1000 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1000)
  limit?: number;
}

/** One column of the answer: GitBook's `SiteInsightsQueryEventsValues`. */
export class SiteInsightsColumnValuesResponse {
  @ApiProperty({ enum: SITE_INSIGHTS_COLUMNS }) column!: SiteInsightsColumnName;
  @ApiProperty({ type: 'array', items: {}, description: 'One per row of the answer.' })
  values!: unknown[];
}

/** GitBook's `SiteInsightsQueryEventsAggregationResult`. */
export class SiteInsightsAggregationResponse {
  @ApiProperty({ type: [SiteInsightsColumnValuesResponse] })
  columns!: SiteInsightsColumnValuesResponse[];
}
