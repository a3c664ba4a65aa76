import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsBoolean, IsIn, IsObject, IsOptional, IsString, ValidateNested } from 'class-validator';
import { IgnoreUnknownProperties } from '../../../platform/validation/validation.pipe';
import { MaxChars } from '../../../platform/validation/chars';
import { PresentNotNull } from '../../../platform/validation/present-not-null';

const toBoolean = ({ value }: { value: unknown }) =>
  value === 'true' ? true : value === 'false' ? false : value;

/** GitBook's `SiteVisitorPayload`. */
export class SiteVisitorPayloadDto {
  @ApiPropertyOptional({ enum: ['human', 'agent'], description: 'Defaults to human.' })
  @IsOptional()
  @IsIn(['human', 'agent'])
  type?: 'human' | 'agent';

  @ApiPropertyOptional({
    description:
      "The visitor's token (JWT, HS256): signed with the site's visitor key " +
      "(`getSitePublishingAuthById`), or a member's `docsVisitorClaims` for a site of their " +
      'organization. Its claims are the signed claims conditions read.',
  })
  @IsOptional()
  @IsString()
  @MaxChars(8192)
  jwtToken?: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description:
      'Claims the visitor sent unsigned (`visitor.claims.unsigned` in conditions); at most ' +
      '2,048 characters of JSON, and only those the adaptive schema declares are used.',
  })
  @PresentNotNull()
  @IsObject()
  unsignedClaims?: object;
}

/** GitBook's `resolvePublishedContentByUrl` body; other fields (such as `cacheBust`) are ignored. */
@IgnoreUnknownProperties()
export class ResolvePublishedContentDto {
  @ApiProperty({
    format: 'uri',
    description:
      "The URL to resolve: absolute, on a site's custom hostname, proxy origin, or under the " +
      "instance's sites URL. For a `share-link` site, the share key is the segment after the " +
      "site's own path.",
  })
  @IsString()
  @MaxChars(4096)
  url!: string;

  @ApiPropertyOptional({
    default: false,
    description:
      'When the visitor token of a `visitor-auth` site is invalid or expired: true answers ' +
      'the redirect to the login URL, false a 401.',
  })
  @IsOptional()
  @IsBoolean()
  redirectOnError?: boolean;

  @ApiPropertyOptional({ type: SiteVisitorPayloadDto })
  @PresentNotNull()
  @ValidateNested()
  @Type(() => SiteVisitorPayloadDto)
  visitor?: SiteVisitorPayloadDto;
}

/** GitBook's `getPublishedContentByUrl` query. */
export class GetPublishedContentQueryDto {
  @ApiProperty({ format: 'uri', description: 'The URL to resolve.' })
  @IsString()
  @MaxChars(4096)
  url!: string;

  @ApiPropertyOptional({ description: "The visitor's token (as `visitor.jwtToken`)." })
  @IsOptional()
  @IsString()
  @MaxChars(8192)
  visitorAuthToken?: string;

  @ApiPropertyOptional({ type: Boolean, default: false })
  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean()
  redirectOnError?: boolean;
}

/** GitBook's `PublishedSiteContent`. */
export class PublishedSiteContentResponse {
  @ApiProperty() site!: string;
  @ApiPropertyOptional({ description: 'Set on a site with sections.' }) siteSection?: string;
  @ApiProperty() siteSpace!: string;
  @ApiProperty() space!: string;
  @ApiProperty() organization!: string;
  @ApiProperty({ description: 'The page path left after the site, section and site space.' })
  pathname!: string;
  @ApiProperty({ description: 'Path of the site space in the URL, with both slashes.' })
  basePath!: string;
  @ApiProperty({ description: 'Path of the site in the URL (with a share key), both slashes.' })
  siteBasePath!: string;
  @ApiProperty({ format: 'uri' }) canonicalUrl!: string;
  @ApiProperty({ description: 'No section or site-space segment can follow in the URL.' })
  complete!: boolean;
  @ApiProperty({
    description:
      "A site token (JWT, GitBook's `SiteAPIToken` claims): reads this site's published " +
      'content as this visitor may see it, nothing else; stable for a day.',
  })
  apiToken!: string;
  @ApiPropertyOptional() shareKey?: string;
  @ApiPropertyOptional({ description: "Changes when the visitor's claims change." })
  contextId?: string;
}

/** GitBook's `PublishedContentRedirect`. */
export class PublishedContentRedirectResponse {
  @ApiProperty({ enum: ['application', 'content', 'external'] })
  target!: 'application' | 'content' | 'external';
  @ApiProperty({ format: 'uri' }) redirect!: string;
  @ApiPropertyOptional({ description: 'The site, for an external redirect.' }) site?: string;
}
