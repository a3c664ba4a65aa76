import { ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional } from 'class-validator';
import { PageQueryDto } from '../../../platform/pagination/page-query.dto';
import {
  PAGE_FORMATS,
  type DocumentReadOptions,
  type PageFormat,
} from '../../../content-engine/reads/content-reader';
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

/** GitBook's `format.markdown.refs`: how references are written in markdown. */
export const MARKDOWN_REFS_FORMATS = ['relative', 'stable'] as const;
export type MarkdownRefsFormat = (typeof MARKDOWN_REFS_FORMATS)[number];

/** `evaluated` and `dereferenced`, accepted by every read of a document. */
export class DocumentQueryDto {
  @ApiPropertyOptional({
    oneOf: [{ type: 'boolean' }, { type: 'string', enum: ['deterministic-only'] }],
    default: false,
    description:
      'Whether expressions are evaluated. Accepted; Bindery evaluates no expressions in ' +
      'documents: expressions, deterministic or not, and `if` blocks come as stored.',
  })
  @PresentNotNull()
  @Transform(toBoolean)
  @IsIn([true, false, 'deterministic-only'])
  evaluated?: boolean | 'deterministic-only';

  @ApiPropertyOptional({
    oneOf: [{ type: 'boolean' }, { type: 'string', enum: ['reusable-contents'] }],
    default: false,
    description:
      '`reusable-contents` (or `true`) replaces each reusable-content block with the blocks of ' +
      'the reusable content it includes from this revision (nested ones too; one of another ' +
      'space, or unknown, stays as stored). No other reference is expanded.',
  })
  @PresentNotNull()
  @Transform(toBoolean)
  @IsIn([true, false, 'reusable-contents'])
  dereferenced?: boolean | 'reusable-contents';
}

export class PageContentQueryDto extends IntersectionType(RevisionQueryDto, DocumentQueryDto) {
  @ApiPropertyOptional({
    enum: PAGE_FORMATS,
    default: 'document',
    description: 'Body of the page: a JSON document, or markdown.',
  })
  @IsOptional()
  @IsIn(PAGE_FORMATS)
  format?: PageFormat;

  @ApiPropertyOptional({
    name: 'format.markdown.refs',
    enum: MARKDOWN_REFS_FORMATS,
    default: 'relative',
    description:
      'How references are written in markdown (`format=markdown`). Accepted; links are ' +
      'written the same way whichever is asked.',
  })
  @IsOptional()
  @IsIn(MARKDOWN_REFS_FORMATS)
  'format.markdown.refs'?: MarkdownRefsFormat;
}

/** What a read's `dereferenced` asks of its documents (`evaluated` changes nothing). */
export function documentReadOptions(query: DocumentQueryDto): DocumentReadOptions {
  const dereferenced = query.dereferenced === true || query.dereferenced === 'reusable-contents';
  return { dereferenceReusableContents: dereferenced };
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
