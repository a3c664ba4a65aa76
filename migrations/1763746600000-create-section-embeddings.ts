import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Embeddings of the search index's sections (`page_sections`), for answers that find a page
 * by meaning as well as by its words: one vector per section and model, with the hash of the
 * text it was made from, so that only changed sections are embedded again. Vectors are stored
 * as single-precision arrays and compared with pgvector (`::vector`, cosine distance) where the
 * server has it: the extension is created here when the server offers it (PGlite's always
 * does), and Bindery creates it at a later start otherwise (SectionEmbeddings).
 */
export class CreateSectionEmbeddings1763746600000 implements MigrationInterface {
  name = 'CreateSectionEmbeddings1763746600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      DO $$ BEGIN
        IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') THEN
          CREATE EXTENSION IF NOT EXISTS vector;
        END IF;
      END $$`);
    await queryRunner.query(
      `CREATE TABLE "section_embeddings" ("space_id" varchar(32) NOT NULL, "page_id" varchar(64) NOT NULL, "section_id" varchar(256) NOT NULL, "model" varchar(200) NOT NULL, "text_hash" char(32) NOT NULL, "embedding" real array NOT NULL, CONSTRAINT "PK_section_embeddings" PRIMARY KEY ("space_id", "page_id", "section_id"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "section_embeddings" ADD CONSTRAINT "FK_section_embeddings_space_id" FOREIGN KEY ("space_id") REFERENCES "spaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "section_embeddings"`);
  }
}
