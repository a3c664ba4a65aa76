import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * External links of a site's navigation: at the site root or in a section group, ordered with
 * the sections and groups there.
 */
export class CreateSiteExternalLinks1763747800000 implements MigrationInterface {
  name = 'CreateSiteExternalLinks1763747800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "site_external_links" (
        "id" varchar(32) NOT NULL,
        "site_id" varchar(32) NOT NULL,
        "section_group_id" varchar(32),
        "title" varchar(128) NOT NULL,
        "localized_title" jsonb,
        "description" varchar(256),
        "localized_description" jsonb,
        "icon" varchar(50),
        "url" varchar(2048) NOT NULL,
        "draft" boolean NOT NULL,
        "condition" varchar(1024),
        "position" integer NOT NULL,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "PK_site_external_links" PRIMARY KEY ("id"),
        CONSTRAINT "FK_site_external_links_site_id" FOREIGN KEY ("site_id")
          REFERENCES "sites"("id") ON DELETE CASCADE,
        CONSTRAINT "FK_site_external_links_section_group_id" FOREIGN KEY ("section_group_id")
          REFERENCES "site_section_groups"("id") ON DELETE SET NULL
      )`);
    await queryRunner.query(
      `CREATE INDEX "IDX_site_external_links_site_id_created_at"
         ON "site_external_links" ("site_id", "created_at", "id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_site_external_links_section_group_id"
         ON "site_external_links" ("section_group_id")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "site_external_links"`);
  }
}
