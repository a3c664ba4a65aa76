import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';

/**
 * An indexed page of a space's primary revision, for ranking pages: `tsv` holds each lexeme
 * of the page's sections once, with at most two positions per weight (page title, headings,
 * text), kept in the row (the migration sets STORAGE MAIN, which TypeORM does not describe);
 * its page title (weight A) has an index of its own.
 * Written by the SearchIndexer with the page's `page_sections` rows.
 */
@Entity('page_search')
export class PageSearch {
  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'PK_page_search' })
  spaceId!: string;

  // The spaces module's entity, by name: the engine imports no domain module (the key only).
  @ManyToOne('Space', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'space_id', foreignKeyConstraintName: 'FK_page_search_space_id' })
  protected readonly space?: never;

  @PrimaryColumn({ type: 'varchar', length: 64, primaryKeyConstraintName: 'PK_page_search' })
  pageId!: string;

  // GIN indexes, which TypeORM cannot describe: the migrations create them, the check leaves
  // them. IDX_page_search_titles indexes the page titles alone: ts_filter(tsv, '{a}').
  @Index('IDX_page_search_tsv', { synchronize: false })
  @Index('IDX_page_search_titles', { synchronize: false })
  @Column({ type: 'tsvector', select: false })
  tsv!: string;
}
