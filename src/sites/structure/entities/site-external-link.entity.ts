import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Site } from '../../entities/site.entity';
import { SiteSectionGroup } from './site-section-group.entity';

/** Titles or descriptions by language (GitBook's `LocalizedString128` / `LocalizedString256`). */
export type LocalizedStrings = Record<string, string>;

/**
 * A link to another website in a site's navigation (GitBook's `SiteExternalLink`), at the site
 * root or in a section group (`sectionGroupId`), never in a section. It shares one order
 * (`position`) with the sections and groups of its parent. A draft link, or one whose condition
 * a visitor does not meet, is absent from what the published site shows.
 */
@Entity('site_external_links')
@Index('IDX_site_external_links_site_id_created_at', ['siteId', 'createdAt', 'id'])
export class SiteExternalLink {
  @PrimaryColumn({
    type: 'varchar',
    length: 32,
    primaryKeyConstraintName: 'PK_site_external_links',
  })
  id!: string;

  @Column({ type: 'varchar', length: 32 })
  siteId!: string;

  @ManyToOne(() => Site, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'site_id', foreignKeyConstraintName: 'FK_site_external_links_site_id' })
  site?: Site;

  /** The group it is in; null at the site root. */
  @Index('IDX_site_external_links_section_group_id')
  @Column({ type: 'varchar', length: 32, nullable: true })
  sectionGroupId!: string | null;

  // Deleting a group moves its links up first; SET NULL only guards against a stray row.
  @ManyToOne(() => SiteSectionGroup, { onDelete: 'SET NULL' })
  @JoinColumn({
    name: 'section_group_id',
    foreignKeyConstraintName: 'FK_site_external_links_section_group_id',
  })
  sectionGroup?: SiteSectionGroup | null;

  @Column({ type: 'varchar', length: 128 })
  title!: string;

  @Column({ type: 'jsonb', nullable: true })
  localizedTitle!: LocalizedStrings | null;

  @Column({ type: 'varchar', length: 256, nullable: true })
  description!: string | null;

  @Column({ type: 'jsonb', nullable: true })
  localizedDescription!: LocalizedStrings | null;

  @Column({ type: 'varchar', length: 50, nullable: true })
  icon!: string | null;

  /** An absolute http(s) URL. */
  @Column({ type: 'varchar', length: 2048 })
  url!: string;

  @Column({ type: 'boolean' })
  draft!: boolean;

  /** Visibility to a visitor, an expression over the visitor's claims. */
  @Column({ type: 'varchar', length: 1024, nullable: true })
  condition!: string | null;

  /** Order among the sections, groups and links of its parent. */
  @Column({ type: 'integer' })
  position!: number;

  @Column({ type: 'timestamptz' })
  createdAt!: Date;
}
