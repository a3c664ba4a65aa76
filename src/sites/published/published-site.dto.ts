import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import { MaxChars } from '../../platform/validation/chars';
import { QueryBoolean } from '../../platform/validation/query-boolean';
import { SiteResponse } from '../dto/site.response';
import { SiteStructureResponse } from '../structure/dto/site-structure.response';

export class PublishedSiteQueryDto {
  @ApiPropertyOptional({
    description:
      'Key of an active share link of the site: opens a published `share-link` site to ' +
      'non-members. An unknown or inactive key is answered 404.',
  })
  @IsOptional()
  @IsString()
  @MaxChars(64)
  shareKey?: string;
}

const customization = { type: 'object', additionalProperties: true } as const;

export class PublishedSiteCustomizationsResponse {
  @ApiProperty({ ...customization, description: "The site's customization." })
  site!: object;
  @ApiProperty({
    type: 'object',
    additionalProperties: customization,
    description: 'Per site space (by id): the customization it shows.',
  })
  siteSpaces!: Record<string, object>;
}

/** GitBook's `SiteIntegrationScript`: a script an installed integration injects in the site. */
export class SiteIntegrationScriptResponse {
  @ApiProperty({ format: 'uri', description: 'Script URL to load.' }) script!: string;
  @ApiPropertyOptional({
    description: 'Content Security Policy to secure the loading of this script.',
  })
  contentSecurityPolicy?: string;
  @ApiProperty({ description: 'true when the script may use cookies (`site:script:cookies`).' })
  cookies!: boolean;
}

/** GitBook's `PublishedContentSite`. */
export class PublishedContentSiteResponse {
  @ApiProperty({ enum: ['published-content-site'] }) object!: 'published-content-site';
  @ApiProperty({ type: SiteResponse }) site!: SiteResponse;
  @ApiProperty({ type: SiteStructureResponse }) structure!: SiteStructureResponse;
  @ApiProperty({ type: PublishedSiteCustomizationsResponse })
  customizations!: PublishedSiteCustomizationsResponse;
  @ApiProperty({
    type: [SiteIntegrationScriptResponse],
    description:
      'The scripts of the active installations on the site of integrations with the ' +
      '`site:script:inject` scope, as `listSiteIntegrationScripts` answers them.',
  })
  scripts!: SiteIntegrationScriptResponse[];
}

/** `getSitePublishingPreviewById`'s query. */
export class SitePreviewQueryDto {
  @ApiPropertyOptional({
    description:
      'ID of the site space to preview; the default one (of the default section) when absent.',
  })
  @IsOptional()
  @IsString()
  @MaxChars(32)
  siteSpace?: string;

  @ApiPropertyOptional({
    description:
      'Rison-encoded claims of the visitor to preview the site for, e.g. `(plan:pro,unsigned:(beta:!t))`.',
  })
  @IsOptional()
  @IsString()
  @MaxChars(2048)
  claims?: string;

  @ApiPropertyOptional({
    type: Boolean,
    default: true,
    description: 'Whether draft content (draft external links) shows. Default true.',
  })
  @IsOptional()
  @QueryBoolean()
  draft?: boolean;

  @ApiPropertyOptional({
    description: 'Path of the page to open, in the site space previewed (e.g. `/install`).',
  })
  @IsOptional()
  @IsString()
  @MaxChars(2048)
  target?: string;
}

export class SitePreviewResponse {
  @ApiProperty({
    format: 'uri',
    description:
      'The preview on the renderer (RENDERER_PUBLIC_URL): `/~site/<siteId>/<path>?token=…&api=…`, for an hour.',
  })
  url!: string;
}
