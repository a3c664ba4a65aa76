import { MigrationInterface, QueryRunner } from 'typeorm';

/** Keyset order of the members list: by join date, or by last activity, then user id. */
export class CreateMemberListIndexes1763741000000 implements MigrationInterface {
  name = 'CreateMemberListIndexes1763741000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "IDX_organization_members_organization_id_joined_at" ON "organization_members" ("organization_id", "joined_at", "user_id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_organization_members_organization_id_last_seen_at" ON "organization_members" ("organization_id", "last_seen_at", "user_id")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_organization_members_organization_id_last_seen_at"`);
    await queryRunner.query(`DROP INDEX "IDX_organization_members_organization_id_joined_at"`);
  }
}
