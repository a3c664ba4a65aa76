import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { SiteResponse } from '../../../sites/dto/site.response';
import { SpaceResponse } from '../../../spaces/dto/space.response';
import { IntegrationResponse } from '../../dto/integration.response';
import {
  INSTALLATION_SELECTIONS,
  INSTALLATION_STATUSES,
} from '../entities/integration-installation.entity';

const externalIds = ApiProperty({
  type: [String],
  maxItems: 5,
  description: 'External IDs assigned by the integration.',
});
const configuration = ApiProperty({
  type: 'object',
  additionalProperties: true,
  description: "Its configuration, as the integration's schema for the level describes it.",
});
const status = ApiProperty({
  enum: INSTALLATION_STATUSES,
  description:
    'active when the configuration its integration requires is given (for a space or site ' +
    'installation, its installation is active too), pending until then.',
});

export class IntegrationInstallationUrlsResponse {
  @ApiProperty({ format: 'uri', description: 'The installation in the API.' }) location!: string;
  @ApiProperty({ format: 'uri', description: 'The installation in the application.' })
  app!: string;
  @ApiProperty({
    format: 'uri',
    description: "Public HTTP endpoint for the integration's installation.",
  })
  publicEndpoint!: string;
  @ApiProperty({ format: 'uri', description: 'Here, the same as `publicEndpoint`.' })
  publicContentEndpoint!: string;
}

export class OrganizationTargetResponse {
  @ApiProperty({ description: 'ID of the organization it is installed on.' })
  organization!: string;
}

/** GitBook's `IntegrationInstallation`. */
export class IntegrationInstallationResponse {
  @ApiProperty() id!: string;
  @status status!: string;
  @ApiProperty({ enum: INSTALLATION_SELECTIONS }) space_selection!: string;
  @ApiProperty({ enum: INSTALLATION_SELECTIONS }) site_selection!: string;
  @ApiProperty({ description: 'How many spaces it is installed on.' }) spaces!: number;
  @configuration configuration!: Record<string, unknown>;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
  @ApiProperty({ type: IntegrationInstallationUrlsResponse })
  urls!: IntegrationInstallationUrlsResponse;
  @externalIds externalIds!: string[];
  @ApiProperty({ type: OrganizationTargetResponse }) target!: OrganizationTargetResponse;
}

export class ContentInstallationUrlsResponse {
  @ApiProperty({ format: 'uri', description: 'The installation in the API.' }) location!: string;
  @ApiProperty({
    format: 'uri',
    description: "Public HTTP endpoint for the integration's installation.",
  })
  publicEndpoint!: string;
  @ApiProperty({ format: 'uri', description: 'Here, the same as `publicEndpoint`.' })
  publicContentEndpoint!: string;
}

class ContentInstallationResponse {
  @ApiProperty({ description: 'Name of the integration.' }) integration!: string;
  @ApiProperty({ description: 'ID of the installation.' }) installation!: string;
  @status status!: string;
  @configuration configuration!: Record<string, unknown>;
  @externalIds externalIds!: string[];
  @ApiProperty({ type: ContentInstallationUrlsResponse }) urls!: ContentInstallationUrlsResponse;
}

/** GitBook's `IntegrationSpaceInstallation`. */
@ApiExtraModels(SpaceResponse)
export class IntegrationSpaceInstallationResponse extends ContentInstallationResponse {
  @ApiProperty({
    oneOf: [{ type: 'string' }, { $ref: getSchemaPath(SpaceResponse) }],
    description: 'The space (`extended=true`) or its ID.',
  })
  space!: string | SpaceResponse;
}

/** GitBook's `IntegrationSiteInstallation`. */
@ApiExtraModels(SiteResponse)
export class IntegrationSiteInstallationResponse extends ContentInstallationResponse {
  @ApiProperty({
    oneOf: [{ type: 'string' }, { $ref: getSchemaPath(SiteResponse) }],
    description: 'The site (`extended=true`) or its ID.',
  })
  site!: string | SiteResponse;
}

/** An item of `listOrganizationInstallations`. */
export class OrganizationInstallationResponse {
  @ApiProperty({ type: IntegrationInstallationResponse })
  installation!: IntegrationInstallationResponse;
  @ApiProperty({ type: IntegrationResponse }) integration!: IntegrationResponse;
}

/** Answer of `getOrganizationIntegrationStatus`. */
export class IntegrationStatusResponse {
  @status status!: string;
}

export class InstalledIntegrationTargetResponse {
  @ApiProperty({ enum: ['organization', 'space', 'site'] }) type!: string;
  @ApiPropertyOptional() organizationId?: string;
  @ApiPropertyOptional() spaceId?: string;
  @ApiPropertyOptional() siteId?: string;
}

/** GitBook's `InstalledIntegration`. */
export class InstalledIntegrationResponse {
  @status status!: string;
  @ApiProperty({ type: IntegrationResponse }) integration!: IntegrationResponse;
  @ApiProperty({ type: InstalledIntegrationTargetResponse })
  target!: InstalledIntegrationTargetResponse;
}

/** An item of GitBook's `SpaceIntegrationBlocks`. */
export class SpaceIntegrationBlocksResponse {
  @ApiProperty({ description: 'Name of the integration.' }) name!: string;
  @ApiProperty({ type: 'array', items: { type: 'object', additionalProperties: true } })
  blocks!: Record<string, unknown>[];
}

// GitBook's `SiteIntegrationScript`: one class for the published site and the installations.
export { SiteIntegrationScriptResponse } from '../../../sites/published/published-site.dto';
