import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  SITE_AGENTS_CONTEXTS,
  SITE_TYPES,
  SITE_VISIBILITIES,
  type SiteAgentsContext,
  type SiteIcon,
  type SiteType,
  type SiteVisibility,
} from '../entities/site.entity';
import { SITE_FEATURE_KEYS } from '../site-features';

export class SiteProxyResponse {
  @ApiProperty({ description: 'Where the site is served: domain and path, e.g. company.com/docs.' })
  origin!: string;
  @ApiProperty({
    format: 'uri',
    description: 'The URL that requests at the origin are proxied to.',
  })
  target!: string;
}

export class SiteAdaptiveContentResponse {
  @ApiProperty() enabled!: boolean;
}

export class SiteAdsResponse {
  @ApiProperty({
    enum: ['pending', 'in-review', 'rejected', 'live', 'disabled'],
    description: 'Always `disabled`: a self-hosted site shows no ads.',
  })
  status!: 'disabled';
  @ApiProperty({ enum: ['webdev', 'crypto'] }) topic!: 'webdev' | 'crypto';
  @ApiProperty({ description: 'Ad network zone; empty, there is none.' }) zoneId!: string;
}

export class SiteFeatureResponse {
  @ApiProperty({ enum: SITE_FEATURE_KEYS }) id!: string;
  @ApiProperty({ enum: SITE_TYPES, description: 'The plan the feature belongs to.' })
  plan!: SiteType;
  @ApiProperty({ description: 'A frozen feature stays enabled but cannot be changed.' })
  frozen!: boolean;
}

export class SiteUrlsResponse {
  @ApiProperty({ format: 'uri', description: 'URL of the site in the API.' }) location!: string;
  @ApiProperty({ format: 'uri', description: 'URL of the site in the application.' }) app!: string;
  @ApiProperty({
    format: 'uri',
    description:
      'Where a renderer previews the site, published or not: `<origin of SITES_URL>/preview/<siteId>`.',
  })
  preview!: string;
  @ApiPropertyOptional({
    format: 'uri',
    description: 'URL of the published site; only while it is published.',
  })
  published?: string;
  @ApiPropertyOptional({
    format: 'uri',
    description:
      "Where the site's visitors log in (its visitor authentication's `fallbackURL`); in the " +
      'published profile only.',
  })
  login?: string;
  @ApiPropertyOptional({
    format: 'uri',
    description: 'Where they log out (its `logoutURL`); in the published profile only.',
  })
  logout?: string;
}

/** GitBook's `Site.permissions`, from the caller's role in the organization. */
export class SitePermissionsResponse {
  @ApiProperty({ description: 'Always true: whoever sees the site may view it.' }) view!: boolean;
  @ApiProperty({ description: 'Open it in the application: members with a role.' })
  access!: boolean;
  @ApiProperty() edit!: boolean;
  @ApiProperty({ description: 'Change its structure and settings (the create role).' })
  create!: boolean;
  @ApiProperty() admin!: boolean;
  @ApiProperty() installIntegration!: boolean;
  @ApiProperty() viewAdaptiveSchema!: boolean;
  @ApiProperty() editAdaptiveSchema!: boolean;
}

/** GitBook's `Site`. */
export class SiteResponse {
  @ApiProperty({ enum: ['site'] }) object!: 'site';
  @ApiProperty() id!: string;
  @ApiProperty({ enum: SITE_TYPES }) type!: SiteType;
  @ApiProperty({ enum: SITE_TYPES, description: 'Always `type`: nothing is frozen self-hosted.' })
  appliedType!: SiteType;
  @ApiProperty({ minLength: 2, maxLength: 128 }) title!: string;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: '`{}`, `{emoji}` or `{icon: {light, dark}}`.',
  })
  icon?: SiteIcon;
  @ApiPropertyOptional({ maxLength: 512 }) hostname?: string;
  @ApiPropertyOptional({ maxLength: 100 }) basename?: string;
  @ApiPropertyOptional({ type: SiteProxyResponse }) proxy?: SiteProxyResponse;
  @ApiProperty({ enum: SITE_VISIBILITIES }) visibility!: SiteVisibility;
  @ApiProperty({
    enum: ['inherit'],
    description: "Always `inherit`: access to a site follows the organization's roles.",
  })
  defaultLevel!: 'inherit';
  @ApiProperty({ type: SitePermissionsResponse }) permissions!: SitePermissionsResponse;
  @ApiProperty({ description: 'Whether the site is live for the audience of `visibility`.' })
  published!: boolean;
  @ApiProperty({ description: 'Number of site spaces.' }) siteSpaces!: number;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiPropertyOptional({ type: SiteAdaptiveContentResponse })
  adaptiveContent?: SiteAdaptiveContentResponse;
  @ApiPropertyOptional({ type: SiteAdsResponse }) ads?: SiteAdsResponse;
  @ApiProperty({ enum: SITE_AGENTS_CONTEXTS }) agentsContext!: SiteAgentsContext;
  @ApiProperty({ type: [SiteFeatureResponse] }) features!: SiteFeatureResponse[];
  @ApiProperty({ type: SiteUrlsResponse }) urls!: SiteUrlsResponse;
}
