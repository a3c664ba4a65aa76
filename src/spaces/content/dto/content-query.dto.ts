import { ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional } from 'class-validator';
import { PageQueryDto } from '../../../platform/pagination/page-query.dto';
import {
  PAGE_FORMATS,
  type DocumentReadOptions,
  type PageFormat,
} from '../../../content-engine/reads/content-reader';
import { MARKDOWN_REFS, type MarkdownRefs } from '../../../content-engine/refs/markdown-refs';
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
    enum: MARKDOWN_REFS,
    default: 'relative',
    description:
      'How references are written in markdown (`format=markdown`). In both forms a file of ' +
      'the space is its download URL, which a reader fetches without a token. `relative`: ' +
      'links to pages of the space are paths relative to the page, as Git Sync lays the space ' +
      'out (`../install/README.md#step-2`); other refs in the stable form. `stable`: every ref ' +
      'by its identifiers: `/pages/<pageId>[#anchor]`, `/spaces/<spaceId>/pages/<pageId>`, ' +
      '`/reusable-contents/<id>`, `/users/<userId>`, `/spaces/<spaceId>`, `/collections/<id>`. ' +
      'Both forms, and the download URLs, are read back to the same refs when the markdown is ' +
      'written into the space.',
  })
  @IsOptional()
  @IsIn(MARKDOWN_REFS)
  'format.markdown.refs'?: MarkdownRefs;
}

/**
 * What a read's `dereferenced` asks of its documents (`evaluated` changes nothing), and
 * `format.markdown.refs` of its markdown.
 */
export function documentReadOptions(
  query: DocumentQueryDto & { 'format.markdown.refs'?: MarkdownRefs },
): DocumentReadOptions {
  const dereferenced = query.dereferenced === true || query.dereferenced === 'reusable-contents';
  return {
    dereferenceReusableContents: dereferenced,
    ...(query['format.markdown.refs'] ? { markdownRefs: query['format.markdown.refs'] } : {}),
  };
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
