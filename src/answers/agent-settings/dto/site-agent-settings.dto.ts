import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsObject, ValidateNested } from 'class-validator';
import { IsDocument } from '../../../content-engine/documents/document-validation';
import type { JSONDocument } from '../../../content-engine/documents/document';
import { RichDocumentSchema } from '../../../orgs/agent-instructions/dto/agent-instructions.dto';

export const SCAN_TOPICS = ['auto', 'never'] as const;
export const FINDING_CHANGE_REQUESTS = ['always', 'auto-fixable', 'never'] as const;

const STORED =
  'Stored and answered as given: Bindery runs no scans and no findings (nothing acts on it).';

export class SiteAgentScansDto {
  @ApiProperty({ enum: SCAN_TOPICS, description: STORED })
  @IsIn(SCAN_TOPICS)
  topics!: (typeof SCAN_TOPICS)[number];
}

export class SiteAgentFindingsDto {
  @ApiProperty({ enum: FINDING_CHANGE_REQUESTS, description: STORED })
  @IsIn(FINDING_CHANGE_REQUESTS)
  changeRequests!: (typeof FINDING_CHANGE_REQUESTS)[number];
}

export class SiteAgentEditingDto {
  @ApiProperty({
    type: RichDocumentSchema,
    description: 'Instructions for an editing agent, a document of at most 200 KB of JSON.',
  })
  @IsDocument()
  customInstructions!: JSONDocument;
}

/** GitBook's `SiteAgentSettingsInput`: the body of `updateSiteAgentSettingsById`. */
export class UpdateSiteAgentSettingsDto {
  @ApiProperty({ type: SiteAgentScansDto })
  @IsObject()
  @ValidateNested()
  @Type(() => SiteAgentScansDto)
  scans!: SiteAgentScansDto;

  @ApiProperty({ type: SiteAgentFindingsDto })
  @IsObject()
  @ValidateNested()
  @Type(() => SiteAgentFindingsDto)
  findings!: SiteAgentFindingsDto;

  @ApiProperty({ type: SiteAgentEditingDto })
  @IsObject()
  @ValidateNested()
  @Type(() => SiteAgentEditingDto)
  editing!: SiteAgentEditingDto;
}

class SiteAgentSettingsUrls {
  @ApiProperty({ description: 'The settings in the API.' }) location!: string;
}

/** GitBook's `SiteAgentSettings`. */
export class SiteAgentSettingsResponse extends UpdateSiteAgentSettingsDto {
  @ApiProperty({ enum: ['site-agent-settings'] }) object!: 'site-agent-settings';
  @ApiPropertyOptional({
    format: 'date-time',
    description: 'Absent until first written.',
  })
  updatedAt?: string;
  @ApiPropertyOptional({ description: 'Id of the member who wrote them last.' })
  updatedBy?: string;
  @ApiProperty({ type: SiteAgentSettingsUrls }) urls!: SiteAgentSettingsUrls;
}
