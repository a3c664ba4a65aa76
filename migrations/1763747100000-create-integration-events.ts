import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The events Bindery sent to integrations' scripts, with what each answered: what
 * `listIntegrationEvents` and `getIntegrationEvent` show the integration's developers.
 */
export class CreateIntegrationEvents1763747100000 implements MigrationInterface {
  name = 'CreateIntegrationEvents1763747100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "integration_events" (
        "id" varchar(32) NOT NULL,
        "integration_id" varchar(32) NOT NULL,
        "installation_id" varchar(32),
        "type" varchar(64) NOT NULL,
        "payload" jsonb NOT NULL,
        "status" varchar(8) NOT NULL,
        "response" jsonb,
        "error" text,
        "duration_ms" integer NOT NULL,
        "created_at" timestamptz NOT NULL,
        CONSTRAINT "PK_integration_events" PRIMARY KEY ("id"),
        CONSTRAINT "FK_integration_events_integration_id" FOREIGN KEY ("integration_id")
          REFERENCES "integrations"("id") ON DELETE CASCADE
      )`);
    await queryRunner.query(
      `CREATE INDEX "IDX_integration_events_integration_id_created_at"
         ON "integration_events" ("integration_id", "created_at", "id")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "integration_events"`);
  }
}
