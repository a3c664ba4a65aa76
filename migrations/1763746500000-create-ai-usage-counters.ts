import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Tokens an organization's answers used, per UTC day and feature (site asks, organization asks,
 * recommended questions): what the monthly budget (AI_MONTHLY_TOKEN_BUDGET) and
 * getOrganizationAIUsage read. Nothing of a question is kept here.
 */
export class CreateAiUsageCounters1763746500000 implements MigrationInterface {
  name = 'CreateAiUsageCounters1763746500000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "ai_usage_counters" (
        "organization_id" varchar(32) NOT NULL,
        "day" date NOT NULL,
        "feature" varchar(32) NOT NULL,
        "tokens" bigint NOT NULL,
        CONSTRAINT "PK_ai_usage_counters" PRIMARY KEY ("organization_id", "day", "feature"),
        CONSTRAINT "FK_ai_usage_counters_organization_id" FOREIGN KEY ("organization_id")
          REFERENCES "organizations"("id") ON DELETE CASCADE
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "ai_usage_counters"`);
  }
}
