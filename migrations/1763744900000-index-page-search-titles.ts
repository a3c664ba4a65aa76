import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Page titles, searchable alone: a GIN index over the page-title lexemes of each `page_search`
 * vector (`ts_filter(tsv, '{a}')`, weight A), so that a query matching too many pages to rank
 * them all takes its candidates from the pages with the terms in their title first (see
 * src/spaces/search). Titles only, not headings: a common word is in the headings of most
 * pages of a large space, and the index answers every match of a query at once. An expression
 * index: nothing more is stored per row, and the indexer writes nothing new.
 */
export class IndexPageSearchTitles1763744900000 implements MigrationInterface {
  name = 'IndexPageSearchTitles1763744900000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "IDX_page_search_titles" ON "page_search"
         USING gin ((ts_filter("tsv", '{a}'::"char"[])))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_page_search_titles"`);
  }
}
