import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Site } from '../../../sites/entities/site.entity';

/**
 * A question asked of a site's AI answers: one per site and normalized text (`questionKey`),
 * with the text it was first asked in. Belongs to its organization through its site.
 */
@Entity('site_questions')
@Index('UQ_site_questions_site_id_question_key', ['siteId', 'questionKey'], { unique: true })
@Index('IDX_site_questions_site_id_created_at', ['siteId', 'createdAt', 'id'])
export class SiteQuestion {
  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'PK_site_questions' })
  id!: string;

  @Column({ type: 'varchar', length: 32 })
  siteId!: string;

  @ManyToOne(() => Site, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'site_id', foreignKeyConstraintName: 'FK_site_questions_site_id' })
  site?: Site;

  /** The text lower-cased, its spaces collapsed and its end punctuation dropped. */
  @Column({ type: 'varchar', length: 600 })
  questionKey!: string;

  /** As first asked (GitBook's canonical text). */
  @Column({ type: 'varchar', length: 512 })
  question!: string;

  @Column({ type: 'timestamptz' })
  createdAt!: Date;

  /** Its latest ask. */
  @Index('IDX_site_questions_asked_at')
  @Column({ type: 'timestamptz' })
  askedAt!: Date;
}
