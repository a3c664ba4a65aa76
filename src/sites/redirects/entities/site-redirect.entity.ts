import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Site } from '../../entities/site.entity';

/** GitBook's `SiteRedirectDestination`, as stored and sent. */
export type SiteRedirectDestination =
  | { kind: 'site-section'; siteSectionId: string }
  | { kind: 'site-space'; siteSpaceId: string }
  | { kind: 'site-page'; siteSpaceId: string; pageId: string }
  | { kind: 'external'; url: string };

export const DESTINATION_KINDS = ['site-section', 'site-space', 'site-page', 'external'] as const;

/**
 * A redirect of a site: visitors of `source` (a path of the site; a wildcard when it ends in
 * `*`) are sent to `destination`. Matched by `sourceKey`, unique among the site's live
 * redirects and among its drafts (a draft may stand for the live one it will replace). Belongs
 * to its organization through its site.
 */
@Entity('site_redirects')
@Index('UQ_site_redirects_site_id_draft_source_key', ['siteId', 'draft', 'sourceKey'], {
  unique: true,
})
@Index('IDX_site_redirects_site_id_wildcards', ['siteId', 'draft'], {
  where: `"wildcard_prefix" IS NOT NULL`,
})
@Index('IDX_site_redirects_site_id_draft_created_at', ['siteId', 'draft', 'createdAt', 'id'])
@Index('IDX_site_redirects_site_id_draft_written_at', ['siteId', 'draft', 'writtenAt', 'id'])
@Index('IDX_site_redirects_site_id_draft_source', ['siteId', 'draft', 'source', 'id'])
export class SiteRedirect {
  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'PK_site_redirects' })
  id!: string;

  @Column({ type: 'varchar', length: 32 })
  siteId!: string;

  @ManyToOne(() => Site, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'site_id', foreignKeyConstraintName: 'FK_site_redirects_site_id' })
  site?: Site;

  /** As written (GitBook's `SiteRedirectSourcePath`). */
  @Column({ type: 'varchar', length: 512 })
  source!: string;

  /** The source normalized (see `sourceKey`): how paths find it. */
  @Column({ type: 'varchar', length: 2048 })
  sourceKey!: string;

  /** A wildcard's: the key that the paths it matches start with; null for a plain source. */
  @Column({ type: 'varchar', length: 2048, nullable: true })
  wildcardPrefix!: string | null;

  /** A draft is not served; publishing it replaces the live redirect of its source. */
  @Column({ type: 'boolean', default: false })
  draft!: boolean;

  @Column({ type: 'boolean', default: false })
  captureWildcard!: boolean;

  @Column({ type: 'boolean', default: false })
  permanent!: boolean;

  @Column({ type: 'jsonb' })
  destination!: SiteRedirectDestination;

  @Column({ type: 'timestamptz' })
  createdAt!: Date;

  /** Null until its first update (GitBook leaves `updatedAt` out then). */
  @Column({ type: 'timestamptz', nullable: true })
  updatedAt!: Date | null;

  /** Its last update, else its creation: the `updatedAt` order of the listing. */
  @Column({ type: 'timestamptz' })
  writtenAt!: Date;
}
