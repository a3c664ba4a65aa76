import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { siteCustomization, siteSpaceCustomization } from '../customization/customization.service';
import { Site } from '../entities/site.entity';
import { SitesPresenter } from '../sites.presenter';
import { SitesService } from '../sites.service';
import { SiteStructurePresenter } from '../structure/site-structure.presenter';
import { SiteStructureService } from '../structure/site-structure.service';
import { PublishedContentSiteResponse } from './published-site.dto';

/**
 * The published profile of a site (`getPublishedContentSite`): everything a renderer needs —
 * the site, its structure, its customizations (the site's and each site space's) and scripts.
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

  /** The published profile of `site`, which the caller may see (PublishedSiteAccessPolicy). */
  async get(site: Site, userId: string): Promise<PublishedContentSiteResponse> {
    const manager = this.dataSource.manager;
    const view = await this.structure.view(site, userId, manager);
    const { siteSpaces } = await this.sites.withCount(manager, site);
    return {
      object: 'published-content-site',
      site: this.presenter.present(site, view.organization, siteSpaces),
      structure: this.structurePresenter.structure(view),
      customizations: {
        site: siteCustomization(site),
        siteSpaces: Object.fromEntries(
          view.model.siteSpaces.map((siteSpace) => [
            siteSpace.id,
            siteSpaceCustomization(site, siteSpace.id),
          ]),
        ),
      },
      scripts: [],
    };
  }
}
