import { Injectable } from '@nestjs/common';
import type { Organization } from '../orgs/entities/organization.entity';
import { AppConfig } from '../platform/config/app-config';
import { UrlBuilder } from '../platform/urls/url-builder';
import { SiteResponse } from './dto/site.response';
import { Site } from './entities/site.entity';
import { SELF_HOSTED_SITE_ADS, SELF_HOSTED_SITE_FEATURES } from './site-features';

/** The organization fields a site's URLs depend on. */
export type SiteOrganization = Pick<Organization, 'id' | 'hostname'>;

@Injectable()
export class SitesPresenter {
  constructor(
    private readonly urls: UrlBuilder,
    private readonly config: AppConfig,
  ) {}

  /** GitBook's `Site`; `siteSpaces` is its number of site spaces. */
  present(site: Site, organization: SiteOrganization, siteSpaces: number): SiteResponse {
    return {
      object: 'site',
      id: site.id,
      type: site.type,
      title: site.title,
      ...(site.icon !== null ? { icon: site.icon } : {}),
      ...(site.hostname !== null ? { hostname: site.hostname } : {}),
      ...(site.basename !== null ? { basename: site.basename } : {}),
      ...(site.proxy !== null
        ? { proxy: { origin: site.proxy, target: this.platformUrl(site, organization) } }
        : {}),
      visibility: site.visibility,
      published: site.published,
      siteSpaces,
      createdAt: site.createdAt.toISOString(),
      adaptiveContent: { enabled: site.adaptiveContent },
      ads: { ...SELF_HOSTED_SITE_ADS },
      agentsContext: site.agentsContext,
      features: SELF_HOSTED_SITE_FEATURES.map((feature) => ({ ...feature })),
      urls: {
        location: this.location(site),
        app: this.urls.app('o', site.organizationId, 'sites', site.id),
        ...(site.published ? { published: this.publishedUrl(site, organization) } : {}),
      },
    };
  }

  location(site: Pick<Site, 'id' | 'organizationId'>): string {
    return this.urls.api('orgs', site.organizationId, 'sites', site.id);
  }

  /**
   * Where the site is (or would be) published: under its proxy origin, else its custom
   * hostname (then its basename), else SITES_URL for its organization (then its basename, or
   * its id when it has none).
   */
  publishedUrl(site: Site, organization: SiteOrganization): string {
    if (site.proxy !== null) return `https://${site.proxy}`;
    if (site.hostname !== null) {
      return `https://${site.hostname}${site.basename !== null ? `/${encodeURIComponent(site.basename)}` : ''}`;
    }
    return this.platformUrl(site, organization);
  }

  /** The site on the instance's own sites host, whatever its hostname or proxy. */
  private platformUrl(site: Site, organization: SiteOrganization): string {
    const base = this.config.sitesUrl.replace(
      '{organization}',
      encodeURIComponent(organization.hostname ?? organization.id),
    );
    return `${base}/${encodeURIComponent(site.basename ?? site.id)}`;
  }
}
