import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { preparedQuery } from '../platform/database/prepared-query';
import { paginate, PageRequest } from '../platform/pagination/keyset';
import type { Role } from '../platform/policy/roles';
import { Page } from '../platform/pagination/page';
import { Site, SiteType } from './entities/site.entity';

/** The tables of what a site holds, which site access reads. */
export type SiteChildTable =
  | 'site_spaces'
  | 'site_sections'
  | 'site_section_groups'
  | 'site_external_links'
  | 'site_share_links'
  | 'site_redirects';

/** A site's columns, and whether the child asked about is one of its own. */
export type SiteAccessRow = Record<string, unknown> & { child_found: boolean };

/** A site's columns, with what its published access needs about the caller. */
export type PublishedAccessRow = Record<string, unknown> & {
  caller_is_member: boolean;
  caller_role: Role | null;
  share_key_opens: boolean;
};

/** The filters of GitBook's `listSites`; absent ones do not filter. */
export interface SiteListFilters {
  /** Only sites with a site space of this space. */
  space?: string;
  /** Only sites whose title contains this text (case-insensitive, no wildcards). */
  title?: string;
  published?: boolean;
  type?: SiteType[];
}

/** A site's defaults as stored now. */
export interface SiteDefaultsRow {
  default_site_section_id: string | null;
  default_site_space_id: string | null;
}

/** The `sites` table. */
@Injectable()
export class SitesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * For site access decisions (SiteAccessPolicy): the organization's site, and whether `child`
   * (a site space, section, section group, share link or redirect, by its table) is one of its own, in
   * one statement; null when the organization has no such site.
   */
  async accessRow(
    organizationId: string,
    siteId: string,
    child: { table: SiteChildTable; id: string } | null,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<SiteAccessRow | null> {
    // The table comes from SiteChildTable, never from input.
    const childFound = child
      ? `EXISTS (SELECT 1 FROM ${child.table} c WHERE c.site_id = s.id AND c.id = $3)`
      : 'false';
    const rows = await preparedQuery<SiteAccessRow>(
      manager,
      `bindery_resolve_site_${child?.table ?? 'only'}`,
      `SELECT s.*, ${childFound} AS child_found
         FROM sites s WHERE s.organization_id = $1 AND s.id = $2`,
      child ? [organizationId, siteId, child.id] : [organizationId, siteId],
    );
    return rows[0] ?? null;
  }

  /**
   * For the published site's access (PublishedSiteAccessPolicy): the organization's site with
   * the caller's role in the organization (`organization_members`, orgs': absent for a
   * non-member) and whether an active share link of the site has the key hashed
   * `shareKeyHash` (`site_share_links`), in one statement; null when there is no such site.
   */
  async publishedAccessRow(
    organizationId: string,
    siteId: string,
    userId: string,
    shareKeyHash: string | null,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<PublishedAccessRow | null> {
    const rows = await preparedQuery<PublishedAccessRow>(
      manager,
      'bindery_resolve_published_site',
      `SELECT s.*, m.user_id IS NOT NULL AS caller_is_member, m.role AS caller_role,
              ($4::varchar IS NOT NULL AND EXISTS (
                 SELECT 1 FROM site_share_links l
                  WHERE l.site_id = s.id AND l.key_hash = $4 AND l.active)) AS share_key_opens
         FROM sites s
         LEFT JOIN organization_members m
           ON m.organization_id = s.organization_id AND m.user_id = $3 AND NOT m.disabled
        WHERE s.organization_id = $1 AND s.id = $2`,
      [organizationId, siteId, userId, shareKeyHash],
    );
    return rows[0] ?? null;
  }

  /** A page of the organization's sites matching `filters`, oldest first. */
  listForOrganization(
    organizationId: string,
    filters: SiteListFilters,
    request: PageRequest,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Page<Site>> {
    const builder = manager
      .getRepository(Site)
      .createQueryBuilder('site')
      .where('site.organization_id = :organizationId', { organizationId });
    if (filters.space !== undefined) {
      builder.andWhere(
        'EXISTS (SELECT 1 FROM site_spaces ss WHERE ss.site_id = site.id AND ss.space_id = :space)',
        { space: filters.space },
      );
    }
    if (filters.title !== undefined) {
      builder.andWhere(`site.title ILIKE :title ESCAPE '\\'`, {
        title: `%${filters.title.replace(/[\\%_]/g, (c) => `\\${c}`)}%`,
      });
    }
    if (filters.published !== undefined) {
      builder.andWhere('site.published = :published', { published: filters.published });
    }
    if (filters.type !== undefined) {
      builder.andWhere('site.type IN (:...types)', { types: filters.type });
    }
    return paginate(builder, request, {
      keys: [
        { sql: 'site.created_at', of: (site) => site.createdAt },
        { sql: 'site.id', of: (site) => site.id },
      ],
      direction: 'ASC',
    });
  }

  /**
   * The site's default section and site space as stored now (none when the site is gone);
   * with `lock`, the row is locked (`FOR NO KEY UPDATE`) for the rest of the transaction.
   */
  async findDefaults(
    siteId: string,
    options: { lock?: boolean } = {},
    manager: EntityManager = this.dataSource.manager,
  ): Promise<SiteDefaultsRow | null> {
    const rows: SiteDefaultsRow[] = await manager.query(
      `SELECT default_site_section_id, default_site_space_id FROM sites WHERE id = $1${
        options.lock ? ' FOR NO KEY UPDATE' : ''
      }`,
      [siteId],
    );
    return rows[0] ?? null;
  }

  /**
   * Sets (or, with `{}`, removes) the overrides of one site space, in one statement so that
   * concurrent overrides of different site spaces do not lose each other.
   */
  async setSiteSpaceCustomization(
    siteId: string,
    siteSpaceId: string,
    overrides: object,
    updatedAt: Date,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.query(
      `UPDATE sites SET site_space_customizations =
           CASE WHEN $2::jsonb = '{}'::jsonb THEN site_space_customizations - $1::text
                ELSE site_space_customizations || jsonb_build_object($1::text, $2::jsonb) END,
           updated_at = $3
         WHERE id = $4`,
      [siteSpaceId, JSON.stringify(overrides), updatedAt, siteId],
    );
  }

  /**
   * The organization's sites whose customization, or one of whose site spaces' overrides, names
   * the custom font (`styling.<setting>: {custom: true, id}`).
   */
  async idsUsingCustomFont(
    organizationId: string,
    fontId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<string[]> {
    const rows: { id: string }[] = await manager.query(
      `SELECT id FROM sites
        WHERE organization_id = $1
          AND (jsonb_path_exists(customization,
                 '$.styling.* ? (@.custom == true && @.id == $font)', $2::jsonb)
            OR jsonb_path_exists(site_space_customizations,
                 '$.*.styling.* ? (@.custom == true && @.id == $font)', $2::jsonb))
        ORDER BY id`,
      [organizationId, JSON.stringify({ font: fontId })],
    );
    return rows.map((row) => row.id);
  }

  /** Removes the overrides of one site space, if it has any. */
  async removeSiteSpaceCustomization(
    siteId: string,
    siteSpaceId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.query(
      `UPDATE sites SET site_space_customizations = site_space_customizations - $1::text
        WHERE id = $2 AND site_space_customizations ? $1::text`,
      [siteSpaceId, siteId],
    );
  }
}
