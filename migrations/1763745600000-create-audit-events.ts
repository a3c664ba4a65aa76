import { MigrationInterface, QueryRunner } from 'typeorm';

/** The audit log: one row per successful write through the API. */
export class CreateAuditEvents1763745600000 implements MigrationInterface {
  name = 'CreateAuditEvents1763745600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "audit_events" (
        "id" uuid NOT NULL,
        "organization_id" character varying(32),
        "occurred_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "action" character varying(100) NOT NULL,
        "operation_id" character varying(100) NOT NULL,
        "actor_type" character varying(16) NOT NULL,
        "actor_id" character varying(64) NOT NULL,
        "actor_label" character varying(256),
        "token_id" character varying(32),
        "target_type" character varying(64) NOT NULL,
        "target_id" character varying(256) NOT NULL,
        "target_label" character varying(256),
        "method" character varying(8) NOT NULL,
        "request_id" character varying(128),
        "ip_address" character varying(64),
        "user_agent" character varying(512),
        "changes" jsonb,
        CONSTRAINT "PK_audit_events" PRIMARY KEY ("id")
      )`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_audit_events_organization_id_occurred_at" ON "audit_events" ("organization_id", "occurred_at", "id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_audit_events_organization_id_action" ON "audit_events" ("organization_id", "action", "occurred_at", "id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_audit_events_organization_id_actor_id" ON "audit_events" ("organization_id", "actor_id", "occurred_at", "id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_audit_events_organization_id_target_id" ON "audit_events" ("organization_id", "target_id", "occurred_at", "id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_audit_events_occurred_at" ON "audit_events" ("occurred_at")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "audit_events"`);
  }
}
