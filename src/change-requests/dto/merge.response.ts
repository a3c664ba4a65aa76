import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { MERGE_CONFLICT_KINDS } from '../../content-engine/merge/types';

const BLOCK_SCHEMA = {
  type: 'object',
  additionalProperties: true,
  nullable: true,
  description: 'The block as a JSON document block; null where that version has no such block.',
} as const;

/** One block in conflict, as the merge base, the change request and the primary have it. */
export class ConflictBlockVersions {
  @ApiProperty({ description: 'Key of the top-level block.' }) key!: string;
  @ApiProperty(BLOCK_SCHEMA) base!: object | null;
  @ApiProperty(BLOCK_SCHEMA) changeRequest!: object | null;
  @ApiProperty(BLOCK_SCHEMA) primary!: object | null;
}

/** A page as one version has it, for a page-level conflict. */
export class ConflictPageVersion {
  @ApiProperty({ type: String, nullable: true, description: 'Null for pages without a title.' })
  title!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Parent page; null at the top.' })
  parentId!: string | null;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'For `metadata`: the value of each field in conflict (null: not set).',
  })
  fields?: Record<string, unknown>;
}

const PAGE_VERSION = {
  type: ConflictPageVersion,
  nullable: true,
  description: 'Null where that version does not have the page.',
};

/** The page in conflict in each version. */
export class ConflictPageVersions {
  @ApiProperty(PAGE_VERSION) base!: ConflictPageVersion | null;
  @ApiProperty(PAGE_VERSION) changeRequest!: ConflictPageVersion | null;
  @ApiProperty(PAGE_VERSION) primary!: ConflictPageVersion | null;
}

/** A page (and, for block conflicts, its top-level blocks) changed differently on both sides. */
export class MergeConflictResponse {
  @ApiProperty({ description: 'ID of the page in conflict.' }) pageId!: string;
  @ApiProperty({ enum: MERGE_CONFLICT_KINDS }) kind!: string;
  @ApiProperty({ type: [String], description: 'Keys of the top-level blocks involved.' })
  blockKeys!: string[];
  @ApiPropertyOptional({ type: [String], description: 'Metadata fields changed on both sides.' })
  fields?: string[];
  @ApiPropertyOptional({
    type: [ConflictBlockVersions],
    description: 'Block conflicts: each block of `blockKeys` in the three versions.',
  })
  blocks?: ConflictBlockVersions[];
  @ApiPropertyOptional({
    type: ConflictPageVersions,
    description: 'Page-level conflicts: the page in the three versions.',
  })
  page?: ConflictPageVersions;
}

/** getChangeRequestConflicts: what merging the change request would conflict on. */
export class ChangeRequestConflictsResponse {
  @ApiProperty({
    type: [MergeConflictResponse],
    description: 'Empty when the change request merges cleanly.',
  })
  conflicts!: MergeConflictResponse[];
}

/** GitBook's mergeChangeRequest response, with the conflicts listed. */
export class MergeResponse {
  @ApiProperty({ description: 'ID of the resulting revision (the primary, on conflicts).' })
  revision!: string;
  @ApiProperty({ enum: ['merge', 'conflicts'] }) result!: 'merge' | 'conflicts';
  @ApiPropertyOptional({ type: [MergeConflictResponse], description: 'Bindery: on conflicts.' })
  conflicts?: MergeConflictResponse[];
}

/** GitBook's updateChangeRequest response, with the conflicts listed. */
export class UpdateFromPrimaryResponse {
  @ApiProperty({
    description: "ID of the change request's resulting revision (its current one, on conflicts).",
  })
  revision!: string;
  @ApiProperty({ enum: ['update', 'conflicts'] }) result!: 'update' | 'conflicts';
  @ApiPropertyOptional({ type: [MergeConflictResponse], description: 'Bindery: on conflicts.' })
  conflicts?: MergeConflictResponse[];
}
