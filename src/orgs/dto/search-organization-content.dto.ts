import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsString } from 'class-validator';
import { PageQueryDto } from '../../platform/pagination/page-query.dto';
import { Chars } from '../../platform/validation/chars';

export class SearchOrganizationContentQueryDto extends PageQueryDto {
  @ApiProperty({ minLength: 1, maxLength: 512, description: 'The text to search for.' })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  @IsString()
  @Chars(1, 512)
  query!: string;
}

class SearchUrls {
  @ApiProperty({ format: 'uri' }) app!: string;
}

/** GitBook's `SearchSectionResult`: a section (a page split at its headings) that matched. */
export class SearchSectionResultResponse {
  @ApiProperty() id!: string;
  @ApiProperty() title!: string;
  @ApiProperty() path!: string;
  @ApiProperty() body!: string;
  @ApiProperty({ type: SearchUrls }) urls!: SearchUrls;
}

/** GitBook's `SearchPageResult`. */
export class SearchPageResultResponse {
  @ApiProperty() id!: string;
  @ApiProperty() title!: string;
  @ApiProperty() path!: string;
  @ApiPropertyOptional({ type: [SearchSectionResultResponse] })
  sections?: SearchSectionResultResponse[];
  @ApiProperty({ type: SearchUrls }) urls!: SearchUrls;
}

/** GitBook's `SearchSpaceResult`: a space with its matching pages. */
export class SearchSpaceResultResponse {
  @ApiProperty() id!: string;
  @ApiProperty() title!: string;
  @ApiProperty({ type: [SearchPageResultResponse] }) pages!: SearchPageResultResponse[];
}
