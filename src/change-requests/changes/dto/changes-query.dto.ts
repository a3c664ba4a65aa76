import { ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { MAX_PAGE_SIZE } from '../../../platform/pagination/page-query.dto';
import { MaxChars } from '../../../platform/validation/chars';
import { RevisionQueryDto } from '../../../spaces/content/dto/content-query.dto';

/** GitBook's default number of semantic changes listed. */
export const DEFAULT_CHANGES_LIMIT = 10;

/** `limit` of getChangeRequestChanges. */
export class ChangesQueryDto {
  @ApiPropertyOptional({
    description: 'How many changes to list; `more` counts those left out.',
    minimum: 1,
    maximum: MAX_PAGE_SIZE,
    default: DEFAULT_CHANGES_LIMIT,
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE_SIZE)
  limit?: number;
}

/**
 * getRevisionSemanticChanges: `limit`, and `metadata` and `computed` as every read of revision
 * content accepts them (changes carry no Git metadata and nothing computed: they change nothing).
 */
export class RevisionChangesQueryDto extends IntersectionType(RevisionQueryDto, ChangesQueryDto) {}

/** getRevisionPageDiff: the revision to compare with, when not the first parent. */
export class RevisionPageDiffQueryDto {
  @ApiPropertyOptional({
    description:
      'ID of a revision of the same space to compare with (the earlier side); by default the ' +
      "revision's first parent (none for a space's first revision: every block is added).",
  })
  @IsOptional()
  @IsString()
  @MaxChars(64)
  from?: string;
}
