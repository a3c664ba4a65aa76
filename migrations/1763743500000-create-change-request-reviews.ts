import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Reviews of change requests, the users asked to review them, and who contributed to them.
 * All three go with their change request (and so with its space and organization).
 */
export class CreateChangeRequestReviews1763743500000 implements MigrationInterface {
  name = 'CreateChangeRequestReviews1763743500000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "change_request_reviews" (
        "id" varchar(32) NOT NULL,
        "change_request_id" varchar(32) NOT NULL,
        "reviewer_id" varchar(32) NOT NULL,
        "requested_by" varchar(32),
        "status" varchar(20) NOT NULL,
        "revision" varchar(32) NOT NULL,
        "comment_id" varchar(32),
        "comment" jsonb,
        "superseded" boolean NOT NULL DEFAULT false,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "PK_change_request_reviews" PRIMARY KEY ("id"),
        CONSTRAINT "FK_change_request_reviews_change_request_id" FOREIGN KEY ("change_request_id")
          REFERENCES "change_requests"("id") ON DELETE CASCADE,
        CONSTRAINT "FK_change_request_reviews_reviewer_id" FOREIGN KEY ("reviewer_id")
          REFERENCES "users"("id") ON DELETE CASCADE,
        CONSTRAINT "FK_change_request_reviews_requested_by" FOREIGN KEY ("requested_by")
          REFERENCES "users"("id") ON DELETE SET NULL,
        CONSTRAINT "FK_change_request_reviews_revision" FOREIGN KEY ("revision")
          REFERENCES "revisions"("id")
      )`);
    // The listing (newest first), and a reviewer's reviews when a new one supersedes them.
    await queryRunner.query(
      `CREATE INDEX "IDX_change_request_reviews_change_request_id_created_at" ON "change_request_reviews" ("change_request_id", "created_at", "id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_change_request_reviews_change_request_id_reviewer_id" ON "change_request_reviews" ("change_request_id", "reviewer_id")`,
    );

    await queryRunner.query(`
      CREATE TABLE "change_request_requested_reviewers" (
        "change_request_id" varchar(32) NOT NULL,
        "user_id" varchar(32) NOT NULL,
        "requested_by" varchar(32) NOT NULL,
        "revision" varchar(32) NOT NULL,
        "review_id" varchar(32),
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "PK_change_request_requested_reviewers" PRIMARY KEY ("change_request_id", "user_id"),
        CONSTRAINT "FK_change_request_requested_reviewers_change_request_id" FOREIGN KEY ("change_request_id")
          REFERENCES "change_requests"("id") ON DELETE CASCADE,
        CONSTRAINT "FK_change_request_requested_reviewers_user_id" FOREIGN KEY ("user_id")
          REFERENCES "users"("id") ON DELETE CASCADE,
        CONSTRAINT "FK_change_request_requested_reviewers_requested_by" FOREIGN KEY ("requested_by")
          REFERENCES "users"("id") ON DELETE CASCADE,
        CONSTRAINT "FK_change_request_requested_reviewers_revision" FOREIGN KEY ("revision")
          REFERENCES "revisions"("id"),
        CONSTRAINT "FK_change_request_requested_reviewers_review_id" FOREIGN KEY ("review_id")
          REFERENCES "change_request_reviews"("id") ON DELETE SET NULL
      )`);
    // The listing (in the order of the requests), and the change requests a user is asked to review.
    await queryRunner.query(
      `CREATE INDEX "IDX_change_request_requested_reviewers_listing" ON "change_request_requested_reviewers" ("change_request_id", "created_at", "user_id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_change_request_requested_reviewers_user_id" ON "change_request_requested_reviewers" ("user_id")`,
    );

    await queryRunner.query(`
      CREATE TABLE "change_request_contributors" (
        "change_request_id" varchar(32) NOT NULL,
        "user_id" varchar(32) NOT NULL,
        "action_type" varchar(16) NOT NULL,
        "count" integer NOT NULL,
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "PK_change_request_contributors" PRIMARY KEY ("change_request_id", "user_id", "action_type"),
        CONSTRAINT "FK_change_request_contributors_change_request_id" FOREIGN KEY ("change_request_id")
          REFERENCES "change_requests"("id") ON DELETE CASCADE,
        CONSTRAINT "FK_change_request_contributors_user_id" FOREIGN KEY ("user_id")
          REFERENCES "users"("id") ON DELETE CASCADE
      )`);
    // The listing (latest contribution first), and the change requests a user contributed to.
    await queryRunner.query(
      `CREATE INDEX "IDX_change_request_contributors_listing" ON "change_request_contributors" ("change_request_id", "updated_at", "user_id", "action_type")`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_change_request_contributors_user_id" ON "change_request_contributors" ("user_id")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "change_request_contributors"`);
    await queryRunner.query(`DROP TABLE "change_request_requested_reviewers"`);
    await queryRunner.query(`DROP TABLE "change_request_reviews"`);
  }
}
