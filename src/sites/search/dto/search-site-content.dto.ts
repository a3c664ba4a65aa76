import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { PageQueryDto } from '../../../platform/pagination/page-query.dto';
import { Chars, MaxChars } from '../../../platform/validation/chars';
import { PresentNotNull } from '../../../platform/validation/present-not-null';
import { IgnoreUnknownProperties } from '../../../platform/validation/validation.pipe';

/** More site spaces than any site holds: a longer list is not a search anyone makes. */
const MAX_SITE_SPACE_IDS = 1000;
/** Longer than any id: a longer one names nothing. */
const MAX_ID_CHARS = 64;

export const SCOPE_MODES = ['default', 'specific', 'all'] as const;
export const RESTRICT_TO = ['currentSiteSpace', 'otherSiteSpaces'] as const;
export const DEPRECATED_MODES = ['current', 'all', 'specific'] as const;

/** GitBook's `SiteSearchScope`. */
export class SiteSearchScopeDto {
  @ApiProperty({
    enum: SCOPE_MODES,
    description:
      '`default`: each section’s default site space (or, for `currentSiteSpace`’s section, that ' +
      'one; elsewhere the variant in its space’s language when there is one); `specific`: ' +
      '`siteSpaceIds`; `all`: every site space.',
  })
  @IsIn(SCOPE_MODES)
  mode!: (typeof SCOPE_MODES)[number];

  @ApiPropertyOptional({
    description: 'With `default`: the site space the search is made from, always searched.',
  })
  @IsOptional()
  @IsString()
  @MaxChars(MAX_ID_CHARS)
  currentSiteSpace?: string;

  @ApiPropertyOptional({
    enum: RESTRICT_TO,
    description:
      'With `default` and `currentSiteSpace`: search only the current site space, or only the ' +
      'others of the default scope.',
  })
  @IsOptional()
  @IsIn(RESTRICT_TO)
  restrictTo?: (typeof RESTRICT_TO)[number];

  @ApiPropertyOptional({ type: [String], minItems: 1, description: 'With `specific`.' })
  @ValidateIf(
    (scope: SiteSearchScopeDto) => scope.mode === 'specific' || scope.siteSpaceIds !== undefined,
  )
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_SITE_SPACE_IDS)
  @IsString({ each: true })
  @MaxChars(MAX_ID_CHARS, { each: true })
  siteSpaceIds?: string[];
}

/**
 * GitBook's `searchSiteContent` body: `query` with `scope`, or with the deprecated top-level
 * `mode` (`current` with `siteSpaceId`, `all`, or `specific` with `siteSpaceIds`, whose `mode`
 * may be left out). Other fields are ignored, as the operation's schema allows them.
 */
@IgnoreUnknownProperties()
export class SearchSiteContentDto {
  @ApiProperty({
    minLength: 1,
    maxLength: 512,
    description:
      'The text to search for. Words match whole words, folded (case, accents, ß = ss) and ' +
      'stemmed in the language of each space; Chinese, Japanese, Korean and Thai are matched ' +
      'inside sentences. The last word also matches as a prefix. When the words find fewer ' +
      'than 3 pages, words within one or two typos of them are searched too, their hits ' +
      'ranked below the exact ones. Section bodies are the passage around the hit, unmarked.',
  })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  @IsString()
  @Chars(1, 512)
  query!: string;

  @ApiPropertyOptional({ type: SiteSearchScopeDto, description: 'What to search.' })
  @PresentNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => SiteSearchScopeDto)
  scope?: SiteSearchScopeDto;

  @ApiPropertyOptional({
    enum: DEPRECATED_MODES,
    deprecated: true,
    description:
      'Deprecated, use `scope`. `current`: `siteSpaceId` and each other section’s default ' +
      '(`scope.mode` `default`); `all`; `specific`: `siteSpaceIds`.',
  })
  @IsOptional()
  @IsIn(DEPRECATED_MODES)
  mode?: (typeof DEPRECATED_MODES)[number];

  @ApiPropertyOptional({ deprecated: true, description: 'With `mode` `current`.' })
  @ValidateIf(
    (body: SearchSiteContentDto) => body.mode === 'current' || body.siteSpaceId !== undefined,
  )
  @IsString()
  @MaxChars(MAX_ID_CHARS)
  siteSpaceId?: string;

  @ApiPropertyOptional({
    type: [String],
    minItems: 1,
    deprecated: true,
    description: 'With `mode` `specific`, or alone.',
  })
  @ValidateIf(
    (body: SearchSiteContentDto) => body.mode === 'specific' || body.siteSpaceIds !== undefined,
  )
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_SITE_SPACE_IDS)
  @IsString({ each: true })
  @MaxChars(MAX_ID_CHARS, { each: true })
  siteSpaceIds?: string[];
}

/** `page` and `limit` of `searchSiteContent`, over the spaces found. */
export class SearchSiteContentQueryDto extends PageQueryDto {}
