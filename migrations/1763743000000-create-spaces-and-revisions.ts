import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Spaces, their immutable revisions and the content-addressed objects revisions point to.
 * A space always has a primary revision: `spaces.revision_id` is checked at commit, so the
 * space and its first revision are inserted in one transaction.
 */
export class CreateSpacesAndRevisions1763743000000 implements MigrationInterface {
  name = 'CreateSpacesAndRevisions1763743000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "content_objects" (
        "hash" char(64) NOT NULL,
        "kind" varchar(16) NOT NULL,
        "data" jsonb NOT NULL,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "PK_content_objects" PRIMARY KEY ("hash")
      )`);
    await queryRunner.query(`
      CREATE TABLE "spaces" (
        "id" varchar(32) NOT NULL,
        "organization_id" varchar(32) NOT NULL,
        "parent_id" varchar(32),
        "title" varchar(50) NOT NULL,
        "emoji" varchar(50),
        "icon" varchar(2048),
        "visibility" varchar(16) NOT NULL,
        "edit_mode" varchar(8) NOT NULL,
        "default_level" varchar(16),
        "language" varchar(8),
        "merge_rules" jsonb NOT NULL,
        "git_sync" jsonb,
        "visitor_auth" jsonb,
        "revision_id" varchar(32) NOT NULL,
        "position" bigint NOT NULL,
        "comments" integer NOT NULL DEFAULT 0,
        "change_requests" integer NOT NULL DEFAULT 0,
        "change_requests_open" integer NOT NULL DEFAULT 0,
        "change_requests_draft" integer NOT NULL DEFAULT 0,
        "created_by" varchar(32),
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "deleted_at" TIMESTAMP WITH TIME ZONE,
        CONSTRAINT "PK_spaces" PRIMARY KEY ("id"),
        CONSTRAINT "FK_spaces_organization_id" FOREIGN KEY ("organization_id")
          REFERENCES "organizations"("id") ON DELETE CASCADE,
        CONSTRAINT "FK_spaces_parent_id" FOREIGN KEY ("parent_id")
          REFERENCES "collections"("id") ON DELETE SET NULL,
        CONSTRAINT "FK_spaces_created_by" FOREIGN KEY ("created_by")
          REFERENCES "users"("id") ON DELETE SET NULL
      )`);
    await queryRunner.query(`
      CREATE TABLE "revisions" (
        "id" varchar(32) NOT NULL,
        "space_id" varchar(32) NOT NULL,
        "parents" varchar(32) array NOT NULL,
        "type" varchar(16) NOT NULL,
        "tree" char(64) NOT NULL,
        "author_id" varchar(32),
        "git" jsonb,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "PK_revisions" PRIMARY KEY ("id"),
        CONSTRAINT "FK_revisions_space_id" FOREIGN KEY ("space_id")
          REFERENCES "spaces"("id") ON DELETE CASCADE,
        CONSTRAINT "FK_revisions_tree" FOREIGN KEY ("tree")
          REFERENCES "content_objects"("hash"),
        CONSTRAINT "FK_revisions_author_id" FOREIGN KEY ("author_id")
          REFERENCES "users"("id") ON DELETE SET NULL
      )`);
    await queryRunner.query(`
      ALTER TABLE "spaces" ADD CONSTRAINT "FK_spaces_revision_id" FOREIGN KEY ("revision_id")
        REFERENCES "revisions"("id") DEFERRABLE INITIALLY DEFERRED`);
    // Lists: the organization's live spaces, a collection's, the siblings of a move.
    await queryRunner.query(
      `CREATE INDEX "IDX_spaces_organization_id_created_at" ON "spaces" ("organization_id", "created_at", "id") WHERE "deleted_at" IS NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_spaces_parent_id_created_at" ON "spaces" ("parent_id", "created_at", "id") WHERE "deleted_at" IS NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_spaces_organization_id_parent_id_position" ON "spaces" ("organization_id", "parent_id", "position") WHERE "deleted_at" IS NULL`,
    );
    // The purge job's scan of the trash.
    await queryRunner.query(
      `CREATE INDEX "IDX_spaces_deleted_at" ON "spaces" ("deleted_at") WHERE "deleted_at" IS NOT NULL`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_spaces_created_by" ON "spaces" ("created_by")`);
    await queryRunner.query(`CREATE INDEX "IDX_spaces_revision_id" ON "spaces" ("revision_id")`);
    await queryRunner.query(
      `CREATE INDEX "IDX_revisions_space_id_created_at" ON "revisions" ("space_id", "created_at", "id")`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_revisions_tree" ON "revisions" ("tree")`);
    await queryRunner.query(`CREATE INDEX "IDX_revisions_author_id" ON "revisions" ("author_id")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "spaces" DROP CONSTRAINT "FK_spaces_revision_id"`);
    await queryRunner.query(`DROP TABLE "revisions"`);
    await queryRunner.query(`DROP TABLE "spaces"`);
    await queryRunner.query(`DROP TABLE "content_objects"`);
  }
}
