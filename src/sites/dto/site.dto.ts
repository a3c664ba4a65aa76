import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  ValidateBy,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { PresentNotNull } from '../../platform/validation/present-not-null';
import { QueryList } from '../../platform/validation/query-list';
import { PageQueryDto } from '../../platform/pagination/page-query.dto';
import { Chars, MaxChars } from '../../platform/validation/chars';
import {
  SITE_AGENTS_CONTEXTS,
  SITE_TYPES,
  SITE_VISIBILITIES,
  type SiteAgentsContext,
  type SiteIcon,
  type SiteType,
  type SiteVisibility,
} from '../entities/site.entity';

/**
 * GitBook's `SiteHostname`: at least three dot-separated labels of lower-case letters, digits
 * and inner hyphens, each at most 63 characters.
 */
export const SITE_HOSTNAME_PATTERN =
  /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?[.]){2,}[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$/;

/** GitBook's `SiteProxyOrigin`: a domain and one or more path segments, no scheme. */
export const SITE_PROXY_PATTERN = /^([\w-]+\.)*[\w-]+\.[a-zA-Z]{2,}(\/[\w-]+)+$/;

const toBoolean = ({ value }: { value: unknown }) =>
  value === 'true' ? true : value === 'false' ? false : value;

/** `listSites`: paging plus GitBook's filters. */
export class ListSitesQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ description: 'Only the sites that publish this space.' })
  @IsOptional()
  @IsString()
  @Chars(1, 64)
  space?: string;

  @ApiPropertyOptional({
    description: 'Only the sites whose title contains this text (case-insensitive).',
  })
  @IsOptional()
  @IsString()
  @Chars(1, 128)
  title?: string;

  @ApiPropertyOptional({ type: Boolean, description: 'Only published (or unpublished) sites.' })
  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean()
  published?: boolean;

  @ApiPropertyOptional({
    enum: SITE_TYPES,
    isArray: true,
    description: 'Only sites of these types (repeat the key for several).',
  })
  @QueryList()
  @IsIn(SITE_TYPES, { each: true })
  type?: SiteType[];
}

/** GitBook's `createSite` body. */
export class CreateSiteDto {
  @ApiPropertyOptional({ enum: SITE_TYPES, default: 'basic' })
  @IsOptional()
  @IsIn(SITE_TYPES)
  type?: SiteType;

  @ApiPropertyOptional({ minLength: 2, maxLength: 128, default: 'Untitled site' })
  @IsOptional()
  @IsString()
  @Chars(2, 128)
  title?: string;

  @ApiPropertyOptional({ enum: SITE_VISIBILITIES, default: 'public' })
  @IsOptional()
  @IsIn(SITE_VISIBILITIES)
  visibility?: SiteVisibility;

  @ApiPropertyOptional({
    type: [String],
    description:
      'IDs of spaces of the organization to publish: one site space each, in this order, the ' +
      'first one the default.',
  })
  @PresentNotNull()
  @IsArray()
  @ArrayMaxSize(100)
  @ArrayUnique()
  @IsString({ each: true })
  @Chars(1, 32, { each: true })
  spaces?: string[];
}

/** GitBook's `SiteAdaptiveContent`. */
export class SiteAdaptiveContentDto {
  @ApiProperty({ description: 'Whether adaptive content is enabled on the site.' })
  @IsBoolean()
  enabled!: boolean;
}

/** `null`, `{}`, `{emoji}` or `{icon: {light, dark}}` (GitBook's `CustomizationFavicon`). */
export function siteIconProblem(value: unknown): string | null {
  if (value === null) return null;
  if (typeof value !== 'object' || Array.isArray(value)) return 'icon must be an object or null';
  const icon = value as Record<string, unknown>;
  const keys = Object.keys(icon);
  if (keys.length === 0) return null;
  if (keys.length === 1 && keys[0] === 'emoji') {
    return typeof icon.emoji === 'string' && icon.emoji.length > 0 && [...icon.emoji].length <= 50
      ? null
      : 'icon.emoji must be an emoji of at most 50 characters';
  }
  if (keys.length === 1 && keys[0] === 'icon') {
    const themed = icon.icon as Record<string, unknown> | null;
    const isUrl = (url: unknown) =>
      typeof url === 'string' && url.length <= 2048 && /^https?:\/\/\S+$/.test(url);
    return typeof themed === 'object' &&
      themed !== null &&
      Object.keys(themed).every((key) => key === 'light' || key === 'dark') &&
      isUrl(themed.light) &&
      isUrl(themed.dark)
      ? null
      : 'icon.icon must be {light, dark} with two http(s) URLs';
  }
  return 'icon must be {}, {emoji} or {icon: {light, dark}}';
}

function IsSiteIcon(): PropertyDecorator {
  return ValidateBy({
    name: 'isSiteIcon',
    validator: {
      validate: (value: unknown) => siteIconProblem(value) === null,
      defaultMessage: (args) => siteIconProblem(args?.value) ?? 'icon is invalid',
    },
  });
}

/** GitBook's `updateSiteById` body, plus `hostname` and `icon`; absent fields are unchanged. */
export class UpdateSiteDto {
  @ApiPropertyOptional({ minLength: 2, maxLength: 128 })
  @PresentNotNull()
  @IsString()
  @Chars(2, 128)
  title?: string;

  @ApiPropertyOptional({ enum: SITE_VISIBILITIES })
  @PresentNotNull()
  @IsIn(SITE_VISIBILITIES)
  visibility?: SiteVisibility;

  @ApiPropertyOptional({ minLength: 1, maxLength: 100, description: 'For example `api`.' })
  @PresentNotNull()
  @IsString()
  @Chars(1, 100)
  @Matches(/^[^/?#\s]+$/, { message: 'basename cannot contain "/", "?", "#" or spaces' })
  basename?: string;

  @ApiPropertyOptional({ type: SiteAdaptiveContentDto })
  @PresentNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => SiteAdaptiveContentDto)
  adaptiveContent?: SiteAdaptiveContentDto;

  @ApiPropertyOptional({ enum: SITE_AGENTS_CONTEXTS })
  @PresentNotNull()
  @IsIn(SITE_AGENTS_CONTEXTS)
  agentsContext?: SiteAgentsContext;

  @ApiPropertyOptional({
    description:
      'ID of the site space to use as the default at the root level, or within the default ' +
      'section when the site has sections.',
  })
  @PresentNotNull()
  @IsString()
  @Chars(1, 32)
  defaultSiteSpace?: string;

  @ApiPropertyOptional({ description: 'ID of the section to use as the default.' })
  @PresentNotNull()
  @IsString()
  @Chars(1, 32)
  defaultSiteSection?: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: 512,
    description:
      'Host the site under a sub-path of a domain: `company.com/docs` (domain and one or more ' +
      'path segments, no scheme). null removes the proxy.',
  })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsString()
  @MaxChars(512)
  @Matches(SITE_PROXY_PATTERN, {
    message: 'proxy must be a domain followed by one or more path segments, like company.com/docs',
  })
  proxy?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: 512,
    description:
      'Custom hostname, for example `docs.company.com`: at least three labels of lower-case ' +
      'letters, digits and inner hyphens, each at most 63 characters. null removes it.',
  })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsString()
  @MaxChars(512)
  @Matches(SITE_HOSTNAME_PATTERN, {
    message:
      'hostname must have at least three dot-separated labels of lower-case letters, digits and inner hyphens, each at most 63 characters',
  })
  hostname?: string | null;

  @ApiPropertyOptional({
    nullable: true,
    description: '`{}`, `{emoji}` or `{icon: {light, dark}}` (URLs); null removes it.',
  })
  @IsOptional()
  @IsSiteIcon()
  icon?: SiteIcon | null;
}
