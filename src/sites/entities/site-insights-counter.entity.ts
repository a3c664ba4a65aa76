import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Site } from './site.entity';

const KEY = { primaryKeyConstraintName: 'PK_site_insights_counters' } as const;

/**
 * How many events of one type a site received on one day (UTC), for one page of one site space
 * and, for feedback, one rating. Nothing else of an event is kept: no address, user agent,
 * visitor, session, URL or text. What an event does not name is '' (part of the key).
 */
@Entity('site_insights_counters')
export class SiteInsightsCounter {
  @PrimaryColumn({ type: 'varchar', length: 32, ...KEY })
  siteId!: string;

  @ManyToOne(() => Site, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'site_id', foreignKeyConstraintName: 'FK_site_insights_counters_site_id' })
  site?: Site;

  /** The UTC day, `YYYY-MM-DD`. */
  @PrimaryColumn({ type: 'date', ...KEY })
  day!: string;

  /** GitBook's `SiteInsightsEventType`. */
  @PrimaryColumn({ type: 'varchar', length: 32, ...KEY })
  eventType!: string;

  /** A site space of the site, or ''. */
  @PrimaryColumn({ type: 'varchar', length: 32, ...KEY })
  siteSpaceId!: string;

  /** The space of that site space, or ''. */
  @PrimaryColumn({ type: 'varchar', length: 32, ...KEY })
  spaceId!: string;

  /** A page of that space as the event named it, or ''. */
  @PrimaryColumn({ type: 'varchar', length: 64, ...KEY })
  pageId!: string;

  /** `bad`, `ok`, `good` (page feedback), `positive`, `negative` (answer ratings), or ''. */
  @PrimaryColumn({ type: 'varchar', length: 8, ...KEY })
  rating!: string;

  @Column({ type: 'integer' })
  count!: number;
}
