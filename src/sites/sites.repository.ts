import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { preparedQuery } from '../platform/database/prepared-query';
import { paginate, PageRequest } from '../platform/pagination/keyset';
import { siteGrantRolesSql } from '../platform/policy/content-access/granted-content';
import type { Role } from '../platform/policy/roles';
import { Page } from '../platform/pagination/page';
import { CustomHostnameStatus, Site, SiteType } from './entities/site.entity';

/** The tables of what a site holds, which site access reads. */
export type SiteChildTable =
  | 'site_spaces'
  | 'site_sections'
  | 'site_section_groups'
  | 'site_external_links'
  | 'site_share_links'
  | 'site_redirects';

/**
 * A site's columns, whether the child asked about is one of its own, and the roles granted on
 * the site to the caller or a team of its.
 */
export type SiteAccessRow = Record<string, unknown> & {
  child_found: boolean;
  grant_roles: Role[];
};

/** A site's columns, with what its published access needs about the caller. */
export type PublishedAccessRow = Record<string, unknown> & {
  caller_is_member: boolean;
  caller_role: Role | null;
  /** The roles granted on the site to the caller or a team of its. */
  grant_roles: Role[];
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
   * For site access decisions (SiteAccessPolicy): the organization's site, whether `child`
   * (a site space, section, section group, share link or redirect, by its table) is one of its
   * own, and the roles granted on the site to `userId` or a team of its (`content_grants`,
   * `team_members`: collections' and teams'), in one statement; null when the organization has
   * no such site.
   */
  async accessRow(
    organizationId: string,
    siteId: string,
    userId: string,
    child: { table: SiteChildTable; id: string } | null,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<SiteAccessRow | null> {
    // The table comes from SiteChildTable, never from input.
    const childFound = child
      ? `EXISTS (SELECT 1 FROM ${child.table} c WHERE c.site_id = s.id AND c.id = $4)`
      : 'false';
    const rows = await preparedQuery<SiteAccessRow>(
      manager,
      `bindery_resolve_site_${child?.table ?? 'only'}`,
      `SELECT s.*, ${childFound} AS child_found,
              ${siteGrantRolesSql('s.id', 's.organization_id', '$3')} AS grant_roles
         FROM sites s WHERE s.organization_id = $1 AND s.id = $2`,
      child ? [organizationId, siteId, userId, child.id] : [organizationId, siteId, userId],
    );
    return rows[0] ?? null;
  }

  /**
   * For the published site's access (PublishedSiteAccessPolicy): the organization's site with
   * the caller's role in the organization (`organization_members`, orgs': absent for a
   * non-member), the roles granted on the site to it or a team of its, and whether an active share link of the site has the key hashed
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
              CASE WHEN m.user_id IS NOT NULL
                   THEN ${siteGrantRolesSql('s.id', 's.organization_id', '$3')}
                   ELSE '{}'::varchar[] END AS grant_roles,
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

  /**
   * The roles granted to `userId` or a team of its on each of the organization's sites
   * `siteIds` that has any (`content_grants`, `team_members`: collections' and teams'), by site.
   */
  async grantRolesOn(
    organizationId: string,
    siteIds: string[],
    userId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Map<string, Role[]>> {
    if (siteIds.length === 0) return new Map();
    const rows: { id: string; grant_roles: Role[] }[] = await manager.query(
      `SELECT s.id, ${siteGrantRolesSql('s.id', '$1', '$3')} AS grant_roles
         FROM sites s WHERE s.organization_id = $1 AND s.id = ANY($2::varchar[])`,
      [organizationId, siteIds, userId],
    );
    return new Map(rows.map((row) => [row.id, row.grant_roles]));
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

  /** The site whose custom hostname is `hostname`, if any. */
  findByHostname(
    hostname: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Site | null> {
    return manager.findOneBy(Site, { hostname });
  }

  /**
   * Records the DNS check of site `siteId`'s hostname, if the site still has that hostname (a
   * change meanwhile has its own check); whether it did.
   */
  async setHostnameStatus(
    siteId: string,
    hostname: string,
    status: CustomHostnameStatus,
    checkedAt: Date,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<boolean> {
    const { affected } = await manager.update(
      Site,
      { id: siteId, hostname },
      { hostnameStatus: status, hostnameCheckedAt: checkedAt },
    );
    return (affected ?? 0) > 0;
  }

  /** Takes custom hostname `hostname` off its site; whether a site had it. */
  async clearHostname(
    hostname: string,
    updatedAt: Date,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Site | null> {
    const site = await manager.findOneBy(Site, { hostname });
    if (!site) return null;
    await manager.update(
      Site,
      { id: site.id, hostname },
      { hostname: null, hostnameStatus: null, hostnameCheckedAt: null, updatedAt },
    );
    return site;
  }

  /**
   * Sites whose custom hostname is due a recheck, least recently checked first: unchecked ones,
   * those not live checked before `pendingBefore`, and live ones checked before `liveBefore`.
   */
  async hostnamesDue(
    pendingBefore: Date,
    liveBefore: Date,
    limit: number,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Pick<Site, 'id' | 'hostname' | 'hostnameStatus'>[]> {
    const rows: { id: string; hostname: string; hostname_status: CustomHostnameStatus | null }[] =
      await manager.query(
        `SELECT id, hostname, hostname_status FROM sites
          WHERE hostname IS NOT NULL
            AND (hostname_checked_at IS NULL
              OR (hostname_status IS DISTINCT FROM 'live' AND hostname_checked_at < $1)
              OR (hostname_status = 'live' AND hostname_checked_at < $2))
          ORDER BY hostname_checked_at NULLS FIRST, id
          LIMIT $3`,
        [pendingBefore, liveBefore, limit],
      );
    return rows.map((row) => ({
      id: row.id,
      hostname: row.hostname,
      hostnameStatus: row.hostname_status,
    }));
  }
}
