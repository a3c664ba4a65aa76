import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Share-link keys are no longer kept in clear: a hash finds the link a visitor's key opens, and
 * the key itself is sealed with the instance secret (which a migration does not have, so the
 * keys of existing links are sealed at the next start and their clear column emptied).
 */
export class SealShareLinkKeys1763744400000 implements MigrationInterface {
  name = 'SealShareLinkKeys1763744400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "site_share_links" ADD "key_hash" varchar(64), ADD "key_sealed" text`,
    );
    await queryRunner.query(
      `UPDATE "site_share_links" SET "key_hash" = encode(sha256(convert_to("key", 'UTF8')), 'hex')`,
    );
    await queryRunner.query(
      `ALTER TABLE "site_share_links" ALTER COLUMN "key_hash" SET NOT NULL, ALTER COLUMN "key" DROP NOT NULL`,
    );
    await queryRunner.query(`DROP INDEX "UQ_site_share_links_key"`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_site_share_links_key_hash" ON "site_share_links" ("key_hash")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "UQ_site_share_links_key_hash"`);
    await queryRunner.query(`DELETE FROM "site_share_links" WHERE "key" IS NULL`);
    await queryRunner.query(`ALTER TABLE "site_share_links" ALTER COLUMN "key" SET NOT NULL`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_site_share_links_key" ON "site_share_links" ("key")`,
    );
    await queryRunner.query(
      `ALTER TABLE "site_share_links" DROP COLUMN "key_hash", DROP COLUMN "key_sealed"`,
    );
  }
}
