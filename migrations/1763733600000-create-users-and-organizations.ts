import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateUsersAndOrganizations1763733600000 implements MigrationInterface {
  name = 'CreateUsersAndOrganizations1763733600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "instance_settings" (
        "key" varchar(64) NOT NULL,
        "value" text NOT NULL,
        CONSTRAINT "PK_instance_settings" PRIMARY KEY ("key")
      )`);
    await queryRunner.query(`
      CREATE TABLE "users" (
        "id" varchar(32) NOT NULL,
        "email" varchar(320) NOT NULL,
        "display_name" varchar(255) NOT NULL,
        "photo_url" varchar(2048),
        "disabled" boolean NOT NULL DEFAULT false,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "PK_users" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_users_email" ON "users" ("email")`);
    await queryRunner.query(`
      CREATE TABLE "api_tokens" (
        "id" varchar(32) NOT NULL,
        "user_id" varchar(32) NOT NULL,
        "token_hash" character(64) NOT NULL,
        "label" varchar(100),
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "PK_api_tokens" PRIMARY KEY ("id"),
        CONSTRAINT "FK_api_tokens_user_id" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE
      )`);
    await queryRunner.query(`CREATE INDEX "IDX_api_tokens_user_id" ON "api_tokens" ("user_id")`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_api_tokens_token_hash" ON "api_tokens" ("token_hash")`,
    );
    await queryRunner.query(`
      CREATE TABLE "organizations" (
        "id" varchar(32) NOT NULL,
        "title" varchar(255) NOT NULL,
        "email_domains" text array NOT NULL DEFAULT '{}',
        "hostname" varchar(32),
        "type" varchar(16) NOT NULL DEFAULT 'business',
        "use_case" varchar(32),
        "community_type" varchar(16),
        "default_role" varchar(16),
        "default_content" jsonb,
        "sso" boolean NOT NULL DEFAULT false,
        "ai" boolean NOT NULL DEFAULT true,
        "invite_links" boolean NOT NULL DEFAULT true,
        "merge_rules" jsonb NOT NULL,
        "logo_url" varchar(2048),
        "custom_hostname" varchar(255),
        "onboarding_preferences" jsonb,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "PK_organizations" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_organizations_hostname" ON "organizations" ("hostname")`,
    );
    await queryRunner.query(`
      CREATE TABLE "organization_members" (
        "organization_id" varchar(32) NOT NULL,
        "user_id" varchar(32) NOT NULL,
        "role" varchar(16),
        "sso" boolean NOT NULL DEFAULT false,
        "disabled" boolean NOT NULL DEFAULT false,
        "joined_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "last_seen_at" TIMESTAMP WITH TIME ZONE,
        CONSTRAINT "PK_organization_members" PRIMARY KEY ("organization_id", "user_id"),
        CONSTRAINT "FK_organization_members_organization_id" FOREIGN KEY ("organization_id")
          REFERENCES "organizations"("id") ON DELETE CASCADE,
        CONSTRAINT "FK_organization_members_user_id" FOREIGN KEY ("user_id")
          REFERENCES "users"("id") ON DELETE CASCADE
      )`);
    await queryRunner.query(
      `CREATE INDEX "IDX_organization_members_user_id" ON "organization_members" ("user_id", "organization_id")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "organization_members"`);
    await queryRunner.query(`DROP TABLE "organizations"`);
    await queryRunner.query(`DROP TABLE "api_tokens"`);
    await queryRunner.query(`DROP TABLE "users"`);
    await queryRunner.query(`DROP TABLE "instance_settings"`);
  }
}
