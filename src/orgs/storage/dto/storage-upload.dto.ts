import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsIn,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  Min,
  ValidateNested,
} from 'class-validator';
import { Chars } from '../../../platform/validation/chars';
import { STORAGE_UPLOAD_KINDS, type StorageUploadKind } from '../storage-uploads';

/** GitBook's `StorageFileMetadata`: what the client says of the file it will send. */
export class StorageFileMetadataDto {
  @ApiProperty({ description: 'Original filename.', example: 'BrandSans-Regular.woff2' })
  @IsString()
  @Chars(1, 255)
  name!: string;

  @ApiProperty({
    description: 'MIME type of the file (informative: Bindery reads the type from the bytes).',
    example: 'font/woff2',
  })
  @IsString()
  @Chars(0, 255)
  type!: string;

  @ApiProperty({
    description:
      'Size of the file in bytes; at most CUSTOM_FONT_MAX_BYTES for a font, ' +
      'IMPORT_FILE_MAX_BYTES for a file to import.',
    example: 48212,
  })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  size!: number;
}

/** Body of `generateStorageUploadURL`. */
export class GenerateStorageUploadUrlDto {
  @ApiProperty({ type: StorageFileMetadataDto })
  @IsObject()
  @ValidateNested()
  @Type(() => StorageFileMetadataDto)
  file!: StorageFileMetadataDto;

  @ApiProperty({
    enum: STORAGE_UPLOAD_KINDS,
    description:
      'What the file is for. Bindery takes `customization_font` (a custom font) and ' +
      '`import_file` (a file to import: its `file.name` ends in .md, .markdown, .html, .htm, ' +
      '.docx or .zip).',
  })
  @IsIn(STORAGE_UPLOAD_KINDS, {
    message: `kind must be one of ${STORAGE_UPLOAD_KINDS.join(', ')}`,
  })
  kind!: StorageUploadKind;
}

/** GitBook's `StorageUploadURL`. */
export class StorageUploadUrlResponse {
  @ApiProperty({ enum: ['storage-signed-url'] }) object!: 'storage-signed-url';

  @ApiProperty({
    format: 'uri',
    description:
      'Where to send the file: a PUT of its bytes, without a token, within an hour. 400 when ' +
      'they are not a file of the kind, 413 past its size.',
  })
  url!: string;

  @ApiProperty({ description: 'The key to name the file by once sent (`storageKey`).' })
  key!: string;
}

/**
 * The query of an upload URL. Every part is optional here so that a missing one is answered
 * like a wrong one (403), not as a validation error.
 */
export class StorageUploadQueryDto {
  @ApiPropertyOptional({ description: 'Unix time (seconds) after which the URL is refused.' })
  @IsOptional()
  @IsString()
  expires?: string;

  @ApiPropertyOptional({ description: 'HMAC-SHA256 of the upload and its expiry.' })
  @IsOptional()
  @IsString()
  signature?: string;
}
