import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Change requests: proposed edits to a space, numbered per space, each pointing at its own
 * content revision. They go with their space; `organization_id` follows the space (a transfer
 * rewrites it) so the organization-wide listing reads one index.
 */
export class CreateChangeRequests1763743400000 implements MigrationInterface {
  name = 'CreateChangeRequests1763743400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "change_requests" (
        "id" varchar(32) NOT NULL,
        "space_id" varchar(32) NOT NULL,
        "organization_id" varchar(32) NOT NULL,
        "number" integer NOT NULL,
        "status" varchar(16) NOT NULL,
        "subject" varchar(100) NOT NULL,
        "description" jsonb,
        "created_by" varchar(32),
        "revision_initial" varchar(32) NOT NULL,
        "revision" varchar(32) NOT NULL,
        "revision_merged_ancestor" varchar(32),
        "revision_merged" varchar(32),
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "PK_change_requests" PRIMARY KEY ("id"),
        CONSTRAINT "FK_change_requests_space_id" FOREIGN KEY ("space_id")
          REFERENCES "spaces"("id") ON DELETE CASCADE,
        CONSTRAINT "FK_change_requests_organization_id" FOREIGN KEY ("organization_id")
          REFERENCES "organizations"("id") ON DELETE CASCADE,
        CONSTRAINT "FK_change_requests_created_by" FOREIGN KEY ("created_by")
          REFERENCES "users"("id") ON DELETE SET NULL,
        CONSTRAINT "FK_change_requests_revision_initial" FOREIGN KEY ("revision_initial")
          REFERENCES "revisions"("id"),
        CONSTRAINT "FK_change_requests_revision" FOREIGN KEY ("revision")
          REFERENCES "revisions"("id"),
        CONSTRAINT "FK_change_requests_revision_merged_ancestor" FOREIGN KEY ("revision_merged_ancestor")
          REFERENCES "revisions"("id"),
        CONSTRAINT "FK_change_requests_revision_merged" FOREIGN KEY ("revision_merged")
          REFERENCES "revisions"("id")
      )`);
    // Lookup by number, and the space listing (newest number first within a status).
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_change_requests_space_id_number" ON "change_requests" ("space_id", "number")`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_change_requests_space_id_status_number" ON "change_requests" ("space_id", "status", "number")`,
    );
    // The organization listing, newest first within a status.
    await queryRunner.query(
      `CREATE INDEX "IDX_change_requests_organization_id_status_created_at" ON "change_requests" ("organization_id", "status", "created_at", "id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_change_requests_created_by" ON "change_requests" ("created_by")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "change_requests"`);
  }
}
