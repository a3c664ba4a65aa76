import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The conversations site assistant responses leave, for the next request to continue
 * (`previousResponseId`) through any process; kept an hour. The owner is a hash.
 */
export class CreateSiteAssistantResponses1763746800000 implements MigrationInterface {
  name = 'CreateSiteAssistantResponses1763746800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "site_assistant_responses" (
        "id" varchar(32) NOT NULL,
        "site_id" varchar(32) NOT NULL,
        "owner_hash" char(64) NOT NULL,
        "question" text NOT NULL,
        "messages" jsonb NOT NULL,
        "pending" jsonb,
        "expires_at" timestamptz NOT NULL,
        CONSTRAINT "PK_site_assistant_responses" PRIMARY KEY ("id"),
        CONSTRAINT "FK_site_assistant_responses_site_id" FOREIGN KEY ("site_id")
          REFERENCES "sites"("id") ON DELETE CASCADE
      )`);
    await queryRunner.query(
      `CREATE INDEX "IDX_site_assistant_responses_expires_at"
         ON "site_assistant_responses" ("expires_at")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "site_assistant_responses"`);
  }
}
