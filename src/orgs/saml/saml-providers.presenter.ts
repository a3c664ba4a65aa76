import { Injectable } from '@nestjs/common';
import type { Role } from '../../platform/policy/roles';
import { UrlBuilder } from '../../platform/urls/url-builder';
import { TeamsPresenter } from '../teams/teams.presenter';
import { SamlProviderResponse, SsoProviderLoginResponse } from './dto/saml-provider.response';
import { SamlProvider } from './entities/saml-provider.entity';
import { samlProviderStatus } from './saml-provider-status';
import type { SamlProviderView } from './saml-providers.service';

@Injectable()
export class SamlProvidersPresenter {
  constructor(
    private readonly urls: UrlBuilder,
    private readonly teams: TeamsPresenter,
  ) {}

  /**
   * GitBook requires `ssoURL`, `entityID` and `certificate` and has no null for them: a
   * provider still `pending` sends `""` for the values not given yet.
   */
  present(view: SamlProviderView, role: Role | null): SamlProviderResponse {
    const { provider, defaultTeam } = view;
    return {
      object: 'saml-provider',
      id: provider.id,
      label: provider.label,
      ssoURL: provider.ssoUrl ?? '',
      entityID: provider.entityId ?? '',
      certificate: provider.certificate ?? '',
      ...(defaultTeam ? { defaultTeam: this.teams.present(defaultTeam, role) } : {}),
      defaultRole: provider.defaultRole,
      idpInitiatedLogin: provider.idpInitiatedLogin,
      createdAt: provider.createdAt.toISOString(),
      status: samlProviderStatus(provider),
      service: this.service(provider),
      urls: { location: this.location(provider) },
    };
  }

  login(provider: SamlProvider): SsoProviderLoginResponse {
    return { id: provider.id, label: provider.label, startURL: this.service(provider).startURL };
  }

  location(provider: SamlProvider): string {
    return this.urls.api('orgs', provider.organizationId, 'saml', provider.id);
  }

  /**
   * Bindery's service-provider side of the provider, to configure in the identity provider.
   * These are the addresses of the SAML sign-in flow.
   */
  private service(provider: SamlProvider): SamlProviderResponse['service'] {
    return {
      acsURL: this.urls.api('saml', provider.id, 'acs'),
      startURL: this.urls.api('saml', provider.id, 'start'),
      entityID: this.urls.api('saml', provider.id),
    };
  }
}
