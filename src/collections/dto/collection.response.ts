import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { DEFAULT_LEVELS } from './collection.dto';

export class CollectionPermissionsResponse {
  @ApiProperty({ description: 'Can the user view the collection.' }) view!: boolean;
  @ApiProperty({ description: 'Can the user edit the title/description.' }) admin!: boolean;
  @ApiProperty({ description: 'Can the user view the invite links of the collection.' })
  viewInviteLinks!: boolean;
  @ApiProperty({ description: 'Can the user create spaces/collections in this collection.' })
  create!: boolean;
}

export class CollectionUrlsResponse {
  @ApiProperty({ format: 'uri' }) location!: string;
  @ApiProperty({ format: 'uri' }) app!: string;
}

/** GitBook's `Collection`. */
export class CollectionResponse {
  @ApiProperty({ enum: ['collection'] }) object!: 'collection';
  @ApiProperty() id!: string;
  @ApiProperty({ maxLength: 50 }) title!: string;
  @ApiPropertyOptional({ maxLength: 100 }) description?: string;
  @ApiProperty({ description: 'ID of the organization owning this collection.' })
  organization!: string;
  @ApiPropertyOptional({ description: 'ID of the parent collection, if any.' }) parent?: string;
  @ApiProperty({ enum: DEFAULT_LEVELS, nullable: true }) defaultLevel!: string | null;
  @ApiProperty({ type: CollectionUrlsResponse }) urls!: CollectionUrlsResponse;
  @ApiProperty({ type: CollectionPermissionsResponse })
  permissions!: CollectionPermissionsResponse;
}
