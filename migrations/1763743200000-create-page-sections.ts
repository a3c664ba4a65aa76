import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Full-text search over each space's primary revision: one row per page section (a page split
 * at its headings; section '' is the page's lead). `tsv` is written with the row (the page
 * title weighs most, then the section title, then the body; English stems and unstemmed
 * words, so that a prefix finds words the stemmer shortened). Rows go with their space.
 * The primary key is the btree on (space_id, page_id, …) that re-indexing a page deletes by.
 */
export class CreatePageSections1763743200000 implements MigrationInterface {
  name = 'CreatePageSections1763743200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "page_sections" (
        "space_id" varchar(32) NOT NULL,
        "page_id" varchar(64) NOT NULL,
        "section_id" varchar(256) NOT NULL,
        "document_hash" char(64),
        "page_title" text NOT NULL,
        "page_path" text NOT NULL,
        "section_title" text NOT NULL,
        "body" text NOT NULL,
        "tsv" tsvector NOT NULL,
        "ancestors" jsonb NOT NULL,
        "position" integer NOT NULL,
        "indexed_at" timestamptz NOT NULL,
        CONSTRAINT "PK_page_sections" PRIMARY KEY ("space_id", "page_id", "section_id"),
        CONSTRAINT "FK_page_sections_space_id" FOREIGN KEY ("space_id")
          REFERENCES "spaces"("id") ON DELETE CASCADE
      )`);
    await queryRunner.query(
      `CREATE INDEX "IDX_page_sections_tsv" ON "page_sections" USING gin ("tsv")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_page_sections_tsv"`);
    await queryRunner.query(`DROP TABLE "page_sections"`);
  }
}
