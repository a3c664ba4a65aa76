import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The published-content lookup finds a site by its proxy origin, or by its organization and
 * basename: both indexed, as its custom hostname already is.
 */
export class IndexPublishedLookup1763744700000 implements MigrationInterface {
  name = 'IndexPublishedLookup1763744700000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "IDX_sites_proxy" ON "sites" ("proxy") WHERE "proxy" IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_sites_organization_id_basename" ON "sites" ("organization_id", "basename")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_sites_organization_id_basename"`);
    await queryRunner.query(`DROP INDEX "IDX_sites_proxy"`);
  }
}
