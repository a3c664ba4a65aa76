import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString } from 'class-validator';
import { IsDocument } from '../../content-engine/documents/document-validation';
import type { JSONDocument } from '../../content-engine/documents/document';
import { RichDocumentSchema } from '../../orgs/agent-instructions/dto/agent-instructions.dto';
import { PresentNotNull } from '../../platform/validation/present-not-null';
import { PageQueryDto } from '../../platform/pagination/page-query.dto';
import { MaxChars } from '../../platform/validation/chars';
import { IgnoreUnknownProperties } from '../../platform/validation/validation.pipe';
import {
  CHANGE_REQUEST_STATUSES,
  type ChangeRequestStatus,
} from '../entities/change-request.entity';

/** The statuses a request may set; `merged` is reached only by merging. */
export const SETTABLE_STATUSES = ['draft', 'open', 'archived'] as const;
export type SettableStatus = (typeof SETTABLE_STATUSES)[number];

/**
 * `createChangeRequest`'s body. GitBook's takes "any other properties": those are dropped.
 * `status` is Bindery's addition (GitBook's body has none): `draft` starts it as a draft.
 */
@IgnoreUnknownProperties()
export class CreateChangeRequestDto {
  @ApiPropertyOptional({ maxLength: 100, description: 'Subject of the change request.' })
  @IsOptional()
  @IsString()
  @MaxChars(100)
  subject?: string;

  @ApiPropertyOptional({
    enum: ['draft', 'open'],
    default: 'open',
    description: 'Bindery extension: start the change request as a draft.',
  })
  @IsOptional()
  @IsIn(['draft', 'open'])
  status?: 'draft' | 'open';

  @ApiPropertyOptional({
    description:
      'Bindery extension: the id of the conversations issues cluster (of the same ' +
      'organization) the change request addresses.',
  })
  @IsOptional()
  @IsString()
  @MaxChars(64)
  conversationsIssuesCluster?: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'A template to apply to the new change request; not supported yet (400).',
  })
  @PresentNotNull()
  template?: unknown;
}

/** `updateChangeRequestById`'s body: absent = unchanged. */
export class UpdateChangeRequestDto {
  @ApiPropertyOptional({ maxLength: 100 })
  @PresentNotNull()
  @IsString()
  @MaxChars(100)
  subject?: string;

  @ApiPropertyOptional({ type: RichDocumentSchema })
  @PresentNotNull()
  @IsDocument()
  description?: JSONDocument;

  @ApiPropertyOptional({
    enum: SETTABLE_STATUSES,
    description:
      'draft ↔ open, draft or open → archived, archived → draft or open. `merged` comes only ' +
      'from merging, and a merged change request cannot change.',
  })
  @PresentNotNull()
  @IsIn(SETTABLE_STATUSES)
  status?: SettableStatus;
}

/** Query of both listings. Filters apply only when given; `status` defaults to `open`. */
export class ListChangeRequestsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: CHANGE_REQUEST_STATUSES, default: 'open' })
  @IsOptional()
  @IsIn(CHANGE_REQUEST_STATUSES)
  status?: ChangeRequestStatus;

  @ApiPropertyOptional({ description: 'Only those created by this user.' })
  @IsOptional()
  @IsString()
  @MaxChars(64)
  creator?: string;

  @ApiPropertyOptional({
    description: 'Only those this user contributed to (so far, only its creator contributes).',
  })
  @IsOptional()
  @IsString()
  @MaxChars(64)
  contributor?: string;

  @ApiPropertyOptional({
    description: 'Only those with a review requested from this user (none yet: nothing matches).',
  })
  @IsOptional()
  @IsString()
  @MaxChars(64)
  requestedReviewer?: string;

  @ApiPropertyOptional({
    description: 'Only those associated with this conversations issues cluster.',
  })
  @IsOptional()
  @IsString()
  @MaxChars(64)
  conversationsIssuesCluster?: string;
}
