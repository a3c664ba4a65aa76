import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { notFound } from '../platform/errors/domain-error';
import { Page } from '../platform/pagination/page';
import type { Role } from '../platform/policy/roles';
import { ListSitesQueryDto } from './dto/site.dto';
import { Site } from './entities/site.entity';
import { siteRole } from './site-access';
import { SitesRepository } from './sites.repository';
import { SiteStructureRepository } from './structure/site-structure.repository';

export const siteNotFound = () => notFound('Site');

/** A site with its number of site spaces (GitBook's `siteSpaces`). */
export interface SiteWithCount {
  site: Site;
  siteSpaces: number;
}

/**
 * Reading the sites of an organization. Every lookup carries the organization, so a site of
 * another organization is not found. The structure code depends on this service, so it
 * depends on nothing of the structure but its repository (changes live in SiteWritesService).
 */
@Injectable()
export class SitesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly sitesRepository: SitesRepository,
    private readonly structureRepository: SiteStructureRepository,
  ) {}

  /** The site `siteId` of the organization; 404 `Site` when absent or in another organization. */
  async findForOrganization(
    manager: EntityManager,
    organizationId: string,
    siteId: string,
  ): Promise<Site> {
    const site = await manager.findOneBy(Site, { id: siteId, organizationId });
    if (!site) throw siteNotFound();
    return site;
  }

  /** The site with its site-space count; 404 as {@link findForOrganization}. */
  async get(organizationId: string, siteId: string): Promise<SiteWithCount> {
    const site = await this.findForOrganization(this.dataSource.manager, organizationId, siteId);
    return this.withCount(this.dataSource.manager, site);
  }

  /** The organization's sites, oldest first, filtered as GitBook's `listSites` does. */
  async list(organizationId: string, query: ListSitesQueryDto): Promise<Page<SiteWithCount>> {
    const page = await this.sitesRepository.listForOrganization(organizationId, query, query);
    const counts = await this.structureRepository.countSiteSpacesBySite(
      page.items.map((site) => site.id),
    );
    return {
      ...page,
      items: page.items.map((site) => ({ site, siteSpaces: counts.get(site.id) ?? 0 })),
    };
  }

  /**
   * The caller's role on each of the sites: its organization role `role`, raised by the grants
   * on the site to it or a team of its (siteRole).
   */
  async rolesOn(
    organizationId: string,
    viewer: { userId: string; role: Role | null },
    siteIds: string[],
  ): Promise<Map<string, Role | null>> {
    const grants = await this.sitesRepository.grantRolesOn(organizationId, siteIds, viewer.userId);
    return new Map(siteIds.map((id) => [id, siteRole(viewer.role, grants.get(id) ?? [])]));
  }

  async withCount(manager: EntityManager, site: Site): Promise<SiteWithCount> {
    const counts = await this.structureRepository.countSiteSpacesBySite([site.id], manager);
    return { site, siteSpaces: counts.get(site.id) ?? 0 };
  }
}
