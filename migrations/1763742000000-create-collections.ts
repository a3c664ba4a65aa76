import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateCollections1763742000000 implements MigrationInterface {
  name = 'CreateCollections1763742000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "collections" (
        "id" varchar(32) NOT NULL,
        "organization_id" varchar(32) NOT NULL,
        "parent_id" varchar(32),
        "title" varchar(50) NOT NULL,
        "description" varchar(100),
        "default_level" varchar(16),
        "position" bigint NOT NULL,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "PK_collections" PRIMARY KEY ("id"),
        CONSTRAINT "FK_collections_organization_id" FOREIGN KEY ("organization_id")
          REFERENCES "organizations"("id") ON DELETE CASCADE,
        CONSTRAINT "FK_collections_parent_id" FOREIGN KEY ("parent_id")
          REFERENCES "collections"("id") ON DELETE CASCADE
      )`);
    await queryRunner.query(
      `CREATE INDEX "IDX_collections_organization_id_parent_id_position" ON "collections" ("organization_id", "parent_id", "position")`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_collections_organization_id_created_at" ON "collections" ("organization_id", "created_at", "id")`,
    );
    await queryRunner.query(`
      CREATE TABLE "content_grants" (
        "id" varchar(32) NOT NULL,
        "organization_id" varchar(32) NOT NULL,
        "resource_type" varchar(16) NOT NULL,
        "resource_id" varchar(32) NOT NULL,
        "user_id" varchar(32),
        "team_id" varchar(32),
        "role" varchar(16) NOT NULL,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "PK_content_grants" PRIMARY KEY ("id"),
        CONSTRAINT "CHK_content_grants_grantee" CHECK (("user_id" IS NULL) <> ("team_id" IS NULL)),
        CONSTRAINT "FK_content_grants_organization_id" FOREIGN KEY ("organization_id")
          REFERENCES "organizations"("id") ON DELETE CASCADE,
        CONSTRAINT "FK_content_grants_member" FOREIGN KEY ("organization_id", "user_id")
          REFERENCES "organization_members"("organization_id", "user_id") ON DELETE CASCADE,
        CONSTRAINT "FK_content_grants_team_id" FOREIGN KEY ("team_id")
          REFERENCES "teams"("id") ON DELETE CASCADE
      )`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_content_grants_resource_user" ON "content_grants" ("resource_type", "resource_id", "user_id") WHERE "user_id" IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_content_grants_resource_team" ON "content_grants" ("resource_type", "resource_id", "team_id") WHERE "team_id" IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_content_grants_organization_id_user_id" ON "content_grants" ("organization_id", "user_id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_content_grants_organization_id_team_id" ON "content_grants" ("organization_id", "team_id")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "content_grants"`);
    await queryRunner.query(`DROP TABLE "collections"`);
  }
}
