import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Role } from '../../platform/policy/roles';
import { siteCustomization, siteSpaceCustomization } from '../customization/customization.service';
import type { SiteReaderActor } from '../../platform/auth/actor';
import type { VisitorClaims } from '../../platform/conditions/evaluate';
import { CustomizationFonts } from '../customization/customization-fonts';
import { publishedCustomization } from '../customization/published-customization';
import { Site } from '../entities/site.entity';
import { SitesPresenter } from '../sites.presenter';
import { SitesService } from '../sites.service';
import { SiteStructurePresenter } from '../structure/site-structure.presenter';
import { SiteStructureService } from '../structure/site-structure.service';
import type { StructureView } from '../structure/site-structure.store';
import { PublishedContentSiteResponse } from './published-site.dto';
import { SiteScripts } from './site-scripts';
import { SiteVisitorAuth } from './site-visitor-auth';
import { visibleStructure, withoutDraftLinks } from './visible-structure';

/**
 * The published profile of a site (`getPublishedContentSite`): everything a renderer needs —
 * the site, its structure, its customizations (the site's and each site space's, as API 0.201.0
 * shapes them: see publishedCustomization) and the scripts its integrations inject (SiteScripts).
 */
@Injectable()
export class PublishedSiteService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly sites: SitesService,
    private readonly structure: SiteStructureService,
    private readonly structurePresenter: SiteStructurePresenter,
    private readonly presenter: SitesPresenter,
    private readonly visitorAuth: SiteVisitorAuth,
    private readonly scripts: SiteScripts,
    private readonly fonts: CustomizationFonts,
  ) {}

  /**
   * The published profile of `site`, which the caller may see (PublishedSiteAccessPolicy);
   * `role`: the caller's role in the site's organization, if any.
   */
  async get(site: Site, userId: string, role: Role | null): Promise<PublishedContentSiteResponse> {
    const view = await this.structure.view(site, userId, this.dataSource.manager);
    // Draft external links are not published, for members either.
    return this.present(site, { ...view, model: withoutDraftLinks(view.model) }, role);
  }

  /**
   * The published profile as a site reader's visitor sees it: only the sections and site
   * spaces whose conditions the visitor's claims meet, and no space in the trash.
   */
  async getForReader(site: Site, reader: SiteReaderActor): Promise<PublishedContentSiteResponse> {
    const claims = { claims: reader.claims } as VisitorClaims;
    const drafts = reader.preview?.draft === true;
    const view = await this.structure.publishedView(site, (model, live) =>
      visibleStructure(model, claims, live, { drafts }),
    );
    return this.present(site, view, null);
  }

  private async present(
    site: Site,
    view: StructureView,
    role: Role | null,
  ): Promise<PublishedContentSiteResponse> {
    const manager = this.dataSource.manager;
    const { siteSpaces } = await this.sites.withCount(manager, site);
    const presented = this.presenter.present(site, view.organization, siteSpaces, role);
    // Visitors log in and out through the site's visitor authentication, when it has one.
    const auth =
      site.visibility === 'visitor-auth' || site.adaptiveContent
        ? await this.visitorAuth.visitorAuth(site.id)
        : null;
    if (auth?.fallbackURL) presented.urls.login = auth.fallbackURL;
    if (auth?.logoutURL) presented.urls.logout = auth.logoutURL;
    // The custom fonts it names, with the URLs of their files, which the renderer loads.
    const customized = await this.fonts.current(site);
    return {
      object: 'published-content-site',
      site: presented,
      structure: this.structurePresenter.structure(view),
      customizations: {
        site: publishedCustomization(siteCustomization(customized)),
        siteSpaces: Object.fromEntries(
          view.model.siteSpaces.map((siteSpace) => [
            siteSpace.id,
            publishedCustomization(siteSpaceCustomization(customized, siteSpace.id)),
          ]),
        ),
      },
      scripts: await this.scripts.forSite(site.id),
    };
  }
}
