import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateAgentInstructions1763741300000 implements MigrationInterface {
  name = 'CreateAgentInstructions1763741300000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "agent_instructions" (
        "organization_id" varchar(32) NOT NULL,
        "instructions" jsonb NOT NULL,
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "updated_by" varchar(32),
        CONSTRAINT "PK_agent_instructions" PRIMARY KEY ("organization_id"),
        CONSTRAINT "FK_agent_instructions_organization_id" FOREIGN KEY ("organization_id")
          REFERENCES "organizations"("id") ON DELETE CASCADE,
        CONSTRAINT "FK_agent_instructions_updated_by" FOREIGN KEY ("updated_by")
          REFERENCES "users"("id") ON DELETE SET NULL
      )`);
    await queryRunner.query(
      `CREATE INDEX "IDX_agent_instructions_updated_by" ON "agent_instructions" ("updated_by")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "agent_instructions"`);
  }
}
