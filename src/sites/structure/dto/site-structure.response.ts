import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { SpaceResponse } from '../../../spaces/dto/space.response';

export class SiteStructureUrlsResponse {
  @ApiPropertyOptional({
    format: 'uri',
    description: 'URL of its published version; only while the site is published.',
  })
  published?: string;
}

/** GitBook's `SiteSpace`. */
export class SiteSpaceResponse {
  @ApiProperty({ enum: ['site-space'] }) object!: 'site-space';
  @ApiProperty() id!: string;
  @ApiProperty({ minLength: 1, maxLength: 100 }) path!: string;
  @ApiPropertyOptional({ description: 'ID of the section it is a variant of.' })
  section?: string;
  @ApiProperty({ type: SpaceResponse }) space!: SpaceResponse;
  @ApiProperty({
    description: "The variant's title: its customization's `title`, else its space's title.",
  })
  title!: string;
  @ApiProperty({ description: 'Whether it is the default of its section (or of the site root).' })
  default!: boolean;
  @ApiProperty({ enum: [false], description: 'Always false: Bindery has no drafts.' })
  draft!: false;
  @ApiPropertyOptional({ maxLength: 1024 }) condition?: string;
  @ApiProperty({ type: SiteStructureUrlsResponse }) urls!: SiteStructureUrlsResponse;
}

/** GitBook's `SiteSection`. */
export class SiteSectionResponse {
  @ApiProperty({ enum: ['site-section'] }) object!: 'site-section';
  @ApiProperty() id!: string;
  @ApiProperty({ minLength: 2, maxLength: 128 }) title!: string;
  @ApiPropertyOptional({ maxLength: 256 }) description?: string;
  @ApiProperty({ description: 'Whether it is the default section of the site.' })
  default!: boolean;
  @ApiProperty({ enum: [false], description: 'Always false: Bindery has no drafts.' })
  draft!: false;
  @ApiProperty({ minLength: 1, maxLength: 100 }) path!: string;
  @ApiPropertyOptional({ maxLength: 1024 }) condition?: string;
  @ApiPropertyOptional({ description: 'ID of the group it is in.' }) sectionGroup?: string;
  @ApiProperty({ type: [SiteSpaceResponse] }) siteSpaces!: SiteSpaceResponse[];
  @ApiProperty({ type: SiteStructureUrlsResponse }) urls!: SiteStructureUrlsResponse;
  @ApiPropertyOptional({ maxLength: 50, example: 'gear' }) icon?: string;
}

/** GitBook's `SiteExternalLink`. */
export class SiteExternalLinkResponse {
  @ApiProperty({ enum: ['site-external-link'] }) object!: 'site-external-link';
  @ApiProperty() id!: string;
  @ApiProperty({ minLength: 2, maxLength: 128 }) title!: string;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string', maxLength: 128 },
    description: 'The title by language, for languages other than the default.',
  })
  localizedTitle?: Record<string, string>;
  @ApiPropertyOptional({ maxLength: 256 }) description?: string;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string', maxLength: 256 },
    description: 'The description by language, for languages other than the default.',
  })
  localizedDescription?: Record<string, string>;
  @ApiPropertyOptional({ maxLength: 50, example: 'gear' }) icon?: string;
  @ApiProperty({ format: 'uri', maxLength: 2048, description: 'Absolute HTTP or HTTPS URL.' })
  url!: string;
  @ApiPropertyOptional({ description: 'ID of the group it is in; absent at the site root.' })
  sectionGroup?: string;
  @ApiProperty({ description: 'Whether it is a draft, absent from the published site.' })
  draft!: boolean;
  @ApiPropertyOptional({ maxLength: 1024 }) condition?: string;
}

const sectionOrGroup = {
  oneOf: [
    { $ref: getSchemaPath(SiteSectionResponse) },
    { $ref: getSchemaPath('SiteSectionGroupResponse') },
    { $ref: getSchemaPath(SiteExternalLinkResponse) },
  ],
};

/** GitBook's `SiteSectionGroup`. */
@ApiExtraModels(SiteSectionResponse, SiteExternalLinkResponse)
export class SiteSectionGroupResponse {
  @ApiProperty({ enum: ['site-section-group'] }) object!: 'site-section-group';
  @ApiProperty() id!: string;
  @ApiProperty({ minLength: 1, maxLength: 100 }) title!: string;
  @ApiProperty({ enum: [false], description: 'Always false: Bindery has no drafts.' })
  draft!: false;
  @ApiProperty({
    type: [SiteSectionResponse],
    deprecated: true,
    description: 'The sections directly in the group. Use `children` instead.',
  })
  sections!: SiteSectionResponse[];
  @ApiPropertyOptional({ description: 'ID of the group it is nested in.' })
  sectionGroup?: string;
  @ApiProperty({
    type: 'array',
    items: sectionOrGroup,
    description: 'The sections, groups and external links directly in the group, in order.',
  })
  children!: (SiteSectionResponse | SiteSectionGroupResponse | SiteExternalLinkResponse)[];
  @ApiPropertyOptional({ maxLength: 50, example: 'gear' }) icon?: string;
}

/** GitBook's `SiteStructure`: sections (and groups) when the site has sections, else site spaces. */
@ApiExtraModels(
  SiteSpaceResponse,
  SiteSectionResponse,
  SiteSectionGroupResponse,
  SiteExternalLinkResponse,
)
export class SiteStructureResponse {
  @ApiProperty({ enum: ['sections', 'siteSpaces'] }) type!: 'sections' | 'siteSpaces';
  @ApiProperty({
    type: 'array',
    items: {
      oneOf: [
        { $ref: getSchemaPath(SiteSectionResponse) },
        { $ref: getSchemaPath(SiteSectionGroupResponse) },
        { $ref: getSchemaPath(SiteExternalLinkResponse) },
        { $ref: getSchemaPath(SiteSpaceResponse) },
      ],
    },
    description:
      'Sections, groups and external links with `type: sections`; site spaces with ' +
      '`type: siteSpaces`.',
  })
  structure!:
    | (SiteSectionResponse | SiteSectionGroupResponse | SiteExternalLinkResponse)[]
    | SiteSpaceResponse[];
}
