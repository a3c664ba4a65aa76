import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The number of pages of a space's search index (`page_search` rows), kept beside how the index
 * was written: the pages an answer's words are rare among (BM25's N), read with the index state
 * rather than counted on every question.
 */
export class AddSearchIndexPageCounts1763746700000 implements MigrationInterface {
  name = 'AddSearchIndexPageCounts1763746700000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "search_index_state" ADD "pages" integer NOT NULL DEFAULT 0`,
    );
    await queryRunner.query(`
      UPDATE "search_index_state" s
         SET "pages" = (SELECT count(*) FROM "page_search" p WHERE p."space_id" = s."space_id")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "search_index_state" DROP COLUMN "pages"`);
  }
}
