import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Installations of integrations (GitBook's integration platform): an integration installed on
 * an organization, at most once, and below that installation on some of the organization's
 * spaces and sites, once each. Each goes with its integration, its organization and its space
 * or site (ON DELETE CASCADE); the space and site installations with their installation.
 */
export class CreateIntegrationInstallations1763747000000 implements MigrationInterface {
  name = 'CreateIntegrationInstallations1763747000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "integration_installations" (
        "id" varchar(32) NOT NULL,
        "integration_id" varchar(32) NOT NULL,
        "organization_id" varchar(32) NOT NULL,
        "configuration" jsonb NOT NULL,
        "space_selection" varchar(16) NOT NULL,
        "site_selection" varchar(16) NOT NULL,
        "external_ids" varchar(512) array NOT NULL,
        "created_at" timestamptz NOT NULL,
        "updated_at" timestamptz NOT NULL,
        CONSTRAINT "PK_integration_installations" PRIMARY KEY ("id"),
        CONSTRAINT "FK_integration_installations_integration_id" FOREIGN KEY ("integration_id")
          REFERENCES "integrations"("id") ON DELETE CASCADE,
        CONSTRAINT "FK_integration_installations_organization_id" FOREIGN KEY ("organization_id")
          REFERENCES "organizations"("id") ON DELETE CASCADE
      )`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_integration_installations_integration_organization" ON "integration_installations" ("integration_id", "organization_id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_integration_installations_organization_id" ON "integration_installations" ("organization_id")`,
    );
    await queryRunner.query(`
      CREATE TABLE "integration_space_installations" (
        "installation_id" varchar(32) NOT NULL,
        "space_id" varchar(32) NOT NULL,
        "organization_id" varchar(32) NOT NULL,
        "configuration" jsonb NOT NULL,
        "external_ids" varchar(512) array NOT NULL,
        "created_at" timestamptz NOT NULL,
        "updated_at" timestamptz NOT NULL,
        CONSTRAINT "PK_integration_space_installations" PRIMARY KEY ("installation_id", "space_id"),
        CONSTRAINT "FK_integration_space_installations_installation_id" FOREIGN KEY ("installation_id")
          REFERENCES "integration_installations"("id") ON DELETE CASCADE,
        CONSTRAINT "FK_integration_space_installations_space_id" FOREIGN KEY ("space_id")
          REFERENCES "spaces"("id") ON DELETE CASCADE,
        CONSTRAINT "FK_integration_space_installations_organization_id" FOREIGN KEY ("organization_id")
          REFERENCES "organizations"("id") ON DELETE CASCADE
      )`);
    await queryRunner.query(
      `CREATE INDEX "IDX_integration_space_installations_space_id" ON "integration_space_installations" ("space_id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_integration_space_installations_organization_id" ON "integration_space_installations" ("organization_id")`,
    );
    await queryRunner.query(`
      CREATE TABLE "integration_site_installations" (
        "installation_id" varchar(32) NOT NULL,
        "site_id" varchar(32) NOT NULL,
        "organization_id" varchar(32) NOT NULL,
        "configuration" jsonb NOT NULL,
        "external_ids" varchar(512) array NOT NULL,
        "created_at" timestamptz NOT NULL,
        "updated_at" timestamptz NOT NULL,
        CONSTRAINT "PK_integration_site_installations" PRIMARY KEY ("installation_id", "site_id"),
        CONSTRAINT "FK_integration_site_installations_installation_id" FOREIGN KEY ("installation_id")
          REFERENCES "integration_installations"("id") ON DELETE CASCADE,
        CONSTRAINT "FK_integration_site_installations_site_id" FOREIGN KEY ("site_id")
          REFERENCES "sites"("id") ON DELETE CASCADE,
        CONSTRAINT "FK_integration_site_installations_organization_id" FOREIGN KEY ("organization_id")
          REFERENCES "organizations"("id") ON DELETE CASCADE
      )`);
    await queryRunner.query(
      `CREATE INDEX "IDX_integration_site_installations_site_id" ON "integration_site_installations" ("site_id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_integration_site_installations_organization_id" ON "integration_site_installations" ("organization_id")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "integration_site_installations"`);
    await queryRunner.query(`DROP TABLE "integration_space_installations"`);
    await queryRunner.query(`DROP TABLE "integration_installations"`);
  }
}
