import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';

/**
 * How a space's search index was written: the analyzer version (SEARCH_ANALYZER) and the
 * language whose stemmer and folding it used, and how many pages it holds. An index written
 * otherwise is rebuilt rather than updated page by page. Written by the SearchIndexer only.
 */
@Entity('search_index_state')
export class SearchIndexState {
  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'PK_search_index_state' })
  spaceId!: string;

  // The spaces module's entity, by name: the engine imports no domain module (the key only).
  @ManyToOne('Space', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'space_id', foreignKeyConstraintName: 'FK_search_index_state_space_id' })
  protected readonly space?: never;

  @Column({ type: 'integer' })
  analyzer!: number;

  @Column({ type: 'varchar', length: 16, nullable: true })
  language!: string | null;

  /** The pages of the index (`page_search` rows), counted as they are written and deleted. */
  @Column({ type: 'integer', default: 0 })
  pages!: number;
}
