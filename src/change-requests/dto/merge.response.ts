import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { MERGE_CONFLICT_KINDS } from '../../content-engine/merge/types';

/** A page (and, for block conflicts, its top-level blocks) changed differently on both sides. */
export class MergeConflictResponse {
  @ApiProperty({ description: 'ID of the page in conflict.' }) pageId!: string;
  @ApiProperty({ enum: MERGE_CONFLICT_KINDS }) kind!: string;
  @ApiProperty({ type: [String], description: 'Keys of the top-level blocks involved.' })
  blockKeys!: string[];
  @ApiPropertyOptional({ type: [String], description: 'Metadata fields changed on both sides.' })
  fields?: string[];
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
