import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateTeams1763740800000 implements MigrationInterface {
  name = 'CreateTeams1763740800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "teams" (
        "id" varchar(32) NOT NULL,
        "organization_id" varchar(32) NOT NULL,
        "title" varchar(64) NOT NULL,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "PK_teams" PRIMARY KEY ("id"),
        CONSTRAINT "FK_teams_organization_id" FOREIGN KEY ("organization_id")
          REFERENCES "organizations"("id") ON DELETE CASCADE
      )`);
    await queryRunner.query(
      `CREATE INDEX "IDX_teams_organization_id_created_at" ON "teams" ("organization_id", "created_at", "id")`,
    );
    await queryRunner.query(`
      CREATE TABLE "team_members" (
        "team_id" varchar(32) NOT NULL,
        "user_id" varchar(32) NOT NULL,
        "organization_id" varchar(32) NOT NULL,
        "role" varchar(16) NOT NULL DEFAULT 'member',
        "added_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "PK_team_members" PRIMARY KEY ("team_id", "user_id"),
        CONSTRAINT "FK_team_members_team_id" FOREIGN KEY ("team_id")
          REFERENCES "teams"("id") ON DELETE CASCADE,
        CONSTRAINT "FK_team_members_member" FOREIGN KEY ("organization_id", "user_id")
          REFERENCES "organization_members"("organization_id", "user_id") ON DELETE CASCADE
      )`);
    await queryRunner.query(
      `CREATE INDEX "IDX_team_members_organization_id_user_id" ON "team_members" ("organization_id", "user_id")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "team_members"`);
    await queryRunner.query(`DROP TABLE "teams"`);
  }
}
