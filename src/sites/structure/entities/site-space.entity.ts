import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Space } from '../../../spaces/entities/space.entity';
import { Site } from '../../entities/site.entity';
import { SiteSection } from './site-section.entity';

/**
 * A space published in a site: a variant of a section, or at the site root for a site without
 * sections. Its siblings (same section, or the root) are ordered by `position` and have unique
 * paths. The default among them is `site_sections.default_site_space_id` (or
 * `sites.default_site_space_id` at the root). It goes with its site, its section, and its space
 * when that is purged from the trash.
 */
@Entity('site_spaces')
@Index('UQ_site_spaces_section_id_path', ['sectionId', 'path'], {
  unique: true,
  where: `"section_id" IS NOT NULL`,
})
@Index('UQ_site_spaces_site_id_path', ['siteId', 'path'], {
  unique: true,
  where: `"section_id" IS NULL`,
})
@Index('IDX_site_spaces_site_id_created_at', ['siteId', 'createdAt', 'id'])
export class SiteSpace {
  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'PK_site_spaces' })
  id!: string;

  @Column({ type: 'varchar', length: 32 })
  siteId!: string;

  @ManyToOne(() => Site, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'site_id', foreignKeyConstraintName: 'FK_site_spaces_site_id' })
  site?: Site;

  /** The section it is a variant of; null at the root of a site without sections. */
  @Column({ type: 'varchar', length: 32, nullable: true })
  sectionId!: string | null;

  @ManyToOne(() => SiteSection, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'section_id', foreignKeyConstraintName: 'FK_site_spaces_section_id' })
  section?: SiteSection | null;

  @Index('IDX_site_spaces_space_id')
  @Column({ type: 'varchar', length: 32 })
  spaceId!: string;

  @ManyToOne(() => Space, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'space_id', foreignKeyConstraintName: 'FK_site_spaces_space_id' })
  space?: Space;

  @Column({ type: 'varchar', length: 100 })
  path!: string;

  /** Visibility to a visitor, an expression over the visitor's claims. */
  @Column({ type: 'varchar', length: 1024, nullable: true })
  condition!: string | null;

  @Column({ type: 'integer' })
  position!: number;

  @Column({ type: 'timestamptz' })
  createdAt!: Date;
}
