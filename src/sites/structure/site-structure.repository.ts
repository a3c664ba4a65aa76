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
}
