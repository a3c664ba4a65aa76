import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';

/**
 * A distinct word of a space's search index (a lexeme of its `page_search` rows, stemmed or
 * not, of three characters or more) and the number of its pages that hold it: where typos are
 * corrected from. Written by the SearchIndexer with `page_search`; a word whose count falls to
 * zero stays (read as absent) until the space is next rebuilt.
 */
@Entity('search_lexicon')
export class SearchLexiconWord {
  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'PK_search_lexicon' })
  spaceId!: string;

  // The spaces module's entity, by name: the engine imports no domain module (the key only).
  @ManyToOne('Space', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'space_id', foreignKeyConstraintName: 'FK_search_lexicon_space_id' })
  protected readonly space?: never;

  // Bytewise order, so that the words with a prefix are a range of the primary key.
  @PrimaryColumn({ type: 'text', collation: 'C', primaryKeyConstraintName: 'PK_search_lexicon' })
  @Index('IDX_search_lexicon_trgm', { synchronize: false })
  word!: string;

  @Column({ type: 'integer' })
  pages!: number;
}
