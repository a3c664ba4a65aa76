import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import type { SiteRedirectDestination } from '../entities/site-redirect.entity';
import { MAX_SOURCE_LENGTH } from '../redirect-source';
import { DESTINATION_SCHEMAS } from './site-redirect.dto';

/** GitBook's `SiteRedirect`. */
@ApiExtraModels(...DESTINATION_SCHEMAS)
export class SiteRedirectResponse {
  @ApiProperty({ enum: ['site-redirect'] }) object!: 'site-redirect';
  @ApiProperty() id!: string;
  @ApiProperty({ maxLength: MAX_SOURCE_LENGTH }) source!: string;
  @ApiProperty({ description: 'Whether the redirect is a draft, not served.' }) draft!: boolean;
  @ApiProperty() captureWildcard!: boolean;
  @ApiProperty({
    description: 'Served as 308 to public live traffic, 307 elsewhere; else always 307.',
  })
  permanent!: boolean;
  @ApiProperty({ oneOf: DESTINATION_SCHEMAS.map((schema) => ({ $ref: getSchemaPath(schema) })) })
  destination!: SiteRedirectDestination;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiPropertyOptional({ format: 'date-time', description: 'Absent until its first update.' })
  updatedAt?: string;
}

/** `getSiteRedirectBySource`'s answer. */
export class SiteRedirectBySourceResponse {
  @ApiProperty({ type: SiteRedirectResponse }) redirect!: SiteRedirectResponse;
  @ApiProperty({
    format: 'uri',
    description:
      "Absolute URL of the destination: on the site's published URL for a section, site " +
      'space or page, the URL itself for an external one; with what a wildcard captured.',
  })
  target!: string;
}

export const BULK_STATUSES = ['created', 'updated', 'deleted', 'published', 'error'] as const;
export type BulkStatus = (typeof BULK_STATUSES)[number];

/** How one item of `bulkUpsertSiteRedirects` went. */
export class SiteRedirectBulkResultResponse {
  @ApiProperty({ enum: BULK_STATUSES }) status!: BulkStatus;
  @ApiProperty({ maxLength: MAX_SOURCE_LENGTH }) source!: string;
  @ApiProperty({
    description: 'Whether the redirect written is a draft (always false once published).',
  })
  draft!: boolean;
  @ApiPropertyOptional({ description: 'The redirect written; absent when deleted or on error.' })
  id?: string;
  @ApiPropertyOptional({ description: 'Why the item was not processed (status `error`).' })
  error?: string;
}

export class BulkUpsertSiteRedirectsResponse {
  @ApiProperty({ type: [SiteRedirectBulkResultResponse], description: 'One per item, in order.' })
  results!: SiteRedirectBulkResultResponse[];
}
