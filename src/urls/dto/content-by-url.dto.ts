import { ApiExtraModels, ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString } from 'class-validator';
import { ChangeRequestResponse } from '../../change-requests/dto/change-request.response';
import { CollectionResponse } from '../../collections/dto/collection.response';
import { MaxChars } from '../../platform/validation/chars';
import { RevisionPageResponse } from '../../spaces/content/dto/content.response';
import { SpaceResponse } from '../../spaces/dto/space.response';

export class ContentByUrlQueryDto {
  @ApiProperty({
    description:
      'URL to resolve: an app URL of Bindery (APP_URL: a collection, a space, a change request ' +
      'or a revision, then a page path) or a URL of a published site.',
    maxLength: 2048,
  })
  @IsString()
  @MaxChars(2048)
  url!: string;
}

/** GitBook's answer to `getContentByUrl`: a collection, or a space with what the URL names in it. */
@ApiExtraModels(CollectionResponse, SpaceResponse, ChangeRequestResponse, RevisionPageResponse)
export class ContentByUrlResponse {
  @ApiPropertyOptional({ type: CollectionResponse, description: 'The URL names a collection.' })
  collection?: CollectionResponse;

  @ApiPropertyOptional({ type: SpaceResponse, description: 'The URL names a space, or in it.' })
  space?: SpaceResponse;

  @ApiPropertyOptional({
    type: ChangeRequestResponse,
    description: 'The change request the URL names in the space.',
  })
  changeRequest?: ChangeRequestResponse;

  @ApiPropertyOptional({
    type: RevisionPageResponse,
    description:
      'The page the URL names: of the primary content, of the change request or of the ' +
      'revision; absent when the URL names the space (or change request) itself.',
  })
  page?: RevisionPageResponse;
}
