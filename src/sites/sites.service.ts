import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { notFound } from '../platform/errors/domain-error';
import { paginate } from '../platform/pagination/keyset';
import { Page } from '../platform/pagination/page';
import { ListSitesQueryDto } from './dto/site.dto';
import { Site } from './entities/site.entity';

export const siteNotFound = () => notFound('Site');

/** A site with its number of site spaces (GitBook's `siteSpaces`). */
export interface SiteWithCount {
  site: Site;
  siteSpaces: number;
}

/**
 * Reading the sites of an organization. Every lookup carries the organization, so a site of
 * another organization is not found. The structure code depends on this service, so it
 * depends on nothing of the structure (changes live in SiteWritesService).
 */
@Injectable()
export class SitesService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

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
    const builder = this.dataSource
      .getRepository(Site)
      .createQueryBuilder('site')
      .where('site.organization_id = :organizationId', { organizationId });
    if (query.space !== undefined) {
      builder.andWhere(
        'EXISTS (SELECT 1 FROM site_spaces ss WHERE ss.site_id = site.id AND ss.space_id = :space)',
        { space: query.space },
      );
    }
    if (query.title !== undefined) {
      builder.andWhere(`site.title ILIKE :title ESCAPE '\\'`, {
        title: `%${query.title.replace(/[\\%_]/g, (c) => `\\${c}`)}%`,
      });
    }
    if (query.published !== undefined) {
      builder.andWhere('site.published = :published', { published: query.published });
    }
    if (query.type !== undefined) {
      builder.andWhere('site.type IN (:...types)', { types: query.type });
    }
    const page = await paginate(builder, query, {
      keys: [
        { sql: 'site.created_at', of: (site) => site.createdAt },
        { sql: 'site.id', of: (site) => site.id },
      ],
      direction: 'ASC',
    });
    const counts = await this.siteSpaceCounts(
      this.dataSource.manager,
      page.items.map((site) => site.id),
    );
    return {
      ...page,
      items: page.items.map((site) => ({ site, siteSpaces: counts.get(site.id) ?? 0 })),
    };
  }

  async withCount(manager: EntityManager, site: Site): Promise<SiteWithCount> {
    const counts = await this.siteSpaceCounts(manager, [site.id]);
    return { site, siteSpaces: counts.get(site.id) ?? 0 };
  }

  /** Number of site spaces of each site (sections' variants and root ones alike). */
  private async siteSpaceCounts(
    manager: EntityManager,
    siteIds: string[],
  ): Promise<Map<string, number>> {
    if (siteIds.length === 0) return new Map();
    const rows: { site_id: string; count: number }[] = await manager.query(
      `SELECT site_id, count(*)::int AS count FROM site_spaces
        WHERE site_id = ANY($1) GROUP BY site_id`,
      [siteIds],
    );
    return new Map(rows.map((row) => [row.site_id, row.count]));
  }
}
