import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Integrations published to this instance (GitBook's integration platform): the manifest of
 * the current version on the integration's row, each version's script beside it. An
 * integration belongs to the organization that published it; its name is unique on the
 * instance. Secrets are sealed with the instance key.
 */
export class CreateIntegrations1763746900000 implements MigrationInterface {
  name = 'CreateIntegrations1763746900000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "integrations" (
        "id" varchar(32) NOT NULL,
        "name" varchar(100) NOT NULL,
        "organization_id" varchar(32) NOT NULL,
        "version" integer NOT NULL,
        "runtime" varchar(8) NOT NULL,
        "title" varchar(30) NOT NULL,
        "description" varchar(100) NOT NULL,
        "summary" text,
        "icon_digest" char(64),
        "preview_image_digests" char(64) array NOT NULL,
        "visibility" varchar(16) NOT NULL,
        "target" varchar(16) NOT NULL,
        "scopes" varchar(64) array NOT NULL,
        "categories" varchar(32) array NOT NULL,
        "blocks" jsonb NOT NULL,
        "content_sources" jsonb NOT NULL,
        "external_links" jsonb NOT NULL,
        "configurations" jsonb NOT NULL,
        "content_security_policy" jsonb,
        "secrets" text,
        "dev_tunnel_url" varchar(256),
        "dev_all" boolean NOT NULL DEFAULT false,
        "created_at" timestamptz NOT NULL,
        "updated_at" timestamptz NOT NULL,
        CONSTRAINT "PK_integrations" PRIMARY KEY ("id"),
        CONSTRAINT "FK_integrations_organization_id" FOREIGN KEY ("organization_id")
          REFERENCES "organizations"("id") ON DELETE CASCADE
      )`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_integrations_name" ON "integrations" ("name")`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_integrations_organization_id" ON "integrations" ("organization_id")`,
    );
    await queryRunner.query(`
      CREATE TABLE "integration_versions" (
        "integration_id" varchar(32) NOT NULL,
        "version" integer NOT NULL,
        "script" text NOT NULL,
        "published_by" varchar(32),
        "published_at" timestamptz NOT NULL,
        CONSTRAINT "PK_integration_versions" PRIMARY KEY ("integration_id", "version"),
        CONSTRAINT "FK_integration_versions_integration_id" FOREIGN KEY ("integration_id")
          REFERENCES "integrations"("id") ON DELETE CASCADE
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "integration_versions"`);
    await queryRunner.query(`DROP TABLE "integrations"`);
  }
}
