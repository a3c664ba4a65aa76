import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Keyset order of a collection's (or space's) grant lists: the grants on one resource by
 * creation time. The partial unique indexes on (resource_type, resource_id, user_id|team_id)
 * cannot serve that order.
 */
export class AddContentGrantIndexes1763742100000 implements MigrationInterface {
  name = 'AddContentGrantIndexes1763742100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "IDX_content_grants_resource_created_at" ON "content_grants" ("resource_type", "resource_id", "created_at", "id")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_content_grants_resource_created_at"`);
  }
}
