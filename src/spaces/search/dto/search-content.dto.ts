import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsString } from 'class-validator';
import { PageQueryDto } from '../../../platform/pagination/page-query.dto';
import { Chars } from '../../../platform/validation/chars';

/** `query` (1..512 characters once trimmed) with `page` and `limit`. */
export class SearchContentQueryDto extends PageQueryDto {
  @ApiProperty({
    minLength: 1,
    maxLength: 512,
    description:
      'The text to search for. Words match whole words (English stemming); the last word also ' +
      'matches as a prefix.',
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
  @ApiProperty({ description: 'Plain text of the section (at most 500 characters).' })
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

export class SearchOrganizationContentQueryDto extends SearchContentQueryDto {}

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
