import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { RevisionFileResponse } from '../../../spaces/content/dto/content.response';
import { ChangeRequestResponse } from '../../dto/change-request.response';

class ChangedPageUrls {
  @ApiProperty({ format: 'uri', description: 'API URL of the page in the change request.' })
  location!: string;
}

/** A page a write touched: re-read it through `urls.location` (content is normalized). */
export class ChangedPageResponse {
  @ApiProperty({ enum: ['page'] }) object!: 'page';
  @ApiProperty() id!: string;
  @ApiProperty({ type: ChangedPageUrls }) urls!: ChangedPageUrls;
}

export class CreatedPageChangeResponse {
  @ApiProperty({ enum: ['created_page'] }) object!: 'created_page';
  @ApiPropertyOptional({ description: 'The `ref` the insert gave the page.' }) ref?: string;
  @ApiProperty({ type: ChangedPageResponse }) page!: ChangedPageResponse;
}

export class UpdatedPageChangeResponse {
  @ApiProperty({ enum: ['updated_page'] }) object!: 'updated_page';
  @ApiProperty({ type: ChangedPageResponse }) page!: ChangedPageResponse;
}

export class DeletedPageChangeResponse {
  @ApiProperty({ enum: ['deleted_page'] }) object!: 'deleted_page';
  @ApiProperty({ description: 'ID of the deleted page.' }) page!: string;
}

export type PageChangeResponse =
  CreatedPageChangeResponse | UpdatedPageChangeResponse | DeletedPageChangeResponse;

/** `updateChangeRequestContent` with `compat=false`. */
@ApiExtraModels(CreatedPageChangeResponse, UpdatedPageChangeResponse, DeletedPageChangeResponse)
export class ChangeRequestContentUpdateResponse {
  @ApiProperty({ type: ChangeRequestResponse }) changeRequest!: ChangeRequestResponse;

  @ApiProperty({
    type: 'array',
    items: {
      oneOf: [
        { $ref: getSchemaPath(CreatedPageChangeResponse) },
        { $ref: getSchemaPath(UpdatedPageChangeResponse) },
        { $ref: getSchemaPath(DeletedPageChangeResponse) },
      ],
      discriminator: { propertyName: 'object' },
    },
    description:
      'One entry per page the request created, updated (content, metadata or place) or ' +
      'deleted, in the order the changes first touched them.',
  })
  changes!: PageChangeResponse[];

  @ApiPropertyOptional({ type: [RevisionFileResponse], description: 'The files inserted.' })
  insertedFiles?: RevisionFileResponse[];
}
