import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { IgnoreUnknownProperties } from '../../../platform/validation/validation.pipe';

/** The query of `startSamlSignIn`. */
export class StartSamlSignInQueryDto {
  @ApiPropertyOptional({
    description:
      'Where the sign-in sends its one-time code (`?code=`), to exchange with ' +
      '`exchangeSsoSignInCode`; must start with one of SSO_REDIRECT_URLS. Absent: the sign-in ' +
      'ends on a page that shows the token.',
    format: 'uri',
    maxLength: 2048,
  })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  redirect_uri?: string;
}

/** The identity provider's form post (HTTP-POST binding); other fields are ignored. */
@IgnoreUnknownProperties()
export class SamlAssertionFormDto {
  @ApiProperty({ description: 'The SAML response, base64.' })
  @IsString()
  @IsNotEmpty()
  SAMLResponse!: string;

  @ApiPropertyOptional({ description: 'The RelayState the start URL sent.' })
  @IsOptional()
  @IsString()
  @MaxLength(4096)
  RelayState?: string;
}

/** The body of `exchangeSsoSignInCode`. */
export class ExchangeSsoSignInCodeDto {
  @ApiProperty({ description: 'The `code` the sign-in added to its redirect URI.', maxLength: 256 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(256)
  code!: string;
}

class SsoTokenUser {
  @ApiProperty() id!: string;
  @ApiProperty() email!: string;
  @ApiProperty() displayName!: string;
}

/** The answer of `exchangeSsoSignInCode`: an API token reaching the organization only. */
export class SsoTokenResponse {
  @ApiProperty({ description: 'The API token, shown this once.' }) token!: string;
  @ApiProperty({ format: 'date-time' }) expiresAt!: string;
  @ApiProperty({ description: 'The one organization the token reaches.' })
  organizationId!: string;
  @ApiProperty({ type: SsoTokenUser }) user!: SsoTokenUser;
}
