import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { OrganizationSummaryResponse } from '../../orgs/dto/organization.response';
import {
  INTEGRATION_CATEGORIES,
  INTEGRATION_SCOPES,
  INTEGRATION_TARGETS,
  INTEGRATION_VISIBILITIES,
} from '../entities/integration.entity';

export class IntegrationUrlsResponse {
  @ApiProperty({ format: 'uri', description: 'The integration in the API.' }) location!: string;
  @ApiPropertyOptional({ format: 'uri', description: 'Its icon.' }) icon?: string;
  @ApiProperty({ format: 'uri', description: 'The integration in the application.' })
  app!: string;
  @ApiProperty({ format: 'uri', description: "Where the integration's assets are served." })
  assets!: string;
  @ApiProperty({
    format: 'uri',
    description: "Public HTTP endpoint: requests under it reach the script's `fetch`.",
  })
  publicEndpoint!: string;
  @ApiProperty({ format: 'uri', description: 'Here, the same as `publicEndpoint`.' })
  publicContentEndpoint!: string;
}

export class IntegrationPermissionsResponse {
  @ApiProperty({ description: 'The caller may publish, unpublish and develop it.' })
  admin!: boolean;
}

/** GitBook's `Integration`. */
export class IntegrationResponse {
  @ApiProperty({ enum: ['integration'] }) object!: 'integration';
  @ApiProperty({ example: 'mermaid', description: 'Its unique name on the instance.' })
  name!: string;
  @ApiProperty({ description: 'Each publish makes the next version.' }) version!: number;
  @ApiProperty({ minLength: 2, maxLength: 30 }) title!: string;
  @ApiPropertyOptional({ maxLength: 100 }) description?: string;
  @ApiPropertyOptional({ maxLength: 2048 }) summary?: string;
  @ApiProperty({ type: [String], maxItems: 3, description: 'URLs of its preview images.' })
  previewImages!: string[];
  @ApiProperty({ enum: INTEGRATION_TARGETS }) target!: string;
  @ApiProperty({ description: 'Always false on a self-hosted instance.' }) verified!: boolean;
  @ApiProperty({ enum: INTEGRATION_VISIBILITIES }) visibility!: string;
  @ApiProperty({ type: [String], enum: INTEGRATION_SCOPES }) scopes!: string[];
  @ApiProperty({ type: [String], enum: INTEGRATION_CATEGORIES }) categories!: string[];
  @ApiPropertyOptional({ type: 'array', items: { type: 'object' } })
  blocks?: Record<string, unknown>[];
  @ApiPropertyOptional({ type: 'array', items: { type: 'object' } })
  contentSources?: Record<string, unknown>[];
  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  configurations?: Record<string, unknown>;
  @ApiProperty({ type: 'array', items: { type: 'object' } })
  externalLinks!: { url: string; label: string }[];
  @ApiProperty({ type: OrganizationSummaryResponse, description: 'The organization that owns it.' })
  owner!: OrganizationSummaryResponse;
  @ApiProperty({ type: IntegrationUrlsResponse }) urls!: IntegrationUrlsResponse;
  @ApiProperty({ type: IntegrationPermissionsResponse })
  permissions!: IntegrationPermissionsResponse;
  @ApiPropertyOptional({
    oneOf: [{ type: 'string' }, { type: 'object', additionalProperties: { type: 'string' } }],
  })
  contentSecurityPolicy?: string | Record<string, string>;
}
