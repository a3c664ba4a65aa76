import { PresentNotNull } from '../../platform/validation/present-not-null';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsISO8601,
  IsOptional,
  IsString,
  MaxLength,
} from 'class-validator';
import { Chars } from '../../platform/validation/chars';
import { IgnoreUnknownProperties } from '../../platform/validation/validation.pipe';
import { AskInSiteQueryDto } from './ask-in-site.dto';

const trimmed = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.trim() : value;

/** GitBook's `SearchAIQuery`: the body of `askInOrganization`. */
@IgnoreUnknownProperties()
export class AskInOrganizationDto {
  @ApiProperty({ minLength: 1, maxLength: 512, description: 'The question, in any language.' })
  @Transform(trimmed)
  @IsString()
  @Chars(1, 512)
  query!: string;

  @ApiPropertyOptional({
    type: [String],
    maxItems: 10,
    deprecated: true,
    description: 'Accepted and not used (GitBook deprecated it): each question stands alone.',
  })
  @PresentNotNull()
  @IsArray()
  @ArrayMaxSize(10)
  @IsString({ each: true })
  @MaxLength(512, { each: true })
  previousQueries?: string[];
}

/** `format` and `details`, the query of both organization asks. */
export class AskInOrganizationQueryDto extends AskInSiteQueryDto {
  @ApiPropertyOptional({
    enum: ['true', 'false'],
    description: 'Accepted; the answer has no query details.',
  })
  @IsOptional()
  @IsIn(['true', 'false'])
  details?: string;
}

/** The query of `streamAskInOrganization`: the question, with `format` and `details`. */
export class StreamAskInOrganizationQueryDto extends AskInOrganizationQueryDto {
  @ApiProperty({ minLength: 1, maxLength: 512, description: 'The question, in any language.' })
  @Transform(trimmed)
  @IsString()
  @Chars(1, 512)
  query!: string;
}

export const AI_USAGE_INTERVALS = ['day', 'week', 'month', 'year'] as const;
export type AiUsageInterval = (typeof AI_USAGE_INTERVALS)[number];

/** The query of `getOrganizationAIUsage`. */
export class OrganizationAIUsageQueryDto {
  @ApiProperty({
    format: 'date-time',
    description: 'Inclusive start; at most two years ago.',
  })
  @IsISO8601({ strict: true })
  from!: string;

  @ApiProperty({ format: 'date-time', description: 'Exclusive end; after `from`.' })
  @IsISO8601({ strict: true })
  to!: string;

  @ApiPropertyOptional({
    enum: AI_USAGE_INTERVALS,
    default: 'day',
    description: 'UTC calendar buckets (weeks start on Monday).',
  })
  @IsOptional()
  @IsIn(AI_USAGE_INTERVALS)
  interval?: AiUsageInterval;
}
