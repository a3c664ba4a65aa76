import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsOptional,
  IsString,
  Length,
  MaxLength,
  registerDecorator,
} from 'class-validator';
import { PageQueryDto } from '../../platform/pagination/page-query.dto';
import { PresentNotNull } from '../../platform/validation/present-not-null';
import { QueryBoolean } from '../../platform/validation/query-boolean';
import {
  INTEGRATION_CATEGORIES,
  INTEGRATION_RUNTIMES,
  INTEGRATION_SCOPES,
  INTEGRATION_TARGETS,
  INTEGRATION_VISIBILITIES,
  type IntegrationBlock,
  type IntegrationCategory,
  type IntegrationConfigurations,
  type IntegrationRuntime,
  type IntegrationScope,
  type IntegrationTarget,
  type IntegrationVisibility,
} from '../entities/integration.entity';
import { type ManifestPart, manifestPartProblem } from '../manifest/manifest-schema';

/** GitBook's `integrationName` path parameter. */
export const INTEGRATION_NAME_PATTERN = /^[a-zA-Z0-9-_.]+$/;

/** A structured part of the manifest, checked against its JSON Schema (manifest-schema.ts). */
function IsManifestPart(part: ManifestPart): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isManifestPart',
      target: target.constructor,
      propertyName: propertyName as string,
      validator: {
        validate: (value: unknown) => manifestPartProblem(part, value) === null,
        defaultMessage: (args) => manifestPartProblem(part, args?.value) ?? `${part} is invalid`,
      },
    });
}

/** Base64 text of at most `maxBytes` bytes (what the bytes are is the service's question). */
function Base64Of(field: string, maxBytes: number): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    IsString({ message: `${field} must be base64 text` })(target, propertyName);
    MaxLength(Math.ceil(maxBytes / 3) * 4, {
      message: `${field} must be at most ${Math.round(maxBytes / 1024)} KB`,
    })(target, propertyName);
  };
}

/** Body of `publishIntegration` (GitBook's `PublishIntegration`), as `gitbook publish` sends it. */
export class PublishIntegrationDto {
  @ApiPropertyOptional({
    enum: INTEGRATION_RUNTIMES,
    default: 'v1',
    description: 'The runtime version the script is written for (`gitbook publish` sends v2).',
  })
  @PresentNotNull()
  @IsIn(INTEGRATION_RUNTIMES)
  runtime?: IntegrationRuntime;

  @ApiPropertyOptional({
    format: 'byte',
    description: 'Base64 of the icon: a PNG, JPEG, GIF or WebP image of at most 256 KB.',
  })
  @PresentNotNull()
  @Base64Of('icon', 256 * 1024)
  icon?: string;

  @ApiProperty({ minLength: 2, maxLength: 30 })
  @IsString()
  @Length(2, 30)
  title!: string;

  @ApiProperty({ maxLength: 100 })
  @IsString()
  @MaxLength(100)
  description!: string;

  @ApiPropertyOptional({ maxLength: 2048, description: 'Long form Markdown summary.' })
  @PresentNotNull()
  @IsString()
  @MaxLength(2048)
  summary?: string;

  @ApiPropertyOptional({
    type: [String],
    format: 'byte',
    maxItems: 3,
    description: 'Base64 of up to three images (PNG, JPEG, GIF or WebP; 1 MB each).',
  })
  @PresentNotNull()
  @IsArray()
  @ArrayMaxSize(3)
  @IsString({ each: true })
  @MaxLength(Math.ceil((1024 * 1024) / 3) * 4, {
    each: true,
    message: 'each preview image must be at most 1 MB',
  })
  previewImages?: string[];

  @ApiPropertyOptional({ enum: INTEGRATION_VISIBILITIES, default: 'private' })
  @PresentNotNull()
  @IsIn(INTEGRATION_VISIBILITIES)
  visibility?: IntegrationVisibility;

  @ApiPropertyOptional({
    enum: INTEGRATION_TARGETS,
    default: 'all',
    description: 'Where it may be installed.',
  })
  @PresentNotNull()
  @IsIn(INTEGRATION_TARGETS)
  target?: IntegrationTarget;

  @ApiProperty({ type: [String], enum: INTEGRATION_SCOPES })
  @IsArray()
  @ArrayMaxSize(INTEGRATION_SCOPES.length)
  @IsIn(INTEGRATION_SCOPES, {
    each: true,
    message: `each value of scopes must be one of: ${INTEGRATION_SCOPES.join(', ')}`,
  })
  scopes!: IntegrationScope[];

  @ApiPropertyOptional({ type: [String], enum: INTEGRATION_CATEGORIES })
  @PresentNotNull()
  @IsArray()
  @ArrayMaxSize(INTEGRATION_CATEGORIES.length)
  @IsIn(INTEGRATION_CATEGORIES, {
    each: true,
    message: `each value of categories must be one of: ${INTEGRATION_CATEGORIES.join(', ')}`,
  })
  categories?: IntegrationCategory[];

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'object' },
    description: "GitBook's `IntegrationBlock`s: the custom blocks it renders.",
  })
  @PresentNotNull()
  @IsManifestPart('blocks')
  blocks?: IntegrationBlock[];

  @ApiPropertyOptional({ type: 'array', items: { type: 'object' } })
  @PresentNotNull()
  @IsManifestPart('contentSources')
  contentSources?: Record<string, unknown>[];

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'object' },
    maxItems: 5,
    description: '`{url, label}` links shown with the integration.',
  })
  @PresentNotNull()
  @IsManifestPart('externalLinks')
  externalLinks?: { url: string; label: string }[];

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description:
      'What an installation configures on the organization (`account`), a space or a site: a ' +
      'schema of properties, or a ContentKit component (`componentId`).',
  })
  @PresentNotNull()
  @IsManifestPart('configurations')
  configurations?: IntegrationConfigurations;

  @ApiProperty({
    description:
      'The built script: an ES module whose default export has `fetch` (what `gitbook publish` ' +
      'bundles).',
  })
  @IsString()
  @Length(1, 20 * 1024 * 1024)
  script!: string;

  @ApiProperty({
    description: 'The id or hostname of the organization that publishes and owns it.',
  })
  @IsString()
  @Length(1, 64)
  organization!: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: 'Secrets given to the script at run time; never answered back.',
  })
  @PresentNotNull()
  @IsManifestPart('secrets')
  secrets?: Record<string, string>;

  @ApiPropertyOptional({
    oneOf: [{ type: 'string' }, { type: 'object', additionalProperties: { type: 'string' } }],
    description: 'The content security policy of its script and blocks.',
  })
  @PresentNotNull()
  @IsManifestPart('contentSecurityPolicy')
  contentSecurityPolicy?: string | Record<string, string>;
}

/** Query of `listIntegrations`. */
export class ListIntegrationsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ description: 'Only integrations whose name or title contains this.' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  search?: string;

  @ApiPropertyOptional({ enum: INTEGRATION_CATEGORIES })
  @IsOptional()
  @IsIn(INTEGRATION_CATEGORIES)
  category?: IntegrationCategory;

  @ApiPropertyOptional({ description: 'Only integrations with a block unfurling this domain.' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  blockDomain?: string;

  @ApiPropertyOptional({ description: 'true: only those with blocks; false: only those without.' })
  @IsOptional()
  @QueryBoolean()
  blocks?: boolean;

  @ApiPropertyOptional({
    description: 'true: only those with content sources; false: only those without.',
  })
  @IsOptional()
  @QueryBoolean()
  contentSources?: boolean;

  @ApiPropertyOptional({ description: 'Only the integrations of this organization (its id).' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  owner?: string;

  @ApiPropertyOptional({ enum: INTEGRATION_SCOPES })
  @IsOptional()
  @IsIn(INTEGRATION_SCOPES)
  scope?: IntegrationScope;

  @ApiPropertyOptional({ enum: INTEGRATION_TARGETS })
  @IsOptional()
  @IsIn(INTEGRATION_TARGETS)
  target?: IntegrationTarget;
}

/** Body of `setIntegrationDevelopmentMode`. */
export class IntegrationDevelopmentModeDto {
  @ApiProperty({
    minLength: 1,
    maxLength: 256,
    description: "URL of the tunnel to send the integration's events to (http or https).",
  })
  @IsString()
  @Length(1, 256)
  tunnelUrl!: string;

  @ApiPropertyOptional({
    default: false,
    description:
      "true: every organization's events go to the tunnel, not only the owning organization's.",
  })
  @PresentNotNull()
  @IsBoolean()
  all?: boolean;
}
