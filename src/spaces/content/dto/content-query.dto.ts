import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional } from 'class-validator';
import { PageQueryDto } from '../../../platform/pagination/page-query.dto';
import { PAGE_FORMATS, type PageFormat } from '../../../content-engine/reads/content-reader';
import { PresentNotNull } from '../../../platform/validation/present-not-null';

const toBoolean = ({ value }: { value: unknown }) =>
  value === 'true' ? true : value === 'false' ? false : value;

/** `metadata` and `computed`, accepted by every read of revision content. */
export class RevisionQueryDto {
  @ApiPropertyOptional({
    type: Boolean,
    default: true,
    description: 'false leaves out mutable Git metadata (`git` blocks).',
  })
  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean()
  metadata?: boolean;

  @ApiPropertyOptional({
    type: Boolean,
    default: true,
    description: 'false returns computed content without computing it.',
  })
  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean()
  computed?: boolean;
}

export class PageContentQueryDto extends RevisionQueryDto {
  @ApiPropertyOptional({
    enum: PAGE_FORMATS,
    default: 'document',
    description: 'Body of the page: a JSON document, or markdown.',
  })
  @IsOptional()
  @IsIn(PAGE_FORMATS)
  format?: PageFormat;

  @ApiPropertyOptional({
    oneOf: [{ type: 'boolean' }, { type: 'string', enum: ['deterministic-only'] }],
    default: false,
    description: 'Whether expressions are evaluated (accepted; documents are returned as stored).',
  })
  @PresentNotNull()
  @Transform(toBoolean)
  @IsIn([true, false, 'deterministic-only'])
  evaluated?: boolean | 'deterministic-only';
}

export class ListFilesQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ type: Boolean, default: true })
  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean()
  metadata?: boolean;

  @ApiPropertyOptional({ type: Boolean, default: true })
  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean()
  computed?: boolean;
}
