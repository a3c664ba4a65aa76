import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';

/** The `site_spaces`, `site_sections` and `site_section_groups` tables: a site's structure. */
@Injectable()
export class SiteStructureRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The number of site spaces of each of `siteIds` that has any (variants and root ones). */
  async countSiteSpacesBySite(
    siteIds: string[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Map<string, number>> {
    if (siteIds.length === 0) return new Map();
    const rows: { site_id: string; count: number }[] = await manager.query(
      `SELECT site_id, count(*)::int AS count FROM site_spaces
        WHERE site_id = ANY($1) GROUP BY site_id`,
      [siteIds],
    );
    return new Map(rows.map((row) => [row.site_id, row.count]));
  }

  /** Whether the site has the site space `siteSpaceId`. */
  async hasSiteSpace(
    siteId: string,
    siteSpaceId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `SELECT 1 FROM site_spaces WHERE id = $1 AND site_id = $2`,
      [siteSpaceId, siteId],
    );
    return rows.length > 0;
  }

  /** The spaces the site shows (once each). */
  async spaceIdsOfSite(
    siteId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<string[]> {
    const rows: { space_id: string }[] = await manager.query(
      `SELECT DISTINCT space_id FROM site_spaces WHERE site_id = $1`,
      [siteId],
    );
    return rows.map((row) => row.space_id);
  }

  /** The sites showing the space (a site space of it), in id order. */
  async siteIdsOfSpace(
    spaceId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<string[]> {
    const rows: { site_id: string }[] = await manager.query(
      `SELECT DISTINCT site_id FROM site_spaces WHERE space_id = $1 ORDER BY site_id`,
      [spaceId],
    );
    return rows.map((row) => row.site_id);
  }

  /**
   * Whether a published site shows the space (has a site space of it). It runs in every write
   * of a space's primary content, so it is one indexed lookup (`site_spaces.space_id`), which
   * reads `sites` (SitesRepository's table) for `published`.
   */
  async isSpacePublished(
    spaceId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `SELECT 1 FROM site_spaces JOIN sites ON sites.id = site_spaces.site_id
        WHERE site_spaces.space_id = $1 AND sites.published LIMIT 1`,
      [spaceId],
    );
    return rows.length > 0;
  }
}
