import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { BLOCK_STATUSES, type BlockStatus } from '../../../content-engine/diff/block-diff';
import { MAX_INLINE_EDITS } from '../../../content-engine/diff/inline-diff';
import type { DocumentBlock } from '../../../content-engine/documents/document';
import { RevisionPageResponse } from '../../../spaces/content/dto/content.response';

export class InlineSegmentResponse {
  @ApiProperty({
    enum: ['equal', 'insert', 'delete'],
    description: 'In both versions, in the new one only, or in the old one only.',
  })
  op!: 'equal' | 'insert' | 'delete';
  @ApiProperty() text!: string;
}

const BLOCK_SCHEMA = {
  type: 'object',
  additionalProperties: true,
  description: 'A top-level block of the document, as the document reads give it.',
} as const;

/** A top-level block of the page compared between the two versions. */
export class BlockDiffEntryResponse {
  @ApiProperty({
    enum: BLOCK_STATUSES,
    description:
      '`moved`: the same content in another order relative to the other blocks; `changed`: ' +
      'new content (with `moved: true` when it moved too).',
  })
  status!: BlockStatus;
  @ApiPropertyOptional({ description: 'Its key, when it has one.' }) key?: string;
  @ApiProperty({ description: 'Its block type (`paragraph`, `heading-1`, …).' }) type!: string;
  @ApiPropertyOptional({ ...BLOCK_SCHEMA, description: 'The old block (removed, changed).' })
  before?: DocumentBlock;
  @ApiPropertyOptional({
    ...BLOCK_SCHEMA,
    description: 'The new block (added, changed, moved, unchanged).',
  })
  after?: DocumentBlock;
  @ApiPropertyOptional({ description: 'A changed block that also moved.' }) moved?: true;
  @ApiPropertyOptional({
    type: [InlineSegmentResponse],
    description:
      `A changed block's text, word by word: what stayed, what came, what went (past ` +
      `${MAX_INLINE_EDITS} word edits, the old text deleted and the new one inserted, whole).`,
  })
  inline?: InlineSegmentResponse[];
}

export class PageDiffStatsResponse {
  @ApiProperty() added!: number;
  @ApiProperty() removed!: number;
  @ApiProperty() changed!: number;
  @ApiProperty() moved!: number;
  @ApiProperty() unchanged!: number;
}

export class PageDiffRevisionsResponse {
  @ApiPropertyOptional({ description: 'The earlier revision; absent when there is none.' })
  before?: string;
  @ApiProperty({ description: 'The later revision.' }) after!: string;
}

/** Bindery's block-level diff of one page between two revisions. */
export class PageDiffResponse {
  @ApiProperty({ enum: ['page-diff'] }) object!: 'page-diff';
  @ApiProperty({ description: 'ID of the page.' }) page!: string;
  @ApiProperty({ type: PageDiffRevisionsResponse }) revisions!: PageDiffRevisionsResponse;
  @ApiPropertyOptional({
    type: RevisionPageResponse,
    description: 'The page in the earlier revision (without subpages or body); absent: created.',
  })
  before?: RevisionPageResponse;
  @ApiPropertyOptional({
    type: RevisionPageResponse,
    description: 'The page in the later revision (without subpages or body); absent: deleted.',
  })
  after?: RevisionPageResponse;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'object', properties: { before: {}, after: {} } },
    description:
      "What changed of the page itself, as getChangeRequestChanges' `page_edited` says it; {} " +
      'when the page is on one side only.',
  })
  attributes!: Record<string, { before?: unknown; after?: unknown }>;
  @ApiProperty({
    type: [BlockDiffEntryResponse],
    description:
      'Every top-level block, in the order of the later version, unchanged ones included (a ' +
      'review shows them as context); a removed block follows the block it followed before.',
  })
  blocks!: BlockDiffEntryResponse[];
  @ApiProperty({ type: PageDiffStatsResponse }) stats!: PageDiffStatsResponse;
}
