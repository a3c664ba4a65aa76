import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Site } from './site.entity';

/**
 * How visitors of a `visitor-auth` site authenticate: a custom backend signs their tokens with
 * the site's private key (kept sealed, never in clear) and sends them to `fallbackUrl` to log
 * in. One row per site, made the first time it is read.
 */
@Entity('site_publishing_auth')
export class SitePublishingAuth {
  @PrimaryColumn({
    type: 'varchar',
    length: 32,
    primaryKeyConstraintName: 'PK_site_publishing_auth',
  })
  siteId!: string;

  @ManyToOne(() => Site, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'site_id', foreignKeyConstraintName: 'FK_site_publishing_auth_site_id' })
  site?: Site;

  /** The key visitor tokens are signed with, sealed with the instance secret (SealedText). */
  @Column({ type: 'text' })
  privateKeySealed!: string;

  /** Where a visitor without a valid token goes to log in (GitBook's `fallbackURL`). */
  @Column({ type: 'varchar', length: 2048, nullable: true })
  fallbackUrl!: string | null;

  /** Where the site's logout link sends a visitor (GitBook's `logoutURL`). */
  @Column({ type: 'varchar', length: 2048, nullable: true })
  logoutUrl!: string | null;

  @Column({ type: 'timestamptz' })
  createdAt!: Date;

  @Column({ type: 'timestamptz' })
  updatedAt!: Date;
}
