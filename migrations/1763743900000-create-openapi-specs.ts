import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * OpenAPI specifications of organizations, with their source and processing state, and their
 * versions: the processed documents, immutable, newest last.
 */
export class CreateOpenapiSpecs1763743900000 implements MigrationInterface {
  name = 'CreateOpenapiSpecs1763743900000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "openapi_specs" (
        "id" varchar(32) NOT NULL,
        "organization_id" varchar(32) NOT NULL,
        "slug" varchar(100) NOT NULL,
        "source_url" varchar(2048),
        "source_text" text,
        "source_revision" integer NOT NULL DEFAULT 1,
        "visibility" varchar(16) NOT NULL DEFAULT 'private',
        "processing_state" varchar(16) NOT NULL,
        "queued_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "last_version_id" varchar(32),
        "last_processed_at" TIMESTAMP WITH TIME ZONE,
        "last_process_error_code" varchar(16),
        "last_processed_errors" jsonb,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "PK_openapi_specs" PRIMARY KEY ("id"),
        CONSTRAINT "FK_openapi_specs_organization_id" FOREIGN KEY ("organization_id")
          REFERENCES "organizations"("id") ON DELETE CASCADE
      )`);
    // Lookup by slug (and its uniqueness), and the listing, oldest first.
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_openapi_specs_organization_id_slug" ON "openapi_specs" ("organization_id", "slug")`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_openapi_specs_organization_id_created_at" ON "openapi_specs" ("organization_id", "created_at", "id")`,
    );
    // The refresh schedule: URL sources processed longest ago, and processing that never ended.
    await queryRunner.query(
      `CREATE INDEX "IDX_openapi_specs_refresh" ON "openapi_specs" ("last_processed_at") WHERE "source_url" IS NOT NULL AND "processing_state" = 'complete'`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_openapi_specs_queued_at" ON "openapi_specs" ("queued_at") WHERE "processing_state" <> 'complete'`,
    );

    await queryRunner.query(`
      CREATE TABLE "openapi_spec_versions" (
        "id" varchar(32) NOT NULL,
        "spec_id" varchar(32) NOT NULL,
        "organization_id" varchar(32) NOT NULL,
        "content_hash" char(64) NOT NULL,
        "source_url" varchar(2048),
        "root_path" varchar(2048) NOT NULL,
        "filesystem" json NOT NULL,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "PK_openapi_spec_versions" PRIMARY KEY ("id"),
        CONSTRAINT "FK_openapi_spec_versions_spec_id" FOREIGN KEY ("spec_id")
          REFERENCES "openapi_specs"("id") ON DELETE CASCADE,
        CONSTRAINT "FK_openapi_spec_versions_organization_id" FOREIGN KEY ("organization_id")
          REFERENCES "organizations"("id") ON DELETE CASCADE
      )`);
    // The listing of a spec's versions, newest first.
    await queryRunner.query(
      `CREATE INDEX "IDX_openapi_spec_versions_spec_id_created_at" ON "openapi_spec_versions" ("spec_id", "created_at", "id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_openapi_spec_versions_organization_id" ON "openapi_spec_versions" ("organization_id")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "openapi_spec_versions"`);
    await queryRunner.query(`DROP TABLE "openapi_specs"`);
  }
}
