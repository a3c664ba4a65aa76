import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IMPORT_RUN_STATUSES, type ImportRunStatus } from '../entities/import-run.entity';

export class ImportRunSourceResponse {
  @ApiProperty({ enum: ['website', 'file'] }) type!: 'website' | 'file';
  @ApiPropertyOptional({ format: 'uri', description: 'The website imported (`website`).' })
  url?: string;
  @ApiPropertyOptional({ type: [String], description: 'Keys of the files imported (`file`).' })
  files?: string[];
}

export class ImportRunTargetResponse {
  @ApiProperty({ description: 'ID of the space imported in.' }) space!: string;
  @ApiPropertyOptional({
    description:
      'ID of the change request imported in: the one asked for, or the one the run opened ' +
      '(from when it writes).',
  })
  changeRequest?: string;
  @ApiPropertyOptional({ description: 'ID of the page imported under.' }) page?: string;
}

export class ImportRunPageResponse {
  @ApiProperty({ description: 'ID of the page in the change request.' }) id!: string;
  @ApiPropertyOptional({ description: 'Where the page came from: a URL, or a file (and path).' })
  sourceURL?: string;
  @ApiProperty({ enum: ['page', 'folder'] }) type!: 'page' | 'folder';
  @ApiProperty({ enum: ['complete', 'pending'] }) status!: 'complete' | 'pending';
}

export class ImportRunUrlsResponse {
  @ApiProperty({ format: 'uri', description: 'URL of the import run in the API.' })
  location!: string;
}

export class ImportRunProgressResponse {
  @ApiProperty({ type: 'integer', description: 'Pages fetched or converted so far.' })
  done!: number;
  @ApiProperty({ type: 'integer', description: 'Pages found so far.' }) total!: number;
}

/** GitBook's `ContentImportRun`, with Bindery's `progress` and `warnings`. */
export class ImportRunResponse {
  @ApiProperty({ enum: ['import-run'] }) object!: 'import-run';
  @ApiProperty() id!: string;
  @ApiProperty({
    enum: IMPORT_RUN_STATUSES,
    description:
      'A pending or running import that stopped reporting (its process died) for ' +
      'IMPORT_STALE_AFTER_MINUTES is answered `failed`.',
  })
  status!: ImportRunStatus;
  @ApiPropertyOptional({ description: 'Why the run failed (`failed` only).' })
  reason?: string;
  @ApiProperty({ type: ImportRunSourceResponse }) source!: ImportRunSourceResponse;
  @ApiProperty({ type: ImportRunTargetResponse }) target!: ImportRunTargetResponse;
  @ApiPropertyOptional({ description: 'ID of the site the import is for.' }) site?: string;
  @ApiPropertyOptional({ description: 'ID of the user who started the import.' })
  createdBy?: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
  @ApiPropertyOptional({ format: 'date-time' }) startedAt?: string;
  @ApiPropertyOptional({ format: 'date-time', description: 'When the run completed.' })
  completedAt?: string;
  @ApiProperty({ type: ImportRunUrlsResponse }) urls!: ImportRunUrlsResponse;
  @ApiProperty({
    type: [ImportRunPageResponse],
    description: 'The pages the import makes, in tree order, once the source is converted.',
  })
  pages!: ImportRunPageResponse[];
  @ApiProperty({ type: ImportRunProgressResponse, description: 'Bindery: pages done of found.' })
  progress!: ImportRunProgressResponse;
  @ApiProperty({
    type: [String],
    description:
      'Bindery: what the conversion could not bring over as it was, page by page (an ' +
      'unsupported block, a link left to its URL, a page robots.txt disallows).',
  })
  warnings!: string[];
  @ApiProperty({
    description:
      "Whether GitBook's AI enhancement was asked for; Bindery imports without it, as converted.",
  })
  enhance!: boolean;
}
