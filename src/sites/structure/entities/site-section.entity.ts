import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Site } from '../../entities/site.entity';
import { SiteSectionGroup } from './site-section-group.entity';

/**
 * A section of a site (a tab of the published site), whose variants are its site spaces. At the
 * site root or in a group (`sectionGroupId`); sections and groups of one parent share one order
 * (`position`). `path` is unique in the site. The site's default section is `sites.
 * default_site_section_id`; the section's default variant is `defaultSiteSpaceId`, a plain id
 * kept true by the structure services (a space purged from the trash takes its site spaces with
 * it, so readers fall back to the first variant).
 */
@Entity('site_sections')
@Index('UQ_site_sections_site_id_path', ['siteId', 'path'], { unique: true })
@Index('IDX_site_sections_site_id_created_at', ['siteId', 'createdAt', 'id'])
export class SiteSection {
  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'PK_site_sections' })
  id!: string;

  @Column({ type: 'varchar', length: 32 })
  siteId!: string;

  @ManyToOne(() => Site, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'site_id', foreignKeyConstraintName: 'FK_site_sections_site_id' })
  site?: Site;

  /** The group it is in; null at the site root. */
  @Index('IDX_site_sections_section_group_id')
  @Column({ type: 'varchar', length: 32, nullable: true })
  sectionGroupId!: string | null;

  // Deleting a group moves its sections up first; SET NULL only guards against a stray row.
  @ManyToOne(() => SiteSectionGroup, { onDelete: 'SET NULL' })
  @JoinColumn({
    name: 'section_group_id',
    foreignKeyConstraintName: 'FK_site_sections_section_group_id',
  })
  sectionGroup?: SiteSectionGroup | null;

  @Column({ type: 'varchar', length: 128 })
  title!: string;

  @Column({ type: 'varchar', length: 100 })
  path!: string;

  @Column({ type: 'varchar', length: 256, nullable: true })
  description!: string | null;

  @Column({ type: 'varchar', length: 50, nullable: true })
  icon!: string | null;

  /** Visibility to a visitor, an expression over the visitor's claims. */
  @Column({ type: 'varchar', length: 1024, nullable: true })
  condition!: string | null;

  @Column({ type: 'varchar', length: 32, nullable: true })
  defaultSiteSpaceId!: string | null;

  @Column({ type: 'integer' })
  position!: number;

  @Column({ type: 'timestamptz' })
  createdAt!: Date;
}
