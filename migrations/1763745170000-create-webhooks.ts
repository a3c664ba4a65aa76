import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhooks: an organization's endpoints with their sealed secrets and failure state, the
 * deliveries of events to them (pending, delivered, failed) and each attempt of a delivery.
 */
export class CreateWebhooks1763745170000 implements MigrationInterface {
  name = 'CreateWebhooks1763745170000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "webhooks" (
         "id" character varying(32) NOT NULL,
         "organization_id" character varying(32) NOT NULL,
         "url" text NOT NULL,
         "events" character varying(64) array NOT NULL,
         "space_ids" character varying(32) array NOT NULL,
         "site_ids" character varying(32) array NOT NULL,
         "active" boolean NOT NULL,
         "secret" text NOT NULL,
         "previous_secret" text,
         "previous_secret_expires_at" TIMESTAMP WITH TIME ZONE,
         "consecutive_failures" integer NOT NULL DEFAULT 0,
         "failing_since" TIMESTAMP WITH TIME ZONE,
         "disabled_reason" text,
         "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
         "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL,
         CONSTRAINT "PK_webhooks" PRIMARY KEY ("id"),
         CONSTRAINT "FK_webhooks_organization_id" FOREIGN KEY ("organization_id")
           REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_webhooks_organization_id_created_at" ON "webhooks" ("organization_id", "created_at", "id")`,
    );
    await queryRunner.query(
      `CREATE TABLE "webhook_deliveries" (
         "id" character varying(32) NOT NULL,
         "sequence" BIGSERIAL NOT NULL,
         "webhook_id" character varying(32) NOT NULL,
         "event_id" character varying(40) NOT NULL,
         "event_type" character varying(64) NOT NULL,
         "resource_key" character varying(128) NOT NULL,
         "status" character varying(16) NOT NULL,
         "attempts" integer NOT NULL DEFAULT 0,
         "next_attempt_at" TIMESTAMP WITH TIME ZONE,
         "lease_until" TIMESTAMP WITH TIME ZONE,
         "redelivery_of" character varying(32),
         "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
         "finished_at" TIMESTAMP WITH TIME ZONE,
         CONSTRAINT "PK_webhook_deliveries" PRIMARY KEY ("id"),
         CONSTRAINT "FK_webhook_deliveries_webhook_id" FOREIGN KEY ("webhook_id")
           REFERENCES "webhooks"("id") ON DELETE CASCADE ON UPDATE NO ACTION,
         CONSTRAINT "FK_webhook_deliveries_event_id" FOREIGN KEY ("event_id")
           REFERENCES "events"("id") ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_webhook_deliveries_sequence" ON "webhook_deliveries" ("sequence")`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_webhook_deliveries_webhook_id_sequence" ON "webhook_deliveries" ("webhook_id", "sequence")`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_webhook_deliveries_webhook_id_status_sequence" ON "webhook_deliveries" ("webhook_id", "status", "sequence")`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_webhook_deliveries_pending_resource" ON "webhook_deliveries" ("webhook_id", "resource_key", "sequence") WHERE "status" = 'pending'`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_webhook_deliveries_pending_next_attempt_at" ON "webhook_deliveries" ("next_attempt_at") WHERE "status" = 'pending'`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_webhook_deliveries_event_id" ON "webhook_deliveries" ("event_id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_webhook_deliveries_finished_at" ON "webhook_deliveries" ("finished_at") WHERE "finished_at" IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE TABLE "webhook_delivery_attempts" (
         "id" character varying(32) NOT NULL,
         "delivery_id" character varying(32) NOT NULL,
         "number" integer NOT NULL,
         "attempted_at" TIMESTAMP WITH TIME ZONE NOT NULL,
         "duration_ms" integer NOT NULL,
         "status_code" integer,
         "response" text,
         "error" text,
         CONSTRAINT "PK_webhook_delivery_attempts" PRIMARY KEY ("id"),
         CONSTRAINT "FK_webhook_delivery_attempts_delivery_id" FOREIGN KEY ("delivery_id")
           REFERENCES "webhook_deliveries"("id") ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_webhook_delivery_attempts_delivery_id_number" ON "webhook_delivery_attempts" ("delivery_id", "number")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "webhook_delivery_attempts"`);
    await queryRunner.query(`DROP TABLE "webhook_deliveries"`);
    await queryRunner.query(`DROP TABLE "webhooks"`);
  }
}
