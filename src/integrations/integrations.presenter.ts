import { Injectable } from '@nestjs/common';
import { OrganizationsPresenter } from '../orgs/organizations.presenter';
import { UrlBuilder } from '../platform/urls/url-builder';
import type { IntegrationResponse } from './dto/integration.response';
import type { IntegrationView } from './integrations.service';

/** GitBook's `Integration`: the manifest of its current version, its owner and its URLs. */
@Injectable()
export class IntegrationsPresenter {
  constructor(
    private readonly urls: UrlBuilder,
    private readonly organizations: OrganizationsPresenter,
  ) {}

  present({ integration, owner, admin }: IntegrationView): IntegrationResponse {
    const location = this.urls.api('integrations', integration.name);
    const publicEndpoint = this.urls.integrationEndpoint(
      'integrations',
      integration.name,
      'integration',
    );
    return {
      object: 'integration',
      name: integration.name,
      version: integration.version,
      title: integration.title,
      ...(integration.description ? { description: integration.description } : {}),
      ...(integration.summary ? { summary: integration.summary } : {}),
      previewImages: integration.previewImageDigests.map((digest) => this.image(digest)),
      target: integration.target,
      verified: false,
      visibility: integration.visibility,
      scopes: integration.scopes,
      categories: integration.categories,
      blocks: integration.blocks,
      contentSources: integration.contentSources,
      configurations: integration.configurations,
      externalLinks: integration.externalLinks,
      owner: this.organizations.summary(owner, null),
      urls: {
        location,
        ...(integration.iconDigest ? { icon: this.image(integration.iconDigest) } : {}),
        app: this.urls.app('integrations', integration.name),
        assets: this.urls.under(location, 'assets', String(integration.version)),
        publicEndpoint,
        publicContentEndpoint: publicEndpoint,
      },
      permissions: { admin },
      ...(integration.contentSecurityPolicy !== null
        ? { contentSecurityPolicy: integration.contentSecurityPolicy }
        : {}),
    };
  }

  /** An image of an integration, served by its digest (`getIntegrationImage`). */
  private image(digest: string): string {
    return this.urls.api('integration-images', digest);
  }
}
