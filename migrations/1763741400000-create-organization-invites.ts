import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateOrganizationInvites1763741400000 implements MigrationInterface {
  name = 'CreateOrganizationInvites1763741400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "organization_invites" (
        "id" varchar(32) NOT NULL,
        "organization_id" varchar(32) NOT NULL,
        "role" varchar(16),
        "created_by" varchar(32),
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "PK_organization_invites" PRIMARY KEY ("id"),
        CONSTRAINT "FK_organization_invites_organization_id" FOREIGN KEY ("organization_id")
          REFERENCES "organizations"("id") ON DELETE CASCADE,
        CONSTRAINT "FK_organization_invites_created_by" FOREIGN KEY ("created_by")
          REFERENCES "users"("id") ON DELETE SET NULL
      )`);
    await queryRunner.query(
      `CREATE INDEX "IDX_organization_invites_organization_id_created_at" ON "organization_invites" ("organization_id", "created_at", "id")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "organization_invites"`);
  }
}
