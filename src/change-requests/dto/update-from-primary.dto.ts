import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  registerDecorator,
  ValidateNested,
} from 'class-validator';
import { documentProblem } from '../../content-engine/documents/document-validation';
import type { DocumentBlock } from '../../content-engine/documents/document';
import { MERGE_CONFLICT_KINDS, type MergeConflictKind } from '../../content-engine/merge/types';
import { ID_PATTERN } from '../../platform/ids/ids';
import { MaxChars } from '../../platform/validation/chars';
import { PresentNotNull } from '../../platform/validation/present-not-null';
import { SIDES, type Side } from '../merge/conflict-resolution';

/** Most resolutions in one update; a change request with more conflicts is resolved in several. */
export const MAX_RESOLUTIONS = 500;

/** The property is one top-level JSON document block (checked as a document holding it). */
function IsBlock(): PropertyDecorator {
  const problem = (value: unknown, property: string) =>
    documentProblem({ object: 'document', data: {}, nodes: [value] }, '@')?.replace(
      /^@\.nodes\[0\]/,
      property,
    ) ?? null;
  return (target, propertyName) =>
    registerDecorator({
      name: 'isBlock',
      target: target.constructor,
      propertyName: String(propertyName),
      options: { message: ({ value, property }) => problem(value, property) ?? '' },
      validator: { validate: (value: unknown, args) => !problem(value, args!.property) },
    });
}

/**
 * One conflict's resolution: which conflict (`pageId` with `blockKey` for a block, with `kind`
 * for a page-level one) and what to keep: one side's version (`keep`), a block merged by hand
 * (`block`), or, for a metadata conflict, a value for each field in conflict (`fields`).
 */
export class ConflictResolutionDto {
  @ApiProperty({ description: 'The page of the conflict.' })
  @IsString()
  @Matches(ID_PATTERN, { message: '$property must be a page id' })
  pageId!: string;

  @ApiPropertyOptional({
    description: 'A block conflict (block-edit, block-delete-edit, block-move): the block key.',
  })
  @IsOptional()
  @IsString()
  @MaxChars(200)
  blockKey?: string;

  @ApiPropertyOptional({
    enum: MERGE_CONFLICT_KINDS,
    description:
      'A page-level conflict: its kind. `metadata`, `document`, `delete-edit`, ' +
      '`parent-deleted` and `move-move` can be resolved; `cycle` and `insert-insert` need an ' +
      'edit of the change request.',
  })
  @IsOptional()
  @IsIn(MERGE_CONFLICT_KINDS)
  kind?: MergeConflictKind;

  @ApiPropertyOptional({
    enum: SIDES,
    description:
      "Keep this version of what is in conflict: the change request's, the primary's or the " +
      "merge base's. A block or page a version does not have is deleted. For `delete-edit`, " +
      '`parent-deleted` and `move-move` the page (its existence and place, with its subtree ' +
      'when it comes back) is kept as the change request or the primary has it, not the base.',
  })
  @IsOptional()
  @IsIn(SIDES)
  keep?: Side;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'A block conflict merged by hand: the block to keep (its key is `blockKey`).',
  })
  @PresentNotNull()
  @IsBlock()
  block?: DocumentBlock;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description:
      'A metadata conflict merged by hand: a value for each field in conflict (null removes it).',
  })
  @PresentNotNull()
  @IsObject()
  fields?: Record<string, unknown>;
}

/** updateChangeRequest's body, a Bindery extension: GitBook's operation takes none. */
export class UpdateFromPrimaryDto {
  @ApiPropertyOptional({
    type: [ConflictResolutionDto],
    maxItems: MAX_RESOLUTIONS,
    description:
      'Resolve the conflicts instead of answering them: one resolution per conflict. ' +
      'Absent or empty: an ordinary update.',
  })
  @PresentNotNull()
  @IsArray()
  @ArrayMaxSize(MAX_RESOLUTIONS)
  @ValidateNested({ each: true })
  @Type(() => ConflictResolutionDto)
  resolutions?: ConflictResolutionDto[];
}
