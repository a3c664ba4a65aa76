import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Site } from '../../../sites/entities/site.entity';

/**
 * The conversation a site assistant's response left, kept so that the next request may
 * continue it (`previousResponseId`) through any process, for an hour (`expiresAt`; the
 * `site-assistant-responses-purge` job deletes it after). Its owner is kept as a hash only.
 */
@Entity('site_assistant_responses')
export class SiteAssistantResponse {
  /** The response id (`response_finish`'s `responseId`). */
  @PrimaryColumn({
    type: 'varchar',
    length: 32,
    primaryKeyConstraintName: 'PK_site_assistant_responses',
  })
  id!: string;

  @Column({ type: 'varchar', length: 32 })
  siteId!: string;

  @ManyToOne(() => Site, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'site_id', foreignKeyConstraintName: 'FK_site_assistant_responses_site_id' })
  site?: Site;

  /** SHA-256 of who may continue it: a member's user, or the site token (its visitor). */
  @Column({ type: 'char', length: 64 })
  ownerHash!: string;

  /** The question it answers. */
  @Column({ type: 'text' })
  question!: string;

  /** The conversation as the model has it, but for the system message. */
  @Column({ type: 'jsonb' })
  messages!: unknown[];

  /** The reader's tool call it ended on, waiting for its result (`{id, tool}`). */
  @Column({ type: 'jsonb', nullable: true })
  pending!: { id: string; tool: string } | null;

  @Index('IDX_site_assistant_responses_expires_at')
  @Column({ type: 'timestamptz' })
  expiresAt!: Date;
}
