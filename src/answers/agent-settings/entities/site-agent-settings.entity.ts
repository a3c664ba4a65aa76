import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { User } from '../../../users/entities/user.entity';
import { Site } from '../../../sites/entities/site.entity';
import type { JSONDocument } from '../../../content-engine/documents/document';

/** GitBook's `SiteAgentSettingsInput`, as stored. */
export interface SiteAgentSettingsValue {
  scans: { topics: 'auto' | 'never' };
  findings: { changeRequests: 'always' | 'auto-fixable' | 'never' };
  editing: { customInstructions: JSONDocument };
}

/** A site's agent settings; no row until they are first written. */
@Entity('site_agent_settings')
export class SiteAgentSettings {
  @PrimaryColumn({
    type: 'varchar',
    length: 32,
    primaryKeyConstraintName: 'PK_site_agent_settings',
  })
  siteId!: string;

  @ManyToOne(() => Site, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'site_id', foreignKeyConstraintName: 'FK_site_agent_settings_site_id' })
  site?: Site;

  @Column({ type: 'jsonb' })
  settings!: SiteAgentSettingsValue;

  @Column({ type: 'timestamptz' })
  updatedAt!: Date;

  /** The user who wrote them last; null once that user is deleted. */
  @Index('IDX_site_agent_settings_updated_by')
  @Column({ type: 'varchar', length: 32, nullable: true })
  updatedBy!: string | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'updated_by', foreignKeyConstraintName: 'FK_site_agent_settings_updated_by' })
  updater?: User | null;
}
