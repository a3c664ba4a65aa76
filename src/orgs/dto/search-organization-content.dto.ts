import { ApiProperty } from '@nestjs/swagger';
import {
  SearchContentQueryDto,
  SearchPageResultResponse,
} from '../../spaces/search/dto/search-content.dto';

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
