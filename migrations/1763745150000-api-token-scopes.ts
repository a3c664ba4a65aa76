import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Scoped API tokens: what a token is limited to (read-only or read-write, one organization,
 * some spaces or sites of it); null, all its user may do.
 */
export class ApiTokenScopes1763745150000 implements MigrationInterface {
  name = 'ApiTokenScopes1763745150000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "api_tokens" ADD "scope" jsonb`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "api_tokens" DROP COLUMN "scope"`);
  }
}
