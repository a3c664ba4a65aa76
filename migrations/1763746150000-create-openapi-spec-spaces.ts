import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Spaces with pages computed from an OpenAPI specification (the api-reference template), whose
 * pages are regenerated when a new version of the specification is processed.
 */
export class CreateOpenapiSpecSpaces1763746150000 implements MigrationInterface {
  name = 'CreateOpenapiSpecSpaces1763746150000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "openapi_spec_spaces" (
        "spec_id" varchar(32) NOT NULL,
        "space_id" varchar(32) NOT NULL,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "PK_openapi_spec_spaces" PRIMARY KEY ("spec_id", "space_id"),
        CONSTRAINT "FK_openapi_spec_spaces_spec_id" FOREIGN KEY ("spec_id")
          REFERENCES "openapi_specs"("id") ON DELETE CASCADE,
        CONSTRAINT "FK_openapi_spec_spaces_space_id" FOREIGN KEY ("space_id")
          REFERENCES "spaces"("id") ON DELETE CASCADE
      )`);
    // Deleting a space (the cascade) finds its rows.
    await queryRunner.query(
      `CREATE INDEX "IDX_openapi_spec_spaces_space_id" ON "openapi_spec_spaces" ("space_id")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "openapi_spec_spaces"`);
  }
}
