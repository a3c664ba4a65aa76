import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  Length,
  MaxLength,
} from 'class-validator';
import { PageQueryDto } from '../../../platform/pagination/page-query.dto';
import { PresentNotNull } from '../../../platform/validation/present-not-null';
import { QueryBoolean } from '../../../platform/validation/query-boolean';
import {
  INSTALLATION_SELECTIONS,
  type InstallationSelection,
} from '../entities/integration-installation.entity';

/** Body of `installIntegration`: GitBook's `OrganizationTarget`. */
export class InstallIntegrationDto {
  @ApiProperty({ description: 'ID of the organization to install the integration on.' })
  @IsString()
  @Length(1, 32)
  organization!: string;
}

/** Body of `updateIntegrationSpaceInstallation` and `updateIntegrationSiteInstallation`. */
export class UpdateContentInstallationDto {
  @ApiPropertyOptional({
    type: [String],
    maxItems: 5,
    description: 'External IDs assigned by the integration (replaces the list).',
  })
  @PresentNotNull()
  @IsArray()
  @ArrayMaxSize(5)
  @IsString({ each: true })
  @Length(1, 512, { each: true })
  externalIds?: string[];

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description:
      "The configuration (replaces it), checked against the integration's schema for the level.",
  })
  @PresentNotNull()
  @IsObject()
  configuration?: Record<string, unknown>;
}

/** Body of `updateIntegrationInstallation`: GitBook's `UpdateIntegrationInstallation`. */
export class UpdateIntegrationInstallationDto extends UpdateContentInstallationDto {
  @ApiPropertyOptional({ enum: INSTALLATION_SELECTIONS })
  @PresentNotNull()
  @IsIn(INSTALLATION_SELECTIONS)
  space_selection?: InstallationSelection;

  @ApiPropertyOptional({ enum: INSTALLATION_SELECTIONS })
  @PresentNotNull()
  @IsIn(INSTALLATION_SELECTIONS)
  site_selection?: InstallationSelection;
}

/** Body of `installIntegrationOnSpace`. */
export class InstallOnSpaceDto {
  @ApiProperty({ description: 'ID of the space to install the integration on.' })
  @IsString()
  @Length(1, 32)
  space!: string;
}

/** Body of `installIntegrationOnSite`. */
export class InstallOnSiteDto {
  @ApiProperty({ description: 'ID of the site to install the integration on.' })
  @IsString()
  @Length(1, 32)
  siteId!: string;
}

/** `extended`: the space (or site) object in each answer instead of its id. */
export class ExtendedQueryDto {
  @ApiPropertyOptional({
    default: false,
    description: 'true: the space (or site) object; false: its ID.',
  })
  @IsOptional()
  @QueryBoolean()
  extended?: boolean;
}

/** Query of `listIntegrationInstallationSpaces` and `listIntegrationInstallationSites`. */
export class ListContentInstallationsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({
    default: false,
    description: 'true: the space (or site) object; false: its ID.',
  })
  @IsOptional()
  @QueryBoolean()
  extended?: boolean;
}

/** Query of `listIntegrationInstallations`. */
export class ListInstallationsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ description: 'Only the installations with this external ID.' })
  @IsOptional()
  @IsString()
  @MaxLength(512)
  externalId?: string;
}

/** Query of `listIntegrationSpaceInstallations` and `listIntegrationSiteInstallations`. */
export class ListIntegrationContentInstallationsQueryDto extends ListContentInstallationsQueryDto {
  @ApiPropertyOptional({ description: 'Only the installations with this external ID.' })
  @IsOptional()
  @IsString()
  @MaxLength(512)
  externalId?: string;
}

/** `search`: only integrations whose name or title contains it. */
export class IntegrationSearchQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ description: 'Only integrations whose name or title contains this.' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  search?: string;
}

export const INSTALLATION_TARGET_TYPES = ['organization', 'space', 'site'] as const;
export type InstallationTargetType = (typeof INSTALLATION_TARGET_TYPES)[number];

/** Query of `listOrganizationIntegrationsStatus`. */
export class IntegrationsStatusQueryDto extends PageQueryDto {
  @ApiPropertyOptional({
    enum: INSTALLATION_TARGET_TYPES,
    default: 'organization',
    description: 'Which installations: those of the organization, of its spaces or of its sites.',
  })
  @IsOptional()
  @IsIn(INSTALLATION_TARGET_TYPES)
  target?: InstallationTargetType;

  @ApiPropertyOptional({ description: 'Only for this site (with `target=site`).' })
  @IsOptional()
  @IsString()
  @MaxLength(32)
  site?: string;

  @ApiPropertyOptional({ description: 'Only for this space (with `target=space`).' })
  @IsOptional()
  @IsString()
  @MaxLength(32)
  space?: string;
}
