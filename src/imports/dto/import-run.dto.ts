import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsNotEmptyObject,
  IsOptional,
  IsString,
  Length,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { PageQueryDto } from '../../platform/pagination/page-query.dto';
import { Chars } from '../../platform/validation/chars';
import { PresentNotNull } from '../../platform/validation/present-not-null';

/** Most files one import takes (GitBook's `ContentImportSource.files.maxItems`). */
export const MAX_IMPORT_FILES = 50;

/** GitBook's `ContentImportSource`: `{type: 'website', url}` or `{type: 'file', files}`. */
export class ContentImportSourceDto {
  @ApiProperty({ enum: ['website', 'file'] })
  @IsIn(['website', 'file'], { message: 'source.type must be one of website, file' })
  type!: 'website' | 'file';

  @ApiPropertyOptional({
    format: 'uri',
    description:
      'The website to import (`website`): its pages on the same host, followed by their links ' +
      'from this URL, up to IMPORT_MAX_PAGES, as its robots.txt allows.',
  })
  @ValidateIf((source: ContentImportSourceDto) => source.type === 'website')
  @IsString()
  @Chars(1, 2048)
  url?: string;

  @ApiPropertyOptional({
    type: [String],
    maxItems: MAX_IMPORT_FILES,
    description:
      'Files to import (`file`): keys of files uploaded with generateStorageUploadURL (kind ' +
      '`import_file`): Markdown, HTML, Word (.docx), or a ZIP archive of pages or of a ' +
      'Confluence or Notion export.',
  })
  @ValidateIf((source: ContentImportSourceDto) => source.type === 'file')
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_IMPORT_FILES)
  @IsString({ each: true })
  @Length(1, 256, { each: true })
  files?: string[];
}

/** GitBook's `ContentImportTarget`. */
export class ContentImportTargetDto {
  @ApiProperty({ description: 'ID of the space to import in.' })
  @IsString()
  @Length(1, 32)
  space!: string;

  @ApiPropertyOptional({
    description:
      'ID (or number) of an open or draft change request of the space to import in; without ' +
      'it, the import opens a change request of its own.',
  })
  @PresentNotNull()
  @IsString()
  @Length(1, 32)
  changeRequest?: string;

  @ApiPropertyOptional({
    description: 'ID of the page to import under; without it, at the top level.',
  })
  @PresentNotNull()
  @IsString()
  @Length(1, 32)
  page?: string;
}

/** Body of `startImportRun`. */
export class StartImportRunDto {
  @ApiProperty({ type: ContentImportSourceDto })
  @IsNotEmptyObject({}, { message: 'source must be an object {type, url} or {type, files}' })
  @ValidateNested()
  @Type(() => ContentImportSourceDto)
  source!: ContentImportSourceDto;

  @ApiProperty({ type: ContentImportTargetDto })
  @IsNotEmptyObject({}, { message: 'target must be an object {space, changeRequest?, page?}' })
  @ValidateNested()
  @Type(() => ContentImportTargetDto)
  target!: ContentImportTargetDto;

  @ApiPropertyOptional({
    description:
      'ID of the site the import is for, when the target space does not belong to it yet; ' +
      'otherwise the site showing the space (when exactly one does).',
  })
  @PresentNotNull()
  @IsString()
  @Length(1, 32)
  site?: string;

  @ApiPropertyOptional({
    default: true,
    description:
      "GitBook's AI enhancement of the imported content. Accepted and kept on the run; " +
      'Bindery imports the content as converted, without AI.',
  })
  @PresentNotNull()
  @IsBoolean()
  enhance?: boolean;
}

export const IMPORT_RUN_STATUS_FILTERS = [
  'active',
  'pending',
  'in-progress',
  'completed',
  'failed',
  'cancelled',
] as const;
export type ImportRunStatusFilter = (typeof IMPORT_RUN_STATUS_FILTERS)[number];

/** Query of `listImportRuns`. */
export class ListImportRunsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ description: 'Only the import runs targeting this space.' })
  @IsOptional()
  @IsString()
  @Length(1, 32)
  space?: string;

  @ApiPropertyOptional({ description: 'Only the import runs targeting this change request.' })
  @IsOptional()
  @IsString()
  @Length(1, 32)
  changeRequest?: string;

  @ApiPropertyOptional({ description: 'Only the import runs targeting a space of this site.' })
  @IsOptional()
  @IsString()
  @Length(1, 32)
  site?: string;

  @ApiPropertyOptional({
    enum: IMPORT_RUN_STATUS_FILTERS,
    description: 'Only the runs in this status; `active` covers `pending` and `in-progress`.',
  })
  @IsOptional()
  @IsIn(IMPORT_RUN_STATUS_FILTERS, {
    message: `status must be one of ${IMPORT_RUN_STATUS_FILTERS.join(', ')}`,
  })
  status?: ImportRunStatusFilter;
}
