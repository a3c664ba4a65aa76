import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PAGE_TYPES } from '../../../content-engine/tree/format';
import {
  PRESENTED_CHANGE_REQUEST_SCHEMA,
  type PresentedChangeRequest,
} from '../../../spaces/content/merged-change-requests';

export const SEMANTIC_CHANGE_TYPES = [
  'page_created',
  'page_edited',
  'page_deleted',
  'page_moved',
  'file_created',
  'file_edited',
  'file_deleted',
  'variables_edited',
  'reusable_content_created',
  'reusable_content_deleted',
  'reusable_content_edited',
] as const;
export type SemanticChangeType = (typeof SEMANTIC_CHANGE_TYPES)[number];

/** GitBook's `ChangedRevisionPage`: a page as a change names it. */
export class ChangedRevisionPageResponse {
  @ApiProperty() id!: string;
  @ApiProperty({ enum: PAGE_TYPES }) type!: string;
  @ApiProperty() title!: string;
  @ApiPropertyOptional({ description: 'Its path (document and group pages).' }) path?: string;
}

/** GitBook's `ChangedRevisionFile`. */
export class ChangedRevisionFileResponse {
  @ApiProperty() id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() contentType!: string;
  @ApiProperty() downloadURL!: string;
}

/** GitBook's `ChangedRevisionReusableContent`. */
export class ChangedRevisionReusableContentResponse {
  @ApiProperty() id!: string;
  @ApiProperty() title!: string;
  @ApiPropertyOptional({ description: 'Document of its content; absent when it is empty.' })
  document?: string;
}

/** The parents of a moved page; a side without one (the top level) has no key. */
export class PageMoveParentsResponse {
  @ApiPropertyOptional({ type: ChangedRevisionPageResponse }) before?: ChangedRevisionPageResponse;
  @ApiPropertyOptional({ type: ChangedRevisionPageResponse }) after?: ChangedRevisionPageResponse;
}

/** GitBook's `ChangeAttribute…`: a value before and after; a side without one has no key. */
const CHANGE_ATTRIBUTES_SCHEMA = {
  type: 'object',
  additionalProperties: {
    type: 'object',
    properties: { before: {}, after: {} },
  },
} as const;

/**
 * GitBook's `RevisionSemanticChange`, one class for its variants (by `type`): `page_*` carry
 * `page` (`page_edited` its changed `attributes`: title, description, slug, document (its id),
 * cover, emoji, layout, variables of a document page; title, emoji, slug of a group; title,
 * emoji, target of a link; `page_moved` its `parent` before and after); `file_*` carry `file`
 * (`file_edited`: name, downloadURL (new bytes), size, contentType, dimensions);
 * `reusable_content_*` carry `reusableContent` (`…_edited`: title, document); `variables_edited`
 * the `variables` that changed.
 */
export class RevisionSemanticChangeResponse {
  @ApiProperty({ enum: SEMANTIC_CHANGE_TYPES }) type!: SemanticChangeType;
  @ApiPropertyOptional({ type: ChangedRevisionPageResponse }) page?: ChangedRevisionPageResponse;
  @ApiPropertyOptional({ ...CHANGE_ATTRIBUTES_SCHEMA, description: 'What changed, by name.' })
  attributes?: Record<string, { before?: unknown; after?: unknown }>;
  @ApiPropertyOptional({ type: PageMoveParentsResponse }) parent?: PageMoveParentsResponse;
  @ApiPropertyOptional({ type: ChangedRevisionFileResponse }) file?: ChangedRevisionFileResponse;
  @ApiPropertyOptional({ type: ChangedRevisionReusableContentResponse })
  reusableContent?: ChangedRevisionReusableContentResponse;
  @ApiPropertyOptional({
    ...CHANGE_ATTRIBUTES_SCHEMA,
    description: 'The variables that changed, by name.',
  })
  variables?: Record<string, { before?: unknown; after?: unknown }>;
}

/** GitBook's `RevisionSemanticChanges`. */
export class RevisionSemanticChangesResponse {
  @ApiPropertyOptional({
    allOf: [{ $ref: PRESENTED_CHANGE_REQUEST_SCHEMA }],
    description: 'On a merge revision, the change request it merged.',
  })
  mergedFrom?: PresentedChangeRequest;
  @ApiProperty({
    type: [RevisionSemanticChangeResponse],
    description:
      'Pages (those edited in place in the order of the later tree, then the created, ' +
      'deleted and moved ones, level by level), then files, reusable contents and variables.',
  })
  changes!: RevisionSemanticChangeResponse[];
  @ApiProperty({ description: 'How many changes were left out over `limit` (0: none).' })
  more!: number;
}
