import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Translations of spaces, with the state and statistics of their runs, and the translation of
 * each page as the last run made it (reused by the next run while the source page is unchanged).
 */
export class CreateTranslations1763744100000 implements MigrationInterface {
  name = 'CreateTranslations1763744100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "translations" (
        "id" varchar(32) NOT NULL,
        "organization_id" varchar(32) NOT NULL,
        "source_space_id" varchar(32) NOT NULL,
        "source_language" varchar(8) NOT NULL,
        "language" varchar(8) NOT NULL,
        "instructions" jsonb NOT NULL,
        "status" varchar(16) NOT NULL,
        "rerun_requested" boolean NOT NULL DEFAULT false,
        "result_space_id" varchar(32),
        "result_revision_id" varchar(32),
        "run_by" varchar(32),
        "started_at" TIMESTAMP WITH TIME ZONE,
        "last_error" text,
        "last_error_at" TIMESTAMP WITH TIME ZONE,
        "runs" integer NOT NULL DEFAULT 0,
        "total_words" integer NOT NULL DEFAULT 0,
        "total_pages" integer NOT NULL DEFAULT 0,
        "total_duration" integer NOT NULL DEFAULT 0,
        "latest_run_duration" integer NOT NULL DEFAULT 0,
        "latest_pages" integer NOT NULL DEFAULT 0,
        "latest_words" integer NOT NULL DEFAULT 0,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "PK_translations" PRIMARY KEY ("id"),
        CONSTRAINT "FK_translations_organization_id" FOREIGN KEY ("organization_id")
          REFERENCES "organizations"("id") ON DELETE CASCADE,
        CONSTRAINT "FK_translations_source_space_id" FOREIGN KEY ("source_space_id")
          REFERENCES "spaces"("id") ON DELETE CASCADE,
        CONSTRAINT "FK_translations_result_space_id" FOREIGN KEY ("result_space_id")
          REFERENCES "spaces"("id") ON DELETE SET NULL
      )`);
    // The listing, oldest first; the translations of a space (purge, lookups by source).
    await queryRunner.query(
      `CREATE INDEX "IDX_translations_organization_id_created_at" ON "translations" ("organization_id", "created_at", "id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_translations_source_space_id" ON "translations" ("source_space_id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_translations_result_space_id" ON "translations" ("result_space_id") WHERE "result_space_id" IS NOT NULL`,
    );

    await queryRunner.query(`
      CREATE TABLE "translation_pages" (
        "translation_id" varchar(32) NOT NULL,
        "page_id" varchar(32) NOT NULL,
        "organization_id" varchar(32) NOT NULL,
        "source_hash" char(64) NOT NULL,
        "title" text,
        "description" text,
        "document" jsonb,
        "words" integer NOT NULL,
        CONSTRAINT "PK_translation_pages" PRIMARY KEY ("translation_id", "page_id"),
        CONSTRAINT "FK_translation_pages_translation_id" FOREIGN KEY ("translation_id")
          REFERENCES "translations"("id") ON DELETE CASCADE
      )`);
    await queryRunner.query(
      `CREATE INDEX "IDX_translation_pages_organization_id" ON "translation_pages" ("organization_id")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "translation_pages"`);
    await queryRunner.query(`DROP TABLE "translations"`);
  }
}
