import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { SiteReaderActor } from '../../platform/auth/actor';
import { preparedQuery } from '../../platform/database/prepared-query';

/** A site a URL may be under, with its organization's hostname and how the URL matched it. */
export type SiteCandidateRow = Record<string, unknown> & {
  id: string;
  organization_hostname: string | null;
  /** 1: under its proxy origin; 2: on its custom hostname; 3: under the instance's sites URL. */
  matched_by: 1 | 2 | 3;
  proxy: string | null;
  hostname: string | null;
  basename: string | null;
  /** The site's structure, as `row_to_json` rows: its groups, sections and the site spaces
   * whose space is live (not in the trash). */
  structure_groups: Record<string, unknown>[];
  structure_sections: Record<string, unknown>[];
  structure_live_site_spaces: Record<string, unknown>[];
};

/**
 * Reads of the published side: which site a URL names, and whether a site reader's token
 * still opens what it asks for. Sites and share links are this module's tables; a reader's
 * space is read here too (the `spaces` table is the spaces module's) because whether a site
 * still publishes it is part of the same statement.
 */
@Injectable()
export class PublishedContentRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * The sites a URL may be under, best match first: a site whose proxy origin is one of
   * `proxies`, the site on custom hostname `host` once its DNS check found it live (a hostname
   * still pending is no one's), and the sites of the instance's sites URL
   * (`platform`: the organization's hostname or id, or null when SITES_URL names none, and the
   * site's basename or id). The caller checks the rest of the URL against each. Each comes
   * with its structure, so that a lookup is one round trip.
   */
  async siteCandidates(
    host: string,
    proxies: string[],
    platform: { organization: string | null; site: string } | null,
  ): Promise<SiteCandidateRow[]> {
    return preparedQuery<SiteCandidateRow>(
      this.dataSource.manager,
      'bindery_published_site_candidates_with_structure',
      `SELECT s.*, o.hostname AS organization_hostname,
              CASE WHEN s.proxy = ANY($2::varchar[]) THEN 1
                   WHEN s.hostname = $1 AND s.hostname_status = 'live' THEN 2
                   ELSE 3 END AS matched_by,
              (SELECT coalesce(json_agg(g), '[]') FROM site_section_groups g
                WHERE g.site_id = s.id) AS structure_groups,
              (SELECT coalesce(json_agg(x), '[]') FROM site_sections x
                WHERE x.site_id = s.id) AS structure_sections,
              (SELECT coalesce(json_agg(ss), '[]') FROM site_spaces ss
                 JOIN spaces sp ON sp.id = ss.space_id AND sp.deleted_at IS NULL
                WHERE ss.site_id = s.id) AS structure_live_site_spaces
         FROM sites s JOIN organizations o ON o.id = s.organization_id
        WHERE s.proxy = ANY($2::varchar[])
           OR (s.hostname = $1 AND s.hostname_status = 'live')
           OR ($5 AND ($4::varchar = s.basename OR $4::varchar = s.id)
               AND ($3::varchar IS NULL OR o.hostname = $3 OR o.id = $3))
        ORDER BY matched_by, s.basename = $4 DESC NULLS LAST, s.published DESC, s.created_at, s.id
        LIMIT 10`,
      [host, proxies, platform?.organization ?? null, platform?.site ?? '', platform !== null],
    );
  }

  /** The id of the active share link of `siteId` whose key hashes to `keyHash`, if any. */
  async activeShareLinkId(siteId: string, keyHash: string): Promise<string | null> {
    const rows = await preparedQuery<{ id: string }>(
      this.dataSource.manager,
      'bindery_published_share_link',
      `SELECT id FROM site_share_links WHERE site_id = $1 AND key_hash = $2 AND active`,
      [siteId, keyHash],
    );
    return rows[0]?.id ?? null;
  }

  /**
   * The site a reader's token was made for, if it is still published to that reader: the
   * site is published and its visibility still lets the reader in (an active share link for a
   * `share-link` site, an authenticated visitor for a `visitor-auth` one).
   */
  async readerSite(
    reader: SiteReaderActor,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Record<string, unknown> | null> {
    const rows = await preparedQuery(
      manager,
      'bindery_published_reader_site_preview',
      `SELECT s.* FROM sites s
        WHERE s.id = $1 AND s.organization_id = $2 AND ${openToReader('$5')}`,
      [
        reader.siteId,
        reader.organizationId,
        reader.shareLinkId,
        reader.authenticated,
        reader.preview !== null,
      ],
    );
    return rows[0] ?? null;
  }

  /**
   * A live space that the reader's site still publishes (a site space of it), while the site
   * is open to the reader as in `readerSite`; null otherwise.
   */
  async readerSpace(
    reader: SiteReaderActor,
    spaceId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Record<string, unknown> | null> {
    const rows = await preparedQuery(
      manager,
      'bindery_published_reader_space_preview',
      `SELECT sp.* FROM spaces sp
        WHERE sp.id = $5 AND sp.organization_id = $2 AND sp.deleted_at IS NULL
          AND EXISTS (SELECT 1 FROM sites s JOIN site_spaces ss ON ss.site_id = s.id
                       WHERE s.id = $1 AND s.organization_id = $2 AND ss.space_id = sp.id
                         AND ${openToReader('$6')})`,
      [
        reader.siteId,
        reader.organizationId,
        reader.shareLinkId,
        reader.authenticated,
        spaceId,
        reader.preview !== null,
      ],
    );
    return rows[0] ?? null;
  }

  /**
   * Whether `revisionId` was the space's primary content shortly before `currentRevisionId`:
   * on the first-parent line from it (a merge's first parent is the primary it merged into),
   * at most PUBLISHED_HISTORY_DEPTH revisions back. A renderer that cached the space before a
   * merge reads that revision until it revalidates; a change request's own revisions are never
   * on that line.
   */
  async wasRecentlyPrimary(
    spaceId: string,
    currentRevisionId: string,
    revisionId: string,
  ): Promise<boolean> {
    const rows = await preparedQuery(
      this.dataSource.manager,
      'bindery_published_recent_primary',
      `WITH RECURSIVE line(id, parent, depth) AS (
         SELECT id, parents[1], 0 FROM revisions WHERE id = $2 AND space_id = $1
         UNION ALL
         SELECT r.id, r.parents[1], line.depth + 1 FROM revisions r
           JOIN line ON r.id = line.parent AND r.space_id = $1
          WHERE line.depth < $4)
       SELECT 1 FROM line WHERE id = $3 LIMIT 1`,
      [spaceId, currentRevisionId, revisionId, PUBLISHED_HISTORY_DEPTH],
    );
    return rows.length > 0;
  }
}

/** How many revisions back a site reader may still read a space's primary content. */
export const PUBLISHED_HISTORY_DEPTH = 20;

/**
 * `s` (a site) is open to the reader: a member's preview (the boolean parameter `preview`) opens it
 * whatever its state; anyone else's token, once it is published and open to share link $3 and
 * authentication $4.
 */
const openToReader = (preview: string) => `(${preview}::boolean OR (s.published AND (
     s.visibility IN ('public', 'unlisted')
  OR (s.visibility = 'share-link' AND EXISTS (
        SELECT 1 FROM site_share_links l WHERE l.id = $3 AND l.site_id = s.id AND l.active))
  OR (s.visibility = 'visitor-auth' AND $4::boolean))))`;
