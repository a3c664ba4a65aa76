import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { MembersRepository } from '../../orgs/members/members.repository';
import { atLeast } from '../../platform/policy/roles';
import { siteCustomization, siteSpaceCustomization } from '../customization/customization.service';
import { Site } from '../entities/site.entity';
import { SITE_READ } from '../site-access';
import { SiteShareLinksService } from '../share-links/share-links.service';
import { SitesPresenter } from '../sites.presenter';
import { siteNotFound, SitesService } from '../sites.service';
import { SiteStructurePresenter } from '../structure/site-structure.presenter';
import { SiteStructureService } from '../structure/site-structure.service';
import { PublishedContentSiteResponse } from './published-site.dto';

/** Visibilities a published site has for anyone with a token, member or not. */
const OPEN_VISIBILITIES = new Set<Site['visibility']>(['public', 'unlisted']);

/**
 * The published profile of a site (`getPublishedContentSite`): everything a renderer needs —
 * the site, its structure, its customizations (the site's and each site space's) and scripts.
 */
@Injectable()
export class PublishedSiteService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly sites: SitesService,
    private readonly shareLinks: SiteShareLinksService,
    private readonly structure: SiteStructureService,
    private readonly structurePresenter: SiteStructurePresenter,
    private readonly presenter: SitesPresenter,
    private readonly members: MembersRepository,
  ) {}

  /**
   * Members with a role read any site of their organization, published or not (a preview).
   * Anyone else (guests, other users) reads only a published site that is `public` or
   * `unlisted`, or `share-link` with the key of an active share link; otherwise 404. A
   * `shareKey` that opens nothing is 404 for everyone. `visitor-auth` sites need a visitor
   * token, which this route does not take: 404 for non-members.
   */
  async get(
    userId: string,
    organizationId: string,
    siteId: string,
    shareKey: string | undefined,
  ): Promise<PublishedContentSiteResponse> {
    const manager = this.dataSource.manager;
    const site = await this.sites.findForOrganization(manager, organizationId, siteId);
    const opened =
      shareKey !== undefined &&
      (await this.shareLinks.findActiveByKey(manager, site.id, shareKey)) !== null;
    if (shareKey !== undefined && !opened) throw siteNotFound();
    const role = await this.members.roleOf(organizationId, userId, manager);
    const member = atLeast(role, SITE_READ);
    const visible =
      member ||
      (site.published &&
        (OPEN_VISIBILITIES.has(site.visibility) || (site.visibility === 'share-link' && opened)));
    if (!visible) throw siteNotFound();

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
