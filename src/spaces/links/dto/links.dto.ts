import { ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { OrganizationSummaryResponse } from '../../../orgs/dto/organization.response';
import { PageQueryDto } from '../../../platform/pagination/page-query.dto';
import { SpaceSummaryResponse } from '../../dto/space.response';
import { RevisionFileResponse, RevisionPageResponse } from '../../content/dto/content.response';
import type { PresentedChangeRequest } from '../../content/merged-change-requests';
import { LINK_STATUSES, type LinkStatus } from '../../../content-engine/links/link-analysis';

export class ListLinksQueryDto extends PageQueryDto {
  @ApiPropertyOptional({
    enum: LINK_STATUSES,
    description:
      'Only links with this status: `ok`, `broken` (the target does not exist in the ' +
      'revision) or `in-app` (a URL pointing into the app).',
  })
  @IsOptional()
  @IsIn(LINK_STATUSES)
  status?: LinkStatus;
}

export class ContentLocationInPageResponse {
  @ApiProperty({ enum: ['anchor', 'node'] }) type!: 'anchor' | 'node';
  @ApiPropertyOptional({ description: 'The anchor within the page (`type: anchor`).' })
  anchor?: string;
  @ApiPropertyOptional({ description: 'The key of the node within the page (`type: node`).' })
  node?: string;
}

/**
 * The API document's schema of the change request a location names: the change-requests
 * module's summary (registered by its content controller), which this layer cannot import.
 */
const CHANGE_REQUEST_SUMMARY_SCHEMA = getSchemaPath('ChangeRequestSummaryResponse');

/** GitBook's `ContentLocationChangeRequestContext`: the location is in a change request. */
export class ContentLocationVersionContextResponse {
  @ApiProperty({ enum: ['changeRequest'] }) type!: 'changeRequest';
  @ApiProperty({
    allOf: [{ $ref: CHANGE_REQUEST_SUMMARY_SCHEMA }],
    description: 'The change request, with the fields GitBook requires only.',
  })
  changeRequest!: PresentedChangeRequest;
}

/**
 * GitBook's `ContentLocation`, one class for the variants Bindery sends (by `kind`): `page`
 * (`organization`, `space`, `versionContext?`, `page`, `internalLocation?`), `file`
 * (`organization`, `space`, `versionContext?`, `file`) and `url` (`url`).
 */
export class ContentLocationResponse {
  @ApiProperty({ enum: ['page', 'file', 'url'] }) kind!: 'page' | 'file' | 'url';
  @ApiPropertyOptional({
    type: OrganizationSummaryResponse,
    description: 'The organization, with the fields GitBook requires only.',
  })
  organization?: OrganizationSummaryResponse;
  @ApiPropertyOptional({
    type: SpaceSummaryResponse,
    description: 'The space, with the fields GitBook requires only.',
  })
  space?: SpaceSummaryResponse;
  @ApiPropertyOptional({
    type: ContentLocationVersionContextResponse,
    description: "The change request whose content this is; absent for the space's primary.",
  })
  versionContext?: ContentLocationVersionContextResponse;
  @ApiPropertyOptional({
    type: RevisionPageResponse,
    description: 'The page, without its subpages (`pages` is empty).',
  })
  page?: RevisionPageResponse;
  @ApiPropertyOptional({ type: ContentLocationInPageResponse })
  internalLocation?: ContentLocationInPageResponse;
  @ApiPropertyOptional({ type: RevisionFileResponse }) file?: RevisionFileResponse;
  @ApiPropertyOptional() url?: string;
}

/** GitBook's `ContentReferenceUsage`: a link target and where it is referenced. */
export class ContentReferenceUsageResponse {
  @ApiProperty({ enum: LINK_STATUSES }) status!: LinkStatus;
  @ApiProperty({ enum: ['reference', 'dependsOn'] }) relation!: 'reference' | 'dependsOn';
  @ApiPropertyOptional({
    type: ContentLocationResponse,
    description:
      'The target. A page the revision no longer has is named as the nearest earlier revision ' +
      'had it (its URL opens that revision), a path that matches no page as the URL written. ' +
      'Absent when it cannot be shown: a page no recent revision has, a missing file, or ' +
      'content outside the space (another space, a user, a collection, an OpenAPI spec).',
  })
  targetReference?: ContentLocationResponse;
  @ApiProperty({
    type: [ContentLocationResponse],
    description: 'The pages (and nodes within them) where the target is referenced.',
  })
  locationReferences!: ContentLocationResponse[];
}

class BrokenLinksStats {
  @ApiProperty({ description: 'Count of broken links.' }) total!: number;
  @ApiPropertyOptional({
    description:
      'Listings of a change request only: count of the broken links that the revision it was ' +
      'last based on does not have broken at the same places.',
  })
  changeRequest?: number;
}

export class ContentReferencesStatsResponse {
  @ApiProperty({ description: 'Count of links (all statuses).' }) total!: number;
  @ApiProperty({ type: BrokenLinksStats }) broken!: BrokenLinksStats;
}

class NextLinksPage {
  @ApiProperty({ description: 'Pass as the `page` query parameter to fetch the next page.' })
  page!: string;
}

export class ContentReferencesPageResponse {
  @ApiProperty({ type: [ContentReferenceUsageResponse] }) items!: ContentReferenceUsageResponse[];
  @ApiProperty({ description: 'Number of links in the list (after the status filter).' })
  count!: number;
  @ApiPropertyOptional({ type: NextLinksPage, description: 'Absent on the last page.' })
  next?: NextLinksPage;
  @ApiProperty({
    type: ContentReferencesStatsResponse,
    description: 'Counts over every link of the listing, whatever the status filter.',
  })
  stats!: ContentReferencesStatsResponse;
}
