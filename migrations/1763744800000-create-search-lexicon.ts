import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Search in every language: the index is written from folded, segmented text with the stemmer
 * of the space's language (see src/content-engine/search), which SQL alone cannot reproduce.
 *
 * - `search_index_state`: per space, the analyzer version and the language its rows were
 *   written with. A space without one (every space indexed before this migration) or with an
 *   older version or another language is rebuilt by the SearchIndexer at its next re-index,
 *   and by the `search-index-upgrade` job that the application sends at start.
 * - `search_lexicon`: per space, the distinct words of its index (in how many pages each is),
 *   with a trigram index, for typo tolerance; kept with `page_search` row by row. `word` sorts
 *   bytewise ("C") so that a prefix is a range of the primary key on every database.
 * - pg_trgm (trigram similarity), fuzzystrmatch (levenshtein) and btree_gin (the space id in
 *   the trigram index): contrib extensions, on PGlite passed to it at start.
 */
export class CreateSearchLexicon1763744800000 implements MigrationInterface {
  name = 'CreateSearchLexicon1763744800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
    await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS fuzzystrmatch`);
    await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS btree_gin`);
    await queryRunner.query(`
      CREATE TABLE "search_index_state" (
        "space_id" varchar(32) NOT NULL,
        "analyzer" integer NOT NULL,
        "language" varchar(16),
        CONSTRAINT "PK_search_index_state" PRIMARY KEY ("space_id"),
        CONSTRAINT "FK_search_index_state_space_id" FOREIGN KEY ("space_id")
          REFERENCES "spaces"("id") ON DELETE CASCADE
      )`);
    await queryRunner.query(`
      CREATE TABLE "search_lexicon" (
        "space_id" varchar(32) NOT NULL,
        "word" text COLLATE "C" NOT NULL,
        "pages" integer NOT NULL,
        CONSTRAINT "PK_search_lexicon" PRIMARY KEY ("space_id", "word"),
        CONSTRAINT "FK_search_lexicon_space_id" FOREIGN KEY ("space_id")
          REFERENCES "spaces"("id") ON DELETE CASCADE
      )`);
    await queryRunner.query(
      `CREATE INDEX "IDX_search_lexicon_trgm" ON "search_lexicon"
         USING gin ("space_id", "word" gin_trgm_ops)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_search_lexicon_trgm"`);
    await queryRunner.query(`DROP TABLE "search_lexicon"`);
    await queryRunner.query(`DROP TABLE "search_index_state"`);
  }
}
