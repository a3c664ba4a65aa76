import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When the instance administrator deleted a user. A deleted user keeps its row, so that what it
 * wrote (revisions, change requests, comments and replies, whose foreign keys would cascade or
 * lose their author) stays attributed; its address is anonymized and its tokens and memberships
 * are gone.
 */
export class AddUsersDeletedAt1763746000000 implements MigrationInterface {
  name = 'AddUsersDeletedAt1763746000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "users" ADD "deleted_at" TIMESTAMP WITH TIME ZONE`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "users" DROP COLUMN "deleted_at"`);
  }
}
