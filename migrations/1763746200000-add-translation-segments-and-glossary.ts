import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Translations by segment: each translated page keeps its segments (where each sits, the hash of
 * its source, the provider's translation and the text written, which a translator may have
 * edited since), so that a run retranslates only changed segments and keeps edits. Runs count
 * segments, characters and reused segments, and time themselves in milliseconds; a run that
 * leaves segments untranslated says which. The organization's translation glossary: one row
 * per entry, a term in several languages.
 */
export class AddTranslationSegmentsAndGlossary1763746200000 implements MigrationInterface {
  name = 'AddTranslationSegmentsAndGlossary1763746200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "translation_pages" ADD "segments" jsonb NOT NULL DEFAULT '[]'`,
    );
    await queryRunner.query(`
      ALTER TABLE "translations"
        ADD "latest_segments" integer NOT NULL DEFAULT 0,
        ADD "latest_characters" integer NOT NULL DEFAULT 0,
        ADD "latest_cached_segments" integer NOT NULL DEFAULT 0,
        ADD "total_segments" integer NOT NULL DEFAULT 0,
        ADD "total_characters" integer NOT NULL DEFAULT 0,
        ADD "latest_run_duration_ms" double precision NOT NULL DEFAULT 0,
        ADD "total_duration_ms" double precision NOT NULL DEFAULT 0,
        ADD "last_error_details" jsonb`);
    await queryRunner.query(`
      CREATE TABLE "translation_glossary_entries" (
        "id" varchar(32) NOT NULL,
        "organization_id" varchar(32) NOT NULL,
        "translations" jsonb NOT NULL,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "PK_translation_glossary_entries" PRIMARY KEY ("id"),
        CONSTRAINT "FK_translation_glossary_entries_organization_id" FOREIGN KEY ("organization_id")
          REFERENCES "organizations"("id") ON DELETE CASCADE
      )`);
    await queryRunner.query(
      `CREATE INDEX "IDX_translation_glossary_entries_organization_id_created_at"
         ON "translation_glossary_entries" ("organization_id", "created_at", "id")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "translation_glossary_entries"`);
    await queryRunner.query(`
      ALTER TABLE "translations"
        DROP COLUMN "latest_segments", DROP COLUMN "latest_characters",
        DROP COLUMN "latest_cached_segments", DROP COLUMN "total_segments",
        DROP COLUMN "total_characters", DROP COLUMN "latest_run_duration_ms",
        DROP COLUMN "total_duration_ms", DROP COLUMN "last_error_details"`);
    await queryRunner.query(`ALTER TABLE "translation_pages" DROP COLUMN "segments"`);
  }
}
