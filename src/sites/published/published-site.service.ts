import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Role } from '../../platform/policy/roles';
import { siteCustomization, siteSpaceCustomization } from '../customization/customization.service';
import { publishedCustomization } from '../customization/published-customization';
import { Site } from '../entities/site.entity';
import { SitesPresenter } from '../sites.presenter';
import { SitesService } from '../sites.service';
import { SiteStructurePresenter } from '../structure/site-structure.presenter';
import { SiteStructureService } from '../structure/site-structure.service';
import { PublishedContentSiteResponse } from './published-site.dto';

/**
 * The published profile of a site (`getPublishedContentSite`): everything a renderer needs —
 * the site, its structure, its customizations (the site's and each site space's, as API 0.201.0
 * shapes them: see publishedCustomization) and scripts.
 */
@Injectable()
export class PublishedSiteService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly sites: SitesService,
    private readonly structure: SiteStructureService,
    private readonly structurePresenter: SiteStructurePresenter,
    private readonly presenter: SitesPresenter,
  ) {}

  /**
   * The published profile of `site`, which the caller may see (PublishedSiteAccessPolicy);
   * `role`: the caller's role in the site's organization, if any.
   */
  async get(site: Site, userId: string, role: Role | null): Promise<PublishedContentSiteResponse> {
    const manager = this.dataSource.manager;
    const view = await this.structure.view(site, userId, manager);
    const { siteSpaces } = await this.sites.withCount(manager, site);
    return {
      object: 'published-content-site',
      site: this.presenter.present(site, view.organization, siteSpaces, role),
      structure: this.structurePresenter.structure(view),
      customizations: {
        site: publishedCustomization(siteCustomization(site)),
        siteSpaces: Object.fromEntries(
          view.model.siteSpaces.map((siteSpace) => [
            siteSpace.id,
            publishedCustomization(siteSpaceCustomization(site, siteSpace.id)),
          ]),
        ),
      },
      scripts: [],
    };
  }
}
