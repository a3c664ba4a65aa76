import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Docs sites of an organization (with their adaptive schema and customization) and their share
 * links. The site structure (site spaces, sections, groups) has tables of its own.
 */
export class CreateSites1763743700000 implements MigrationInterface {
  name = 'CreateSites1763743700000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "sites" (
        "id" varchar(32) NOT NULL,
        "organization_id" varchar(32) NOT NULL,
        "type" varchar(32) NOT NULL DEFAULT 'basic',
        "title" varchar(128) NOT NULL,
        "visibility" varchar(16) NOT NULL DEFAULT 'public',
        "published" boolean NOT NULL DEFAULT false,
        "hostname" varchar(512),
        "basename" varchar(100),
        "proxy" varchar(512),
        "icon" jsonb,
        "adaptive_content" boolean NOT NULL DEFAULT false,
        "agents_context" varchar(16) NOT NULL DEFAULT 'included',
        "default_site_section_id" varchar(32),
        "default_site_space_id" varchar(32),
        "adaptive_schema" json,
        "adaptive_schema_updated_at" TIMESTAMP WITH TIME ZONE,
        "customization" jsonb,
        "site_space_customizations" jsonb NOT NULL DEFAULT '{}',
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "PK_sites" PRIMARY KEY ("id"),
        CONSTRAINT "FK_sites_organization_id" FOREIGN KEY ("organization_id")
          REFERENCES "organizations"("id") ON DELETE CASCADE
      )`);
    // The listing of an organization's sites, oldest first; hostnames are unique.
    await queryRunner.query(
      `CREATE INDEX "IDX_sites_organization_id_created_at" ON "sites" ("organization_id", "created_at", "id")`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_sites_hostname" ON "sites" ("hostname")`);

    await queryRunner.query(`
      CREATE TABLE "site_share_links" (
        "id" varchar(32) NOT NULL,
        "site_id" varchar(32) NOT NULL,
        "key" varchar(64) NOT NULL,
        "name" varchar(50) NOT NULL,
        "active" boolean NOT NULL DEFAULT true,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "PK_site_share_links" PRIMARY KEY ("id"),
        CONSTRAINT "FK_site_share_links_site_id" FOREIGN KEY ("site_id")
          REFERENCES "sites"("id") ON DELETE CASCADE
      )`);
    await queryRunner.query(
      `CREATE INDEX "IDX_site_share_links_site_id_created_at" ON "site_share_links" ("site_id", "created_at", "id")`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_site_share_links_key" ON "site_share_links" ("key")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "site_share_links"`);
    await queryRunner.query(`DROP TABLE "sites"`);
  }
}
