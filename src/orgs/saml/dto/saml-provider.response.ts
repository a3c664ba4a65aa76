import { TeamResponse } from '../../teams/dto/team.response';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ROLES } from '../../../platform/policy/roles';

/** GitBook's `OrganizationTeam`, as expanded in a provider's `defaultTeam`. */

class SamlServiceProvider {
  @ApiProperty({ format: 'uri', description: 'Assertion Consumer Service URL.' })
  acsURL!: string;
  @ApiProperty({ format: 'uri', description: 'Where a sign-in through this provider starts.' })
  startURL!: string;
  @ApiProperty({ description: "Bindery's entity id for this provider." })
  entityID!: string;
}

class SamlProviderUrls {
  @ApiProperty({ format: 'uri' }) location!: string;
}

/** GitBook's `OrganizationSAMLProvider`. Identity-provider values not yet given are `""`. */
export class SamlProviderResponse {
  @ApiProperty({ enum: ['saml-provider'] }) object!: 'saml-provider';
  @ApiProperty() id!: string;
  @ApiProperty({ minLength: 1, maxLength: 30 }) label!: string;
  @ApiProperty({ description: 'The identity provider\'s sign-in URL; "" until given.' })
  ssoURL!: string;
  @ApiProperty({ maxLength: 1024, description: '"" until given.' }) entityID!: string;
  @ApiProperty({ maxLength: 10000, description: 'PEM; "" until given.' }) certificate!: string;
  @ApiPropertyOptional({ type: TeamResponse }) defaultTeam?: TeamResponse;
  @ApiProperty({ enum: ROLES, nullable: true, description: 'null: new users are guests.' })
  defaultRole!: string | null;
  @ApiProperty({
    description:
      "Bindery's own: sign-ins the identity provider starts (IdP-initiated) are accepted.",
  })
  idpInitiatedLogin!: boolean;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({
    enum: ['active', 'pending'],
    description: '`active` once entityID, certificate and ssoURL are all set.',
  })
  status!: 'active' | 'pending';
  @ApiProperty({ type: SamlServiceProvider }) service!: SamlServiceProvider;
  @ApiProperty({ type: SamlProviderUrls }) urls!: SamlProviderUrls;
}

/** GitBook's `OrganizationSSOProviderLogin`. */
export class SsoProviderLoginResponse {
  @ApiProperty() id!: string;
  @ApiProperty({ minLength: 1, maxLength: 30 }) label!: string;
  @ApiProperty({ format: 'uri' }) startURL!: string;
}

export class SsoProviderLoginsResponse {
  @ApiProperty({ type: [SsoProviderLoginResponse] }) items!: SsoProviderLoginResponse[];
}
