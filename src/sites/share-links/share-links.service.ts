import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../../platform/clock/clock';
import { invalidInput, notFound } from '../../platform/errors/domain-error';
import { newId, newSecret } from '../../platform/ids/ids';
import { paginate, PageRequest } from '../../platform/pagination/keyset';
import { Page } from '../../platform/pagination/page';
import { Site } from '../entities/site.entity';
import { SiteShareLink } from '../entities/site-share-link.entity';
import { SitesService } from '../sites.service';
import { CreateSiteShareLinkDto, UpdateSiteShareLinkDto } from './share-link.dto';

const shareLinkNotFound = () => notFound('Share link');

/**
 * Share links of a site: secret keys that open a `share-link` site to whoever has one, while
 * the link is active.
 */
@Injectable()
export class SiteShareLinksService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly sites: SitesService,
    private readonly clock: Clock,
  ) {}

  async list(
    organizationId: string,
    siteId: string,
    request: PageRequest,
  ): Promise<{ site: Site; page: Page<SiteShareLink> }> {
    const site = await this.sites.findForOrganization(
      this.dataSource.manager,
      organizationId,
      siteId,
    );
    const query = this.dataSource
      .getRepository(SiteShareLink)
      .createQueryBuilder('link')
      .where('link.site_id = :siteId', { siteId: site.id });
    const page = await paginate(query, request, {
      keys: [
        { sql: 'link.created_at', of: (link) => link.createdAt },
        { sql: 'link.id', of: (link) => link.id },
      ],
      direction: 'ASC',
    });
    return { site, page };
  }

  async create(
    organizationId: string,
    siteId: string,
    input: CreateSiteShareLinkDto,
  ): Promise<{ site: Site; link: SiteShareLink }> {
    const site = await this.sites.findForOrganization(
      this.dataSource.manager,
      organizationId,
      siteId,
    );
    const link = this.dataSource.manager.create(SiteShareLink, {
      id: newId(),
      siteId: site.id,
      key: newSecret(),
      name: input.name,
      active: true,
      createdAt: this.clock.now(),
    });
    await this.dataSource.manager.insert(SiteShareLink, link);
    return { site, link };
  }

  update(
    organizationId: string,
    siteId: string,
    shareLinkId: string,
    input: UpdateSiteShareLinkDto,
  ): Promise<{ site: Site; link: SiteShareLink }> {
    if (input.active === undefined && input.name === undefined) {
      throw invalidInput('Give at least one of active, name.');
    }
    return this.dataSource.transaction(async (tx) => {
      const site = await this.sites.findForOrganization(tx, organizationId, siteId);
      const link = await this.findLink(tx, site.id, shareLinkId);
      if (input.active !== undefined) link.active = input.active;
      if (input.name !== undefined) link.name = input.name;
      await tx.update(SiteShareLink, { id: link.id }, { active: link.active, name: link.name });
      return { site, link };
    });
  }

  /** Deletes the link; nothing when it does not exist (the site must). */
  async remove(organizationId: string, siteId: string, shareLinkId: string): Promise<void> {
    const site = await this.sites.findForOrganization(
      this.dataSource.manager,
      organizationId,
      siteId,
    );
    await this.dataSource.manager.delete(SiteShareLink, { id: shareLinkId, siteId: site.id });
  }

  /** The active share link of the site with this key, if there is one. */
  findActiveByKey(
    manager: EntityManager,
    siteId: string,
    key: string,
  ): Promise<SiteShareLink | null> {
    return manager.findOneBy(SiteShareLink, { siteId, key, active: true });
  }

  private async findLink(
    manager: EntityManager,
    siteId: string,
    shareLinkId: string,
  ): Promise<SiteShareLink> {
    const link = await manager.findOneBy(SiteShareLink, { id: shareLinkId, siteId });
    if (!link) throw shareLinkNotFound();
    return link;
  }
}
