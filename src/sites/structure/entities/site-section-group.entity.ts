import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Site } from '../../entities/site.entity';

/**
 * A group of sections in a site's navigation, at the site root or inside another group
 * (`parentId`). Sections and groups of one parent share one order (`position`).
 */
@Entity('site_section_groups')
@Index('IDX_site_section_groups_site_id_created_at', ['siteId', 'createdAt', 'id'])
export class SiteSectionGroup {
  @PrimaryColumn({
    type: 'varchar',
    length: 32,
    primaryKeyConstraintName: 'PK_site_section_groups',
  })
  id!: string;

  @Column({ type: 'varchar', length: 32 })
  siteId!: string;

  @ManyToOne(() => Site, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'site_id', foreignKeyConstraintName: 'FK_site_section_groups_site_id' })
  site?: Site;

  /** The group it is nested in; null at the site root. */
  @Index('IDX_site_section_groups_parent_id')
  @Column({ type: 'varchar', length: 32, nullable: true })
  parentId!: string | null;

  // Deleting a group moves its children up first; SET NULL only guards against a stray row.
  @ManyToOne(() => SiteSectionGroup, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'parent_id', foreignKeyConstraintName: 'FK_site_section_groups_parent_id' })
  parent?: SiteSectionGroup | null;

  @Column({ type: 'varchar', length: 100 })
  title!: string;

  @Column({ type: 'varchar', length: 50, nullable: true })
  icon!: string | null;

  /** Order among the sections and groups of its parent. */
  @Column({ type: 'integer' })
  position!: number;

  @Column({ type: 'timestamptz' })
  createdAt!: Date;
}
