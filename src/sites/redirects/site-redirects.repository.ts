import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { paginate, PageRequest } from '../../platform/pagination/keyset';
import { Page } from '../../platform/pagination/page';
import { SiteRedirect } from './entities/site-redirect.entity';

/** GitBook's `SiteRedirectOrderBy`. */
export const SITE_REDIRECT_ORDERS = ['createdAt', 'updatedAt', 'source'] as const;
export type SiteRedirectOrder = (typeof SITE_REDIRECT_ORDERS)[number];

export interface SiteRedirectFilters {
  draft: boolean;
  /** Only the redirects whose source contains this text (case-insensitive). */
  search?: string;
}

/** A site space of a published site, for the redirects its pages' moves leave behind. */
export interface PublishedSiteSpaceRow {
  site_id: string;
  site_space_id: string;
}

/** A live redirect to a page of a site space, as a space asks for it. */
export interface SitePageRedirectRow {
  id: string;
  siteId: string;
  siteSpaceId: string;
  pageId: string;
  source: string;
  sourceKey: string;
}

/** A live redirect of a site space's, to delete: the site's, from `sourceKey`. */
export interface SitePageRedirectKey {
  siteId: string;
  siteSpaceId: string;
  sourceKey: string;
}

/** The fields of a redirect that an update writes. */
export type SiteRedirectChanges = Pick<
  SiteRedirect,
  | 'source'
  | 'sourceKey'
  | 'wildcardPrefix'
  | 'draft'
  | 'captureWildcard'
  | 'permanent'
  | 'destination'
  | 'updatedAt'
  | 'writtenAt'
>;

/** The `site_redirects` table. */
@Injectable()
export class SiteRedirectsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * A page of the site's live (or draft) redirects: newest first by creation (`createdAt`) or
   * by last write (`updatedAt`), or by source.
   */
  list(
    siteId: string,
    filters: SiteRedirectFilters,
    orderBy: SiteRedirectOrder,
    request: PageRequest,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Page<SiteRedirect>> {
    const query = manager
      .getRepository(SiteRedirect)
      .createQueryBuilder('redirect')
      .where('redirect.site_id = :siteId AND redirect.draft = :draft', {
        siteId,
        draft: filters.draft,
      });
    if (filters.search !== undefined) {
      query.andWhere(`redirect.source ILIKE :search ESCAPE '\\'`, {
        search: `%${filters.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`,
      });
    }
    const id = { sql: 'redirect.id', of: (redirect: SiteRedirect) => redirect.id };
    switch (orderBy) {
      case 'createdAt':
        return paginate(query, request, {
          keys: [{ sql: 'redirect.created_at', of: (redirect) => redirect.createdAt }, id],
          direction: 'DESC',
        });
      case 'updatedAt':
        return paginate(query, request, {
          keys: [{ sql: 'redirect.written_at', of: (redirect) => redirect.writtenAt }, id],
          direction: 'DESC',
        });
      case 'source':
        return paginate(query, request, {
          keys: [{ sql: 'redirect.source', of: (redirect) => redirect.source }, id],
          direction: 'ASC',
        });
    }
  }

  findById(
    siteId: string,
    id: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<SiteRedirect | null> {
    return manager.findOneBy(SiteRedirect, { siteId, id });
  }

  /** The site's live (or draft) redirect whose source has this key. */
  findBySourceKey(
    siteId: string,
    draft: boolean,
    sourceKey: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<SiteRedirect | null> {
    return manager.findOneBy(SiteRedirect, { siteId, draft, sourceKey });
  }

  /**
   * The live wildcard of the site that the path keyed `pathKey` falls under, the longest when
   * several do (`/docs/api/*` before `/docs/*`); null when none does.
   */
  async findLiveWildcard(
    siteId: string,
    pathKey: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<SiteRedirect | null> {
    return manager
      .getRepository(SiteRedirect)
      .createQueryBuilder('redirect')
      .where('redirect.site_id = :siteId AND NOT redirect.draft', { siteId })
      .andWhere('redirect.wildcard_prefix IS NOT NULL')
      .andWhere('starts_with(:pathKey, redirect.wildcard_prefix)', { pathKey })
      .orderBy('length(redirect.wildcard_prefix)', 'DESC')
      .addOrderBy('redirect.id', 'ASC')
      .limit(1)
      .getOne();
  }

  async insert(
    redirect: SiteRedirect,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.insert(SiteRedirect, redirect);
  }

  /**
   * Inserts those of `redirects` whose source the site has no live (or draft) redirect for
   * yet (`ON CONFLICT DO NOTHING`), leaving the others as they are.
   */
  async insertMissing(
    redirects: SiteRedirect[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    if (redirects.length === 0) return;
    await manager
      .createQueryBuilder()
      .insert()
      .into(SiteRedirect)
      .values(redirects)
      .orIgnore()
      .execute();
  }

  /**
   * Writes live, not permanent redirects to these pages in one statement: inserted, or, where
   * the site has a live redirect from that source already, that one sent to the page (its
   * source as written, its other fields and its id kept); one already sent there is left as
   * it is. At most one row per site and source key. Answers the sites written.
   */
  async upsertLiveToPages(
    rows: SitePageRedirectRow[],
    now: Date,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<string[]> {
    if (rows.length === 0) return [];
    const items = rows.map((row) => ({
      id: row.id,
      site_id: row.siteId,
      source: row.source,
      source_key: row.sourceKey,
      destination: { kind: 'site-page', siteSpaceId: row.siteSpaceId, pageId: row.pageId },
    }));
    const written: { site_id: string }[] = await manager.query(
      `INSERT INTO site_redirects AS redirect (id, site_id, source, source_key, wildcard_prefix,
              draft, capture_wildcard, permanent, destination, created_at, updated_at, written_at)
       SELECT item.id, item.site_id, item.source, item.source_key, NULL,
              false, false, false, item.destination, $2::timestamptz, NULL, $2::timestamptz
         FROM jsonb_to_recordset($1::jsonb)
           AS item(id varchar, site_id varchar, source varchar, source_key varchar, destination jsonb)
       ON CONFLICT (site_id, draft, source_key) DO UPDATE
          SET destination = EXCLUDED.destination,
              updated_at = EXCLUDED.written_at,
              written_at = EXCLUDED.written_at
        WHERE redirect.destination IS DISTINCT FROM EXCLUDED.destination
       RETURNING redirect.site_id`,
      [JSON.stringify(items), now],
    );
    return [...new Set(written.map((row) => row.site_id))];
  }

  /**
   * Deletes, in one statement, the live redirects from these sources of their sites that send
   * to a page of the site space named with them (one sent anywhere else stays). Answers the
   * sites that lost one.
   */
  async deleteLiveToPages(
    keys: SitePageRedirectKey[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<string[]> {
    if (keys.length === 0) return [];
    const values = keys.map((key) => ({
      site_id: key.siteId,
      site_space_id: key.siteSpaceId,
      source_key: key.sourceKey,
    }));
    // A DELETE ... RETURNING is answered as [rows, count].
    const [deleted]: [{ site_id: string }[], number] = await manager.query(
      `DELETE FROM site_redirects redirect
        USING jsonb_to_recordset($1::jsonb)
           AS gone(site_id varchar, site_space_id varchar, source_key varchar)
        WHERE redirect.site_id = gone.site_id
          AND NOT redirect.draft
          AND redirect.source_key = gone.source_key
          AND redirect.destination->>'kind' = 'site-page'
          AND redirect.destination->>'siteSpaceId' = gone.site_space_id
       RETURNING redirect.site_id`,
      [JSON.stringify(values)],
    );
    return [...new Set(deleted.map((row) => row.site_id))];
  }

  async update(
    id: string,
    changes: SiteRedirectChanges,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.update(SiteRedirect, { id }, changes);
  }

  /** Deletes the site's redirect `id`; answers whether there was one. */
  async delete(
    siteId: string,
    id: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<boolean> {
    const result = await manager.delete(SiteRedirect, { siteId, id });
    return (result.affected ?? 0) > 0;
  }

  /**
   * The site spaces of `spaceId` in published sites. Reads `site_spaces` and `sites` (the
   * structure's and the sites' tables) to stay one query: it runs on every move of a space's
   * primary revision, most of them in spaces no site publishes.
   */
  publishedSiteSpacesOf(
    spaceId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<PublishedSiteSpaceRow[]> {
    return manager.query(
      `SELECT ss.site_id, ss.id AS site_space_id
         FROM site_spaces ss JOIN sites s ON s.id = ss.site_id
        WHERE ss.space_id = $1 AND s.published
        ORDER BY ss.site_id, ss.id`,
      [spaceId],
    );
  }
}
