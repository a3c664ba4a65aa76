import { ApiProperty, ApiPropertyOptional, OmitType, PartialType } from '@nestjs/swagger';
import {
  IsBoolean,
  IsIn,
  IsNotEmpty,
  IsOptional,
  IsString,
  IsUrl,
  ValidateIf,
} from 'class-validator';
import { Role, ROLES } from '../../../platform/policy/roles';
import { IsX509CertificatePem } from '../x509-certificate';
import { Chars, MaxChars } from '../../../platform/validation/chars';

const HTTPS_URL = { protocols: ['https'], require_protocol: true, require_tld: false };

/**
 * GitBook's body of `createOrganizationSAMLProvider`. The identity-provider values may be
 * given later; `null` clears one (the provider is then `pending`), `defaultTeam` or
 * `defaultRole` (null: new users are guests).
 */
export class CreateSamlProviderDto {
  @ApiProperty({ minLength: 1, maxLength: 30, example: 'Okta' })
  @IsString()
  @Chars(1, 30)
  label!: string;

  @ApiPropertyOptional({
    type: String,
    maxLength: 1024,
    nullable: true,
    description: "The identity provider's entity id (issuer).",
    example: 'http://www.okta.com/exk1a2b3c4',
  })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxChars(1024)
  entityID?: string | null;

  @ApiPropertyOptional({
    type: String,
    maxLength: 10000,
    nullable: true,
    description: "The identity provider's signing certificate, PEM-encoded X.509.",
  })
  @IsOptional()
  @IsString()
  @MaxChars(10000)
  @IsX509CertificatePem()
  certificate?: string | null;

  @ApiPropertyOptional({
    type: String,
    format: 'uri',
    maxLength: 2048,
    nullable: true,
    description: "The identity provider's sign-in URL (https).",
    example: 'https://acme.okta.com/app/acme_docs/exk1a2b3c4/sso/saml',
  })
  @IsOptional()
  @IsUrl(HTTPS_URL, { message: 'ssoURL must be an https URL' })
  @MaxChars(2048)
  ssoURL?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'Id of a team of the organization that new users join.',
  })
  @IsOptional()
  @IsString()
  @MaxChars(64)
  defaultTeam?: string | null;

  @ApiPropertyOptional({
    enum: ROLES,
    nullable: true,
    description: 'Role of new users; null makes them guests. Default: read.',
  })
  @IsOptional()
  @IsIn(ROLES, { message: `defaultRole must be one of ${ROLES.join(', ')}, or null` })
  defaultRole?: Role | null;

  @ApiPropertyOptional({
    description:
      "Bindery's own: accept sign-ins the identity provider starts (IdP-initiated, a response " +
      'to no request of the start URL). Default: false.',
  })
  @ValidateIf((body: CreateSamlProviderDto) => body.idpInitiatedLogin !== undefined)
  @IsBoolean()
  idpInitiatedLogin?: boolean;
}

/** GitBook's body of `updateOrganizationSAMLProvider`: absent fields are unchanged. */
export class UpdateSamlProviderDto extends PartialType(
  OmitType(CreateSamlProviderDto, ['label', 'idpInitiatedLogin']),
) {
  @ApiPropertyOptional({ minLength: 1, maxLength: 30 })
  @ValidateIf((body: UpdateSamlProviderDto) => body.label !== undefined)
  @IsString()
  @Chars(1, 30)
  label?: string;

  @ApiPropertyOptional({
    description: "Bindery's own: accept sign-ins the identity provider starts (IdP-initiated).",
  })
  @ValidateIf((body: UpdateSamlProviderDto) => body.idpInitiatedLogin !== undefined)
  @IsBoolean()
  idpInitiatedLogin?: boolean;
}
