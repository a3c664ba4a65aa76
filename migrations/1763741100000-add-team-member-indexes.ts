import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Keyset orders of the two team-membership lists: a team's members by join time, and a
 * member's teams by join time. The second index has the old (organization_id, user_id) one
 * as its prefix, so it replaces it (the foreign key to organization_members still uses it).
 */
export class AddTeamMemberIndexes1763741100000 implements MigrationInterface {
  name = 'AddTeamMemberIndexes1763741100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "IDX_team_members_team_id_added_at" ON "team_members" ("team_id", "added_at", "user_id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_team_members_organization_id_user_id_added_at" ON "team_members" ("organization_id", "user_id", "added_at", "team_id")`,
    );
    await queryRunner.query(`DROP INDEX "IDX_team_members_organization_id_user_id"`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "IDX_team_members_organization_id_user_id" ON "team_members" ("organization_id", "user_id")`,
    );
    await queryRunner.query(`DROP INDEX "IDX_team_members_organization_id_user_id_added_at"`);
    await queryRunner.query(`DROP INDEX "IDX_team_members_team_id_added_at"`);
  }
}
