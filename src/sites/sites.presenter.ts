import { Injectable } from '@nestjs/common';
import type { Organization } from '../orgs/entities/organization.entity';
import { AppConfig } from '../platform/config/app-config';
import type { Role } from '../platform/policy/roles';
import { UrlBuilder } from '../platform/urls/url-builder';
import { SiteResponse } from './dto/site.response';
import { Site } from './entities/site.entity';
import { SELF_HOSTED_SITE_ADS, SELF_HOSTED_SITE_FEATURES } from './site-features';
import { sitePermissions } from './site-permissions';

/** The organization fields a site's URLs depend on. */
export type SiteOrganization = Pick<Organization, 'id' | 'hostname'>;

@Injectable()
export class SitesPresenter {
  constructor(
    private readonly urls: UrlBuilder,
    private readonly config: AppConfig,
  ) {}

  /**
   * GitBook's `Site` (with what API 0.201.0 adds: `appliedType`, `defaultLevel`, `permissions`,
   * `urls.preview`); `siteSpaces` is its number of site spaces, `role` the caller's role on the
   * site: its organization role raised by the site's grants (siteRole; null for a reader of the
   * published site who has none).
   */
  present(
    site: Site,
    organization: SiteOrganization,
    siteSpaces: number,
    role: Role | null,
  ): SiteResponse {
    return {
      object: 'site',
      id: site.id,
      type: site.type,
      // Nothing is frozen or downgraded on a self-hosted instance.
      appliedType: site.type,
      title: site.title,
      ...(site.icon !== null ? { icon: site.icon } : {}),
      ...(site.hostname !== null ? { hostname: site.hostname } : {}),
      ...(site.basename !== null ? { basename: site.basename } : {}),
      ...(site.proxy !== null
        ? { proxy: { origin: site.proxy, target: this.platformUrl(site, organization) } }
        : {}),
      visibility: site.visibility,
      // Who may see a site follows the organization's roles and the site's grants; a site has no
      // default level of its own.
      defaultLevel: 'inherit',
      permissions: sitePermissions(role),
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
        preview: this.previewUrl(site, organization),
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

  /**
   * Where a renderer previews the site, published or not, laid out as GitBook's
   * (`<sites host>/preview/<siteId>`): on the origin of SITES_URL for the site's organization,
   * which a renderer serving the sites takes as its `GITBOOK_PREVIEW_BASE_URL` (`…/preview/`).
   */
  previewUrl(site: Pick<Site, 'id'>, organization: SiteOrganization): string {
    return new URL(
      `/preview/${encodeURIComponent(site.id)}`,
      this.organizationSitesUrl(organization),
    ).href;
  }

  /** The site on the instance's own sites host, whatever its hostname or proxy. */
  private platformUrl(site: Site, organization: SiteOrganization): string {
    const base = this.organizationSitesUrl(organization);
    return `${base}/${encodeURIComponent(site.basename ?? site.id)}`;
  }

  /** SITES_URL for the organization: its hostname, else its id, in place of `{organization}`. */
  private organizationSitesUrl(organization: SiteOrganization): string {
    return this.config.sitesUrl.replace(
      '{organization}',
      encodeURIComponent(organization.hostname ?? organization.id),
    );
  }
}
