import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Organization } from '../../orgs/entities/organization.entity';
import type { JSONDocument } from '../../content-engine/documents/document';
import { Space } from '../../spaces/entities/space.entity';
import type { TranslationLanguage } from '../../spaces/languages';

/** A segment a run left in the source language, and why. */
export interface TranslationRunErrorDetail {
  page: string;
  /** Where the segment is in the page (`title`, `document.nodes.2`, …). */
  segment: string;
  reason: string;
}

/** GitBook's `TranslationStatus`. */
export const TRANSLATION_STATUSES = ['pending', 'running', 'completed'] as const;
export type TranslationStatus = (typeof TRANSLATION_STATUSES)[number];

/**
 * A translation of a space (the source) into another language: the result space it writes, the
 * state of its runs and their statistics. `rerunRequested` records a run asked for while one was
 * running, so that it follows that one instead of running beside it. `lastError` is why the last
 * run failed (null when it succeeded); the previous result stays as it was.
 */
@Entity('translations')
@Index('IDX_translations_organization_id_created_at', ['organizationId', 'createdAt', 'id'])
@Index('IDX_translations_source_space_id', ['sourceSpaceId'])
@Index('IDX_translations_result_space_id', ['resultSpaceId'], {
  where: `"result_space_id" IS NOT NULL`,
})
export class Translation {
  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'PK_translations' })
  id!: string;

  @Column({ type: 'varchar', length: 32 })
  organizationId!: string;

  @ManyToOne(() => Organization, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'organization_id',
    foreignKeyConstraintName: 'FK_translations_organization_id',
  })
  organization?: Organization;

  /** The space translated (its primary revision); a purged space takes its translations along. */
  @Column({ type: 'varchar', length: 32 })
  sourceSpaceId!: string;

  @ManyToOne(() => Space, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'source_space_id',
    foreignKeyConstraintName: 'FK_translations_source_space_id',
  })
  sourceSpace?: Space;

  @Column({ type: 'varchar', length: 8 })
  sourceLanguage!: TranslationLanguage;

  @Column({ type: 'varchar', length: 8 })
  language!: TranslationLanguage;

  @Column({ type: 'jsonb' })
  instructions!: JSONDocument;

  @Column({ type: 'varchar', length: 16 })
  status!: TranslationStatus;

  @Column({ type: 'boolean', default: false })
  rerunRequested!: boolean;

  /** The space the runs write; created by the first run, beside the source. */
  @Column({ type: 'varchar', length: 32, nullable: true })
  resultSpaceId!: string | null;

  /** Purging the result space unlinks it; the next run makes a new one. */
  @ManyToOne(() => Space, { onDelete: 'SET NULL' })
  @JoinColumn({
    name: 'result_space_id',
    foreignKeyConstraintName: 'FK_translations_result_space_id',
  })
  resultSpace?: Space;

  /** The revision the last successful run wrote in the result space. */
  @Column({ type: 'varchar', length: 32, nullable: true })
  resultRevisionId!: string | null;

  /** Who asked for the last run: the author of the revisions it writes. */
  @Column({ type: 'varchar', length: 32, nullable: true })
  runBy!: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  startedAt!: Date | null;

  @Column({ type: 'text', nullable: true })
  lastError!: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  lastErrorAt!: Date | null;

  /** Segments the last run left untranslated, and why (a provider's answer that broke them). */
  @Column({ type: 'jsonb', nullable: true })
  lastErrorDetails!: TranslationRunErrorDetail[] | null;

  @Column({ type: 'integer', default: 0 })
  runs!: number;

  @Column({ type: 'integer', default: 0 })
  totalWords!: number;

  @Column({ type: 'integer', default: 0 })
  totalPages!: number;

  /** Seconds. */
  @Column({ type: 'integer', default: 0 })
  totalDuration!: number;

  /** Seconds. */
  @Column({ type: 'integer', default: 0 })
  latestRunDuration!: number;

  @Column({ type: 'integer', default: 0 })
  latestPages!: number;

  @Column({ type: 'integer', default: 0 })
  latestWords!: number;

  /** Segments of the pages the latest run translated: sent to the provider or reused. */
  @Column({ type: 'integer', default: 0 })
  latestSegments!: number;

  /** Characters sent to the provider by the latest run. */
  @Column({ type: 'integer', default: 0 })
  latestCharacters!: number;

  /** Segments the latest run reused (unchanged since the previous run) instead of sending. */
  @Column({ type: 'integer', default: 0 })
  latestCachedSegments!: number;

  @Column({ type: 'integer', default: 0 })
  totalSegments!: number;

  @Column({ type: 'integer', default: 0 })
  totalCharacters!: number;

  @Column({ type: 'double precision', default: 0 })
  latestRunDurationMs!: number;

  @Column({ type: 'double precision', default: 0 })
  totalDurationMs!: number;

  @Column({ type: 'timestamptz' })
  createdAt!: Date;

  @Column({ type: 'timestamptz' })
  updatedAt!: Date;
}
