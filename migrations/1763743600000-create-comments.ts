import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Comments of spaces and change requests, their replies, and the reactions to both; the open
 * comment count of a change request. Everything goes with its space (and so its organization).
 */
export class CreateComments1763743600000 implements MigrationInterface {
  name = 'CreateComments1763743600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "change_requests" ADD "comments" integer NOT NULL DEFAULT 0`,
    );

    await queryRunner.query(`
      CREATE TABLE "comments" (
        "id" varchar(32) NOT NULL,
        "space_id" varchar(32) NOT NULL,
        "change_request_id" varchar(32),
        "revision" varchar(32) NOT NULL,
        "page_id" varchar(64),
        "node_id" varchar(256),
        "table_cell_record" varchar(256),
        "table_cell_definition" varchar(256),
        "author_id" varchar(32) NOT NULL,
        "body" jsonb NOT NULL,
        "body_markdown" text,
        "status" varchar(16) NOT NULL,
        "resolved_at" TIMESTAMP WITH TIME ZONE,
        "resolved_by" varchar(32),
        "posted_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "edited_at" TIMESTAMP WITH TIME ZONE,
        CONSTRAINT "PK_comments" PRIMARY KEY ("id"),
        CONSTRAINT "FK_comments_space_id" FOREIGN KEY ("space_id")
          REFERENCES "spaces"("id") ON DELETE CASCADE,
        CONSTRAINT "FK_comments_change_request_id" FOREIGN KEY ("change_request_id")
          REFERENCES "change_requests"("id") ON DELETE CASCADE,
        CONSTRAINT "FK_comments_revision" FOREIGN KEY ("revision")
          REFERENCES "revisions"("id"),
        CONSTRAINT "FK_comments_author_id" FOREIGN KEY ("author_id")
          REFERENCES "users"("id") ON DELETE CASCADE,
        CONSTRAINT "FK_comments_resolved_by" FOREIGN KEY ("resolved_by")
          REFERENCES "users"("id") ON DELETE SET NULL
      )`);
    // The two listings (a space's own comments, a change request's), in posting order.
    await queryRunner.query(
      `CREATE INDEX "IDX_comments_space_id_posted_at" ON "comments" ("space_id", "posted_at", "id") WHERE "change_request_id" IS NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_comments_change_request_id_posted_at" ON "comments" ("change_request_id", "posted_at", "id")`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_comments_author_id" ON "comments" ("author_id")`);
    await queryRunner.query(
      `CREATE INDEX "IDX_comments_resolved_by" ON "comments" ("resolved_by")`,
    );

    await queryRunner.query(`
      CREATE TABLE "comment_replies" (
        "id" varchar(32) NOT NULL,
        "comment_id" varchar(32) NOT NULL,
        "author_id" varchar(32) NOT NULL,
        "body" jsonb NOT NULL,
        "body_markdown" text,
        "posted_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "edited_at" TIMESTAMP WITH TIME ZONE,
        CONSTRAINT "PK_comment_replies" PRIMARY KEY ("id"),
        CONSTRAINT "FK_comment_replies_comment_id" FOREIGN KEY ("comment_id")
          REFERENCES "comments"("id") ON DELETE CASCADE,
        CONSTRAINT "FK_comment_replies_author_id" FOREIGN KEY ("author_id")
          REFERENCES "users"("id") ON DELETE CASCADE
      )`);
    // The listing (oldest first), the repliers of a page of comments, and a user's replies.
    await queryRunner.query(
      `CREATE INDEX "IDX_comment_replies_comment_id_posted_at" ON "comment_replies" ("comment_id", "posted_at", "id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_comment_replies_author_id" ON "comment_replies" ("author_id")`,
    );

    await queryRunner.query(`
      CREATE TABLE "comment_reactions" (
        "comment_id" varchar(32) NOT NULL,
        "emoji" varchar(32) NOT NULL,
        "user_id" varchar(32) NOT NULL,
        "reacted_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "PK_comment_reactions" PRIMARY KEY ("comment_id", "emoji", "user_id"),
        CONSTRAINT "FK_comment_reactions_comment_id" FOREIGN KEY ("comment_id")
          REFERENCES "comments"("id") ON DELETE CASCADE,
        CONSTRAINT "FK_comment_reactions_user_id" FOREIGN KEY ("user_id")
          REFERENCES "users"("id") ON DELETE CASCADE
      )`);
    await queryRunner.query(
      `CREATE INDEX "IDX_comment_reactions_user_id" ON "comment_reactions" ("user_id")`,
    );

    await queryRunner.query(`
      CREATE TABLE "comment_reply_reactions" (
        "reply_id" varchar(32) NOT NULL,
        "emoji" varchar(32) NOT NULL,
        "user_id" varchar(32) NOT NULL,
        "reacted_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "PK_comment_reply_reactions" PRIMARY KEY ("reply_id", "emoji", "user_id"),
        CONSTRAINT "FK_comment_reply_reactions_reply_id" FOREIGN KEY ("reply_id")
          REFERENCES "comment_replies"("id") ON DELETE CASCADE,
        CONSTRAINT "FK_comment_reply_reactions_user_id" FOREIGN KEY ("user_id")
          REFERENCES "users"("id") ON DELETE CASCADE
      )`);
    await queryRunner.query(
      `CREATE INDEX "IDX_comment_reply_reactions_user_id" ON "comment_reply_reactions" ("user_id")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "comment_reply_reactions"`);
    await queryRunner.query(`DROP TABLE "comment_reactions"`);
    await queryRunner.query(`DROP TABLE "comment_replies"`);
    await queryRunner.query(`DROP TABLE "comments"`);
    await queryRunner.query(`ALTER TABLE "change_requests" DROP COLUMN "comments"`);
  }
}
