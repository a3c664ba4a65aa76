import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Site } from '../../../sites/entities/site.entity';
import { SiteQuestion } from './site-question.entity';

/** A page an answer drew from, as it was when asked (its title then). */
export interface StoredAnswerSource {
  space: string;
  revision: string;
  page: string;
  title: string;
}

/** Whether the answer answered: `no` when no page was found or the model wrote nothing. */
export type AnswerResolution = 'yes' | 'no';

/** GitBook's `SiteCoreChannelType` of an ask: `site` from a site's token, `api` from a member. */
export type AnswerChannel = 'site' | 'api';

/**
 * One ask of a question of a site: the text as asked, the answer the model wrote (Markdown;
 * null when it wrote none), the pages it drew from, the visitor's anonymous ids when the renderer
 * gave them, and its feedback. Never a member's identity, a visitor's claims or a token.
 */
@Entity('site_question_answers')
@Index('IDX_site_question_answers_site_id_created_at', ['siteId', 'createdAt', 'id'])
@Index('IDX_site_question_answers_question_id_created_at', ['questionId', 'createdAt', 'id'])
@Index('IDX_site_question_answers_site_id_response_id', ['siteId', 'responseId'])
export class SiteQuestionAnswer {
  @PrimaryColumn({
    type: 'varchar',
    length: 32,
    primaryKeyConstraintName: 'PK_site_question_answers',
  })
  id!: string;

  @Column({ type: 'varchar', length: 32 })
  siteId!: string;

  @ManyToOne(() => Site, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'site_id', foreignKeyConstraintName: 'FK_site_question_answers_site_id' })
  site?: Site;

  @Column({ type: 'varchar', length: 32 })
  questionId!: string;

  @ManyToOne(() => SiteQuestion, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'question_id',
    foreignKeyConstraintName: 'FK_site_question_answers_question_id',
  })
  siteQuestion?: SiteQuestion;

  /** The question as asked. */
  @Column({ type: 'varchar', length: 512 })
  question!: string;

  /** The answer's Markdown; null when the model wrote none (not configured, failed). */
  @Column({ type: 'text', nullable: true })
  answer!: string | null;

  @Column({ type: 'jsonb' })
  sources!: StoredAnswerSource[];

  @Column({ type: 'varchar', length: 16 })
  answered!: AnswerResolution;

  @Column({ type: 'varchar', length: 16 })
  channel!: AnswerChannel;

  /** GitBook's anonymous `session.visitorId`, when the ask carried one. */
  @Column({ type: 'varchar', length: 256, nullable: true })
  visitorId!: string | null;

  @Column({ type: 'varchar', length: 256, nullable: true })
  sessionId!: string | null;

  /** The ask's request id (its `X-Request-Id`): how an agent's feedback names the answer. */
  @Column({ type: 'varchar', length: 128 })
  responseId!: string;

  /** GitBook's feedback rating, 1 or -1; null while unrated. */
  @Column({ type: 'smallint', nullable: true })
  rating!: number | null;

  @Index('IDX_site_question_answers_created_at')
  @Column({ type: 'timestamptz' })
  createdAt!: Date;

  @Column({ type: 'timestamptz' })
  updatedAt!: Date;
}
