import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Site } from './site.entity';

/**
 * A share link of a site: a secret `key` that opens a `share-link` site to whoever holds it,
 * while `active`. Belongs to its organization through its site.
 */
@Entity('site_share_links')
@Index('IDX_site_share_links_site_id_created_at', ['siteId', 'createdAt', 'id'])
export class SiteShareLink {
  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'PK_site_share_links' })
  id!: string;

  @Column({ type: 'varchar', length: 32 })
  siteId!: string;

  @ManyToOne(() => Site, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'site_id', foreignKeyConstraintName: 'FK_site_share_links_site_id' })
  site?: Site;

  /** The secret a visitor passes as `shareKey`. */
  @Index('UQ_site_share_links_key', { unique: true })
  @Column({ type: 'varchar', length: 64 })
  key!: string;

  @Column({ type: 'varchar', length: 50 })
  name!: string;

  @Column({ type: 'boolean', default: true })
  active!: boolean;

  @Column({ type: 'timestamptz' })
  createdAt!: Date;
}
