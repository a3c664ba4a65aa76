import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Import runs (GitBook's content imports): content brought from a website or uploaded files
 * into a change request of a space, in the background; and the pages each run made.
 */
export class CreateImportRuns1763747900000 implements MigrationInterface {
  name = 'CreateImportRuns1763747900000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "import_runs" (
        "id" varchar(32) NOT NULL,
        "organization_id" varchar(32) NOT NULL,
        "space_id" varchar(32) NOT NULL,
        "change_request_id" varchar(32),
        "page_id" varchar(32),
        "site_id" varchar(32),
        "source" jsonb NOT NULL,
        "enhance" boolean NOT NULL,
        "status" varchar(16) NOT NULL,
        "reason" text,
        "warnings" jsonb NOT NULL,
        "pages_done" integer NOT NULL,
        "pages_total" integer NOT NULL,
        "created_by" varchar(32),
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "started_at" TIMESTAMP WITH TIME ZONE,
        "completed_at" TIMESTAMP WITH TIME ZONE,
        CONSTRAINT "PK_import_runs" PRIMARY KEY ("id"),
        CONSTRAINT "FK_import_runs_organization_id" FOREIGN KEY ("organization_id")
          REFERENCES "organizations"("id") ON DELETE CASCADE,
        CONSTRAINT "FK_import_runs_space_id" FOREIGN KEY ("space_id")
          REFERENCES "spaces"("id") ON DELETE CASCADE
      )`);
    await queryRunner.query(
      `CREATE INDEX "IDX_import_runs_organization_id_created_at"
         ON "import_runs" ("organization_id", "created_at", "id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_import_runs_space_id" ON "import_runs" ("space_id")`,
    );
    await queryRunner.query(`
      CREATE TABLE "import_run_pages" (
        "run_id" varchar(32) NOT NULL,
        "position" integer NOT NULL,
        "page_id" varchar(32) NOT NULL,
        "source_url" text,
        "type" varchar(8) NOT NULL,
        "status" varchar(8) NOT NULL,
        CONSTRAINT "PK_import_run_pages" PRIMARY KEY ("run_id", "position"),
        CONSTRAINT "FK_import_run_pages_run_id" FOREIGN KEY ("run_id")
          REFERENCES "import_runs"("id") ON DELETE CASCADE
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "import_run_pages"`);
    await queryRunner.query(`DROP TABLE "import_runs"`);
  }
}
