import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Site } from '../../../sites/entities/site.entity';
import type { JsonObject } from '../../../sites/entities/site.entity';
import { SiteQuestionAnswer } from './site-question-answer.entity';

/**
 * Feedback an agent gave a site (GitBook's `submitAgentFeedbackToSite` and the deprecated
 * `submitSiteAgentFeedback`), as given: what it is about, the feedback, the agent that reported
 * it. `answerId` is the answer it names by its response id, if any.
 */
@Entity('site_agent_feedback')
@Index('IDX_site_agent_feedback_site_id_created_at', ['siteId', 'createdAt'])
export class SiteAgentFeedback {
  @PrimaryColumn({
    type: 'varchar',
    length: 32,
    primaryKeyConstraintName: 'PK_site_agent_feedback',
  })
  id!: string;

  @Column({ type: 'varchar', length: 32 })
  siteId!: string;

  @ManyToOne(() => Site, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'site_id', foreignKeyConstraintName: 'FK_site_agent_feedback_site_id' })
  site?: Site;

  @Index('IDX_site_agent_feedback_answer_id')
  @Column({ type: 'varchar', length: 32, nullable: true })
  answerId!: string | null;

  @ManyToOne(() => SiteQuestionAnswer, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'answer_id', foreignKeyConstraintName: 'FK_site_agent_feedback_answer_id' })
  answer?: SiteQuestionAnswer | null;

  /** GitBook's `AgentFeedbackSubject` (`site-content` for the deprecated operation's). */
  @Column({ type: 'jsonb' })
  subject!: JsonObject;

  /** GitBook's `AgentFeedbackContent`, or the deprecated operation's text and goal. */
  @Column({ type: 'jsonb' })
  feedback!: JsonObject;

  @Column({ type: 'jsonb', nullable: true })
  reportedBy!: JsonObject | null;

  /** GitBook's `AgentFeedbackSource` (`mcp`, `assistant`) of the deprecated operation. */
  @Column({ type: 'varchar', length: 16, nullable: true })
  source!: string | null;

  @Index('IDX_site_agent_feedback_created_at')
  @Column({ type: 'timestamptz' })
  createdAt!: Date;
}
