import { MigrationInterface, QueryRunner } from 'typeorm';

/** API tokens a user manages: an optional expiry, and when each was last used. */
export class ApiTokenExpiry1763745100000 implements MigrationInterface {
  name = 'ApiTokenExpiry1763745100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "api_tokens" ADD "expires_at" TIMESTAMP WITH TIME ZONE,
         ADD "last_used_at" TIMESTAMP WITH TIME ZONE`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_api_tokens_user_id_created_at" ON "api_tokens" ("user_id", "created_at", "id")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_api_tokens_user_id_created_at"`);
    await queryRunner.query(
      `ALTER TABLE "api_tokens" DROP COLUMN "expires_at", DROP COLUMN "last_used_at"`,
    );
  }
}
