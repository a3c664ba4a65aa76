import { MigrationInterface, QueryRunner } from 'typeorm';

/** The Git setup of spaces: repository, ref, and the latest import or export with its outcome. */
export class CreateGitSync1763744300000 implements MigrationInterface {
  name = 'CreateGitSync1763744300000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "git_syncs" (
        "space_id" varchar(32) NOT NULL,
        "organization_id" varchar(32) NOT NULL,
        "url" varchar(2048) NOT NULL,
        "ref" varchar(255) NOT NULL,
        "project_directory" varchar(1024),
        "provider" varchar(16),
        "tree_url" varchar(2048),
        "commit_url" varchar(2048),
        "last_applied_at" TIMESTAMP WITH TIME ZONE,
        "operation_id" varchar(32) NOT NULL,
        "operation_kind" varchar(8) NOT NULL,
        "operation_status" varchar(16) NOT NULL,
        "operation_error" text,
        "operation_commit" varchar(64),
        "operation_warnings" jsonb,
        "operation_requested_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "operation_completed_at" TIMESTAMP WITH TIME ZONE,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "PK_git_syncs" PRIMARY KEY ("space_id"),
        CONSTRAINT "FK_git_syncs_space_id" FOREIGN KEY ("space_id")
          REFERENCES "spaces"("id") ON DELETE CASCADE
      )`);
    await queryRunner.query(
      `CREATE INDEX "IDX_git_syncs_organization_id" ON "git_syncs" ("organization_id")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "git_syncs"`);
  }
}
