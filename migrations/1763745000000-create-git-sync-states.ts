import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the last Git sync of a space with a repository (and directory) left (src/git/sync): the commit, the
 * revision whose content that commit holds (the base of a three-way import), the layout read
 * or written, the page and file of each path, and the redirects of `.gitbook.yaml`. A Git
 * operation reports its progress on `git_syncs` (files done of total), and an import that
 * conflicted the change request that holds it.
 */
export class CreateGitSyncStates1763745000000 implements MigrationInterface {
  name = 'CreateGitSyncStates1763745000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "git_sync_states" (
        "space_id" varchar(32) NOT NULL,
        "repository_key" varchar(64) NOT NULL,
        "url" varchar(2048) NOT NULL,
        "directory" varchar(1024) NOT NULL,
        "ref" varchar(255) NOT NULL,
        "commit" varchar(64) NOT NULL,
        "revision_id" varchar(32) NOT NULL,
        "layout" jsonb NOT NULL,
        "entries" jsonb NOT NULL,
        "redirects" jsonb NOT NULL,
        "summary_rendered" varchar(64),
        "conflict" jsonb,
        "synced_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "PK_git_sync_states" PRIMARY KEY ("space_id", "repository_key"),
        CONSTRAINT "FK_git_sync_states_space_id" FOREIGN KEY ("space_id")
          REFERENCES "spaces"("id") ON DELETE CASCADE
      )`);
    await queryRunner.query(
      `ALTER TABLE "git_syncs" ADD "operation_done" integer, ADD "operation_total" integer,
         ADD "operation_change_request_id" varchar(32)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "git_syncs" DROP COLUMN "operation_done", DROP COLUMN "operation_total",
         DROP COLUMN "operation_change_request_id"`,
    );
    await queryRunner.query(`DROP TABLE "git_sync_states"`);
  }
}
