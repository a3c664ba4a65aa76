import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Redirects of a site: a source path (a wildcard when it ends in `*`) sends visitors to a
 * section, a site space, a page or an external URL. A source is found by its key (normalized:
 * decoded, lower-cased, re-encoded), unique in a site among the live and among the draft
 * redirects; wildcards keep the key of what they match the start of.
 */
export class CreateSiteRedirects1763744500000 implements MigrationInterface {
  name = 'CreateSiteRedirects1763744500000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "site_redirects" (
        "id" varchar(32) NOT NULL,
        "site_id" varchar(32) NOT NULL,
        "source" varchar(512) NOT NULL,
        "source_key" varchar(2048) NOT NULL,
        "wildcard_prefix" varchar(2048),
        "draft" boolean NOT NULL DEFAULT false,
        "capture_wildcard" boolean NOT NULL DEFAULT false,
        "permanent" boolean NOT NULL DEFAULT false,
        "destination" jsonb NOT NULL,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "updated_at" TIMESTAMP WITH TIME ZONE,
        "written_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "PK_site_redirects" PRIMARY KEY ("id"),
        CONSTRAINT "FK_site_redirects_site_id" FOREIGN KEY ("site_id")
          REFERENCES "sites"("id") ON DELETE CASCADE
      )`);
    // One redirect per source among a site's live ones, and among its drafts: the lookup.
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_site_redirects_site_id_draft_source_key" ON "site_redirects" ("site_id", "draft", "source_key")`,
    );
    // The wildcards a path may fall under.
    await queryRunner.query(
      `CREATE INDEX "IDX_site_redirects_site_id_wildcards" ON "site_redirects" ("site_id", "draft") WHERE "wildcard_prefix" IS NOT NULL`,
    );
    // The three orders of the listing.
    await queryRunner.query(
      `CREATE INDEX "IDX_site_redirects_site_id_draft_created_at" ON "site_redirects" ("site_id", "draft", "created_at", "id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_site_redirects_site_id_draft_written_at" ON "site_redirects" ("site_id", "draft", "written_at", "id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_site_redirects_site_id_draft_source" ON "site_redirects" ("site_id", "draft", "source", "id")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "site_redirects"`);
  }
}
