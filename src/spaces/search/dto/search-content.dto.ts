import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional, IsString } from 'class-validator';
import { PageQueryDto } from '../../../platform/pagination/page-query.dto';
import { Chars, MaxChars } from '../../../platform/validation/chars';

/** `query` (1..512 characters once trimmed) with `page` and `limit`. */
export class SearchContentQueryDto extends PageQueryDto {
  @ApiProperty({
    minLength: 1,
    maxLength: 512,
    description:
      'The text to search for. Words match whole words, folded (case, accents, ß = ss) and ' +
      'stemmed in the language of the space; Chinese, Japanese, Korean and Thai are matched ' +
      'inside sentences. The last word also matches as a prefix. When the words find fewer ' +
      'than 3 pages, words within one or two typos of them are searched too, their hits ' +
      'ranked below the exact ones.',
  })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  @IsString()
  @Chars(1, 512)
  query!: string;
}

class SearchUrls {
  @ApiProperty({ format: 'uri' }) app!: string;
}

class SearchAncestor {
  @ApiProperty() title!: string;
}

/** GitBook's `SearchSectionResult`: a section (a page split at its headings) that matched. */
export class SearchSectionResultResponse {
  @ApiProperty({ description: 'The heading’s anchor, or the page id for the page’s lead.' })
  id!: string;
  @ApiProperty() title!: string;
  @ApiProperty({ description: 'The page’s path, with `#anchor` for a heading’s section.' })
  path!: string;
  @ApiProperty({
    description:
      'The passage of the section around its best hit, at most 300 characters, `…` where it ' +
      'cuts the text; in member searches (searchSpaceContent, searchOrganizationContent) each ' +
      'hit is marked as Markdown strong emphasis, `**hit**`; searchSiteContent leaves hits ' +
      'unmarked, as the site renderer highlights the query itself. A section found by its ' +
      'title shows its opening text (its title when it has none).',
  })
  body!: string;
  @ApiProperty({ type: SearchUrls }) urls!: SearchUrls;
}

/** GitBook's `SearchPageResult`, with the seed's `ancestors`. */
export class SearchPageResultResponse {
  @ApiProperty() id!: string;
  @ApiProperty() title!: string;
  @ApiProperty() path!: string;
  @ApiPropertyOptional({ type: [SearchSectionResultResponse] })
  sections?: SearchSectionResultResponse[];
  @ApiProperty({ type: [SearchAncestor], description: 'The pages above this one, top first.' })
  ancestors!: SearchAncestor[];
  @ApiProperty({ type: SearchUrls }) urls!: SearchUrls;
}

/** `searchOrganizationContent`'s query, with Bindery's `spaceId` to page into one space. */
export class SearchOrganizationContentQueryDto extends SearchContentQueryDto {
  @ApiPropertyOptional({
    maxLength: 64,
    description:
      'Bindery extension: search this space only (when the caller may read it), answering ' +
      'it as the only item with a page of its matching pages: `limit` and `next` page ' +
      'through them, and `count` is their number. Without it, each space shows its best 10 ' +
      'pages.',
  })
  @IsOptional()
  @IsString()
  @MaxChars(64)
  spaceId?: string;
}

/** GitBook's `SearchSpaceResult`: a space with its best matching pages. */
export class SearchSpaceResultResponse {
  @ApiProperty() id!: string;
  @ApiProperty() title!: string;
  @ApiProperty({
    type: [SearchPageResultResponse],
    description: 'The space’s best matching pages, best first (at most 10).',
  })
  pages!: SearchPageResultResponse[];
}

/** GitBook's newer `SearchSectionResult` (0.201), with its `score`. */
export class ScoredSearchSectionResultResponse extends SearchSectionResultResponse {
  @ApiProperty({ minimum: 0, description: 'Relevance of the section; higher is better.' })
  score!: number;
}

/** GitBook's newer `SearchPageResult` (0.201): with its `score`, `rank` and `description`. */
export class ScoredSearchPageResultResponse {
  @ApiProperty() id!: string;
  @ApiProperty() title!: string;
  @ApiProperty({
    description: 'The page’s description; empty, as the search index keeps no descriptions.',
  })
  description!: string;
  @ApiProperty() path!: string;
  @ApiProperty({ minimum: 0, description: 'Relevance of the page; higher is better.' })
  score!: number;
  @ApiProperty({
    minimum: 1,
    description: 'Position of the page among all the matching pages searched, best first.',
  })
  rank!: number;
  @ApiProperty({ type: [ScoredSearchSectionResultResponse] })
  sections!: ScoredSearchSectionResultResponse[];
  @ApiProperty({ type: [SearchAncestor], description: 'The pages above this one, top first.' })
  ancestors!: SearchAncestor[];
  @ApiProperty({ type: SearchUrls }) urls!: SearchUrls;
}

/** GitBook's newer `SearchSpaceResult` (0.201): a space with its best pages, scored. */
export class ScoredSearchSpaceResultResponse {
  @ApiProperty({ enum: ['space'] }) type!: 'space';
  @ApiProperty({ description: 'The space’s id.' }) id!: string;
  @ApiProperty() title!: string;
  @ApiProperty({ minimum: 0, description: 'Relevance of the space’s best page.' })
  score!: number;
  @ApiProperty({
    type: [ScoredSearchPageResultResponse],
    description: 'The space’s best matching pages, best first (at most 10).',
  })
  pages!: ScoredSearchPageResultResponse[];
}
