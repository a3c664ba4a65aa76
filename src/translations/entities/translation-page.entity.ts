import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { JSONDocument } from '../../content-engine/documents/document';
import type { SegmentValue } from '../job/document-segments';
import { Translation } from './translation.entity';

/**
 * One segment of a translated page: where it sits (`path`, from the page: `title`,
 * `description`, `document.…`), the hash of its source (`source`: its text, placeholders and
 * what they stand for, and the languages) and of what its translation depends on besides
 * (`key`: the source, the instructions and the glossary terms in it), what the provider
 * answered (`translated`, null when the segment was left untranslated), and what the result
 * holds there (`current`: the text written, or the translator's edit found by a later run).
 */
export interface TranslationSegmentRecord {
  path: string;
  source: string;
  key: string;
  translated: string | null;
  current: SegmentValue;
}

/**
 * The translation of one page of the source as the last run made it, keyed by the hash of what
 * it was made from (`sourceHash`: the page's title, description, document and the translation's
 * instructions). A run translates again only the pages whose hash changed and reuses the rest.
 */
@Entity('translation_pages')
@Index('IDX_translation_pages_organization_id', ['organizationId'])
export class TranslationPage {
  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'PK_translation_pages' })
  translationId!: string;

  @ManyToOne(() => Translation, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'translation_id',
    foreignKeyConstraintName: 'FK_translation_pages_translation_id',
  })
  translation?: Translation;

  /** The page's id, the same in the source and in the result. */
  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'PK_translation_pages' })
  pageId!: string;

  @Column({ type: 'varchar', length: 32 })
  organizationId!: string;

  @Column({ type: 'char', length: 64 })
  sourceHash!: string;

  @Column({ type: 'text', nullable: true })
  title!: string | null;

  @Column({ type: 'text', nullable: true })
  description!: string | null;

  /** The translated document; null for a page without one. */
  @Column({ type: 'jsonb', nullable: true })
  document!: JSONDocument | null;

  @Column({ type: 'integer' })
  words!: number;

  /** The page's segments as the last run wrote them (see TranslationSegmentRecord). */
  @Column({ type: 'jsonb', default: () => "'[]'" })
  segments!: TranslationSegmentRecord[];
}
