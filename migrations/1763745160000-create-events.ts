import { MigrationInterface, QueryRunner } from 'typeorm';

/** The event outbox: events written in the transaction of their change, for webhooks. */
export class CreateEvents1763745160000 implements MigrationInterface {
  name = 'CreateEvents1763745160000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "events" (
         "id" character varying(40) NOT NULL,
         "sequence" BIGSERIAL NOT NULL,
         "organization_id" character varying(32) NOT NULL,
         "type" character varying(64) NOT NULL,
         "resource_key" character varying(128) NOT NULL,
         "space_id" character varying(32),
         "site_id" character varying(32),
         "payload" jsonb NOT NULL,
         "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
         "dispatched_at" TIMESTAMP WITH TIME ZONE,
         CONSTRAINT "PK_events" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_events_sequence" ON "events" ("sequence")`);
    await queryRunner.query(
      `CREATE INDEX "IDX_events_undispatched" ON "events" ("sequence") WHERE "dispatched_at" IS NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_events_organization_id_created_at" ON "events" ("organization_id", "created_at")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "events"`);
  }
}
