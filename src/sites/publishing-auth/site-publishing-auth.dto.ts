import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, IsUrl } from 'class-validator';
import { MaxChars } from '../../platform/validation/chars';

/** The only visitor-auth backend Bindery has: the customer's own, signing with the site's key. */
export const PUBLISHING_AUTH_BACKENDS = ['custom'] as const;

const HTTP_URL = { protocols: ['http', 'https'], require_protocol: true, require_tld: false };

/** `updateSitePublishingAuthById` body (GitBook's `SitePublishingAuthUpdate`). */
export class UpdateSitePublishingAuthDto {
  @ApiProperty({
    enum: PUBLISHING_AUTH_BACKENDS,
    description: 'Always `custom`: Bindery has no integrations, so `integration` is refused.',
  })
  @IsIn(PUBLISHING_AUTH_BACKENDS, {
    message:
      'backend must be "custom": Bindery authenticates visitors only with a custom backend (no integrations)',
  })
  backend!: 'custom';

  @ApiPropertyOptional({
    type: String,
    format: 'uri',
    maxLength: 2048,
    nullable: true,
    description:
      'Where a visitor without a valid token is sent to log in (with `?location=`); absent ' +
      'keeps it, null unsets it.',
  })
  @IsOptional()
  @IsString()
  @MaxChars(2048)
  @IsUrl(HTTP_URL, { message: 'fallbackURL must be an http or https URL' })
  fallbackURL?: string | null;

  @ApiPropertyOptional({
    type: String,
    format: 'uri',
    maxLength: 2048,
    nullable: true,
    description: "Where the site's logout link sends a visitor; absent keeps it, null unsets it.",
  })
  @IsOptional()
  @IsString()
  @MaxChars(2048)
  @IsUrl(HTTP_URL, { message: 'logoutURL must be an http or https URL' })
  logoutURL?: string | null;
}

/** GitBook's `SitePublishingAuth`, with the custom backend. */
export class SitePublishingAuthResponse {
  @ApiProperty({ enum: ['publishing-auth'] }) object!: 'publishing-auth';

  @ApiProperty({
    description: "The key visitors' JWTs are signed with; the site checks their tokens with it.",
  })
  privateKey!: string;

  @ApiProperty({ enum: PUBLISHING_AUTH_BACKENDS }) backend!: 'custom';

  @ApiPropertyOptional({ format: 'uri', description: 'Absent when unset.' })
  fallbackURL?: string;

  @ApiPropertyOptional({ format: 'uri', description: 'Absent when unset.' })
  logoutURL?: string;
}
