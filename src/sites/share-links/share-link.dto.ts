import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsString } from 'class-validator';
import { PresentNotNull } from '../../platform/validation/present-not-null';
import { MaxChars } from '../../platform/validation/chars';

/** `createSiteShareLink` body. */
export class CreateSiteShareLinkDto {
  @ApiProperty({ minLength: 0, maxLength: 50, description: 'Name of the share link.' })
  @IsString()
  @MaxChars(50)
  name!: string;
}

/** `updateSiteShareLinkById` body: at least one of the fields. */
export class UpdateSiteShareLinkDto {
  @ApiPropertyOptional({ description: 'false stops the link from opening the site.' })
  @PresentNotNull()
  @IsBoolean()
  active?: boolean;

  @ApiPropertyOptional({ minLength: 0, maxLength: 50 })
  @PresentNotNull()
  @IsString()
  @MaxChars(50)
  name?: string;
}

export class ShareLinkUrlsResponse {
  @ApiPropertyOptional({
    format: 'uri',
    description: 'The published site, opened by this link (its key as `shareKey`).',
  })
  published?: string;
}

/** GitBook's `ShareLink`. */
export class ShareLinkResponse {
  @ApiProperty({ enum: ['share-link'] }) object!: 'share-link';
  @ApiProperty() id!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ maxLength: 50 }) name!: string;
  @ApiProperty() active!: boolean;
  @ApiProperty({ type: ShareLinkUrlsResponse }) urls!: ShareLinkUrlsResponse;
}
