import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';

/**
 * The query of a signed download URL. Every part is optional here so that a missing one is
 * answered like a wrong one (403), not as a validation error.
 */
export class FileDownloadQueryDto {
  @ApiPropertyOptional({ description: 'Unix time (seconds) after which the URL is refused.' })
  @IsOptional()
  @IsString()
  expires?: string;

  @ApiPropertyOptional({ description: 'File name, for `Content-Disposition`.' })
  @IsOptional()
  @IsString()
  name?: string;

  @ApiPropertyOptional({ description: 'Content type the bytes are served with.' })
  @IsOptional()
  @IsString()
  type?: string;

  @ApiPropertyOptional({ description: 'HMAC-SHA256 of the blob and the other parameters.' })
  @IsOptional()
  @IsString()
  signature?: string;
}
