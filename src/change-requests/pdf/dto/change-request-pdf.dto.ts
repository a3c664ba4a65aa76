import { ApiProperty, ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsOptional, IsString } from 'class-validator';

const toBoolean = ({ value }: { value: unknown }) =>
  value === 'true' ? true : value === 'false' ? false : value;

/** `getChangeRequestPDF`: what to print. */
export class ChangeRequestPdfQueryDto {
  @ApiPropertyOptional({
    type: Boolean,
    default: false,
    description: 'With `page`: print only that page, without its subpages.',
  })
  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean()
  only?: boolean;

  @ApiPropertyOptional({
    description: 'ID of a page to print (with its subpages unless `only`); all pages otherwise.',
  })
  @IsOptional()
  @IsString()
  page?: string;
}

/** GitBook's answer to `getChangeRequestPDF`. */
export class PdfUrlResponse {
  @ApiProperty({
    format: 'uri',
    maxLength: 2048,
    description: 'Temporary URL of the PDF; it works for 1 hour. No token is needed to follow it.',
  })
  url!: string;
}

/**
 * The query of a signed PDF URL. Every part is an optional string here so that a missing or
 * altered one is answered like a wrong signature (403), not as a validation error.
 */
export class ChangeRequestPdfDownloadQueryDto {
  @ApiPropertyOptional({ description: 'ID of the space of the change request.' })
  @IsOptional()
  @IsString()
  space?: string;

  @ApiPropertyOptional({ description: 'ID of the revision printed (the head when signed).' })
  @IsOptional()
  @IsString()
  revision?: string;

  @ApiPropertyOptional({ description: 'ID of the page printed; all pages when absent.' })
  @IsOptional()
  @IsString()
  page?: string;

  @ApiPropertyOptional({ description: '`true`: the page only, without its subpages.' })
  @IsOptional()
  @IsString()
  only?: string;

  @ApiPropertyOptional({ description: 'Unix time (seconds) after which the URL is refused.' })
  @IsOptional()
  @IsString()
  expires?: string;

  @ApiPropertyOptional({ description: 'HMAC-SHA256 of the other parameters.' })
  @IsOptional()
  @IsString()
  signature?: string;
}

/** `getSpacePDF`: what to print, as for a change request. */
export class SpacePdfQueryDto extends ChangeRequestPdfQueryDto {}

/** The query of a signed space PDF URL (the space is in the path). */
export class SpacePdfDownloadQueryDto extends OmitType(ChangeRequestPdfDownloadQueryDto, [
  'space',
] as const) {}
