import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Site } from './site.entity';

/**
 * A share link of a site: a secret key that opens a `share-link` site to whoever holds it,
 * while `active`, kept as a hash (to find the link) and sealed (to show it again), never in
 * clear. Belongs to its organization through its site.
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

  /** SHA-256 (hex) of the secret a visitor passes as `shareKey`: what finds the link. */
  @Index('UQ_site_share_links_key_hash', { unique: true })
  @Column({ type: 'varchar', length: 64 })
  keyHash!: string;

  /** The secret itself, sealed with the instance secret (see SealedText), to show it again. */
  @Column({ type: 'text', nullable: true })
  keySealed!: string | null;

  /** The clear secret of a link made before keys were sealed, until the next start seals it. */
  @Column({ name: 'key', type: 'varchar', length: 64, nullable: true })
  clearKey!: string | null;

  @Column({ type: 'varchar', length: 50 })
  name!: string;

  @Column({ type: 'boolean', default: true })
  active!: boolean;

  @Column({ type: 'timestamptz' })
  createdAt!: Date;
}
