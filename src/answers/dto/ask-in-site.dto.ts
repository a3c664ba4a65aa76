import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsIn, IsObject, IsOptional, IsString, ValidateNested } from 'class-validator';
import { SiteSearchScopeDto } from '../../sites/search/dto/search-site-content.dto';
import { Chars, MaxChars } from '../../platform/validation/chars';
import { PresentNotNull } from '../../platform/validation/present-not-null';
import { IgnoreUnknownProperties } from '../../platform/validation/validation.pipe';

/** Longer than any id: a longer one names nothing. */
const MAX_ID_CHARS = 64;

const trimmed = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.trim() : value;

/** GitBook's context of a question: where it is asked from, and the asker's goal. */
@IgnoreUnknownProperties()
export class AskContextDto {
  @ApiPropertyOptional({
    description: 'The site space the question is asked from (its customization decides `ai.mode`).',
  })
  @IsOptional()
  @IsString()
  @MaxChars(MAX_ID_CHARS)
  siteSpaceId?: string;

  @ApiPropertyOptional({
    maxLength: 1024,
    description:
      'What the asker (an agent, say) is trying to do: given to the model with the question.',
  })
  @IsOptional()
  @Transform(trimmed)
  @IsString()
  @MaxChars(1024)
  goal?: string;
}

/** GitBook's `SiteInsightsSession`: the visitor's anonymous ids, kept with the answer recorded. */
@IgnoreUnknownProperties()
export class AskSessionDto {
  @ApiProperty() @IsString() @MaxChars(256) visitorId!: string;
  @ApiProperty() @IsString() @MaxChars(256) sessionId!: string;
}

/** The body of `streamAskInSite`. */
@IgnoreUnknownProperties()
export class AskInSiteDto {
  @ApiProperty({ minLength: 1, maxLength: 512, description: 'The question, in any language.' })
  @Transform(trimmed)
  @IsString()
  @Chars(1, 512)
  question!: string;

  @ApiPropertyOptional({ type: AskContextDto })
  @PresentNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => AskContextDto)
  context?: AskContextDto;

  @ApiProperty({
    type: SiteSearchScopeDto,
    description:
      'What the answer draws from: the site spaces, as `searchSiteContent` searches them.',
  })
  @IsObject()
  @ValidateNested()
  @Type(() => SiteSearchScopeDto)
  scope!: SiteSearchScopeDto;

  @ApiPropertyOptional({
    type: AskSessionDto,
    description: 'The visitor’s anonymous ids, kept with the answer recorded (site questions).',
  })
  @PresentNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => AskSessionDto)
  session?: AskSessionDto;
}

export const ANSWER_FORMATS = ['document', 'markdown'] as const;
export type AnswerFormat = (typeof ANSWER_FORMATS)[number];

export class AskInSiteQueryDto {
  @ApiPropertyOptional({
    enum: ANSWER_FORMATS,
    description: 'How the answer is written: a JSON document (the default) or Markdown.',
  })
  @IsOptional()
  @IsIn(ANSWER_FORMATS)
  format?: AnswerFormat;
}

export class RecommendedQuestionsQueryDto {
  @ApiPropertyOptional({ description: 'Questions about this site space only.' })
  @IsOptional()
  @IsString()
  @MaxChars(MAX_ID_CHARS)
  siteSpaceId?: string;

  @ApiPropertyOptional({
    deprecated: true,
    description: 'Questions about the site space of this space only (use `siteSpaceId`).',
  })
  @IsOptional()
  @IsString()
  @MaxChars(MAX_ID_CHARS)
  spaceId?: string;
}
