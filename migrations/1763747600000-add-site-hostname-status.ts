import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Where the DNS check of a site's custom hostname stands (`live` once its DNS points at Bindery)
 * and when it was last checked. Hostnames set before are unchecked (null): the published lookup
 * honours none of them until a check finds their DNS right (the scheduled recheck, an update of
 * the site, or dnsRevalidateCustomHostname).
 */
export class AddSiteHostnameStatus1763747600000 implements MigrationInterface {
  name = 'AddSiteHostnameStatus1763747600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE "sites"
        ADD COLUMN "hostname_status" varchar(32),
        ADD COLUMN "hostname_checked_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(
      `CREATE INDEX "IDX_sites_hostname_checked_at" ON "sites" ("hostname_checked_at")
         WHERE "hostname" IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_sites_hostname_checked_at"`);
    await queryRunner.query(
      `ALTER TABLE "sites" DROP COLUMN "hostname_checked_at", DROP COLUMN "hostname_status"`,
    );
  }
}
