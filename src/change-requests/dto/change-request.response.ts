import { ApiProperty, ApiPropertyOptional, PickType } from '@nestjs/swagger';
import { RichDocumentSchema } from '../../orgs/agent-instructions/dto/agent-instructions.dto';
import type { JSONDocument } from '../../content-engine/documents/document';
import { UserResponse } from '../../users/dto/user.response';
import { CHANGE_REQUEST_STATUSES } from '../entities/change-request.entity';

export class ChangeRequestUrlsResponse {
  @ApiProperty({ format: 'uri', description: 'URL of the change request in the application.' })
  app!: string;
  @ApiProperty({ format: 'uri', description: 'URL of the change request in the API.' })
  location!: string;
}

/** GitBook's `ChangeRequest`. */
export class ChangeRequestResponse {
  @ApiProperty({ enum: ['change-request'] }) object!: 'change-request';
  @ApiProperty() id!: string;
  @ApiProperty({ description: 'Incremental identifier within the space.' }) number!: number;
  @ApiProperty({ enum: CHANGE_REQUEST_STATUSES }) status!: string;
  @ApiProperty({ maxLength: 100 }) subject!: string;
  @ApiPropertyOptional({ type: RichDocumentSchema }) description?: JSONDocument;
  @ApiPropertyOptional({
    type: UserResponse,
    description: 'Absent once the creating user is gone.',
  })
  createdBy?: UserResponse;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
  @ApiProperty({ description: 'ID of the space.' }) space!: string;
  @ApiProperty({ description: 'ID of the active revision in the change request.' })
  revision!: string;
  @ApiProperty({ description: 'ID of the space revision it was created from.' })
  revisionInitial!: string;
  @ApiPropertyOptional({ description: 'ID of the primary revision it was last updated from.' })
  revisionMergedAncestor?: string;
  @ApiPropertyOptional({ description: 'When merged, ID of the revision the merge made.' })
  revisionMerged?: string;
  @ApiPropertyOptional({
    description: 'ID of the conversations issues cluster this change request addresses.',
  })
  conversationsIssuesCluster?: string;
  @ApiProperty({ description: 'Count of open comments.' }) comments!: number;
  @ApiProperty({ description: 'True when the primary content moved since it was last based.' })
  outdated!: boolean;
  @ApiProperty({ type: ChangeRequestUrlsResponse }) urls!: ChangeRequestUrlsResponse;
}

/** The fields GitBook requires of a `ChangeRequest` (0.146.0): what a reference embeds. */
export const CHANGE_REQUEST_SUMMARY_FIELDS = [
  'object',
  'id',
  'number',
  'status',
  'subject',
  'createdBy',
  'createdAt',
  'updatedAt',
  'space',
  'revision',
  'revisionInitial',
  'comments',
  'outdated',
  'urls',
] as const;

/**
 * A change request as a link location embeds it (its `versionContext`): GitBook's
 * `ChangeRequest` with its required fields only, without the description.
 */
export class ChangeRequestSummaryResponse extends PickType(
  ChangeRequestResponse,
  CHANGE_REQUEST_SUMMARY_FIELDS,
) {}
