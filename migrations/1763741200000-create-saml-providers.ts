import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateSamlProviders1763741200000 implements MigrationInterface {
  name = 'CreateSamlProviders1763741200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "saml_providers" (
        "id" varchar(32) NOT NULL,
        "organization_id" varchar(32) NOT NULL,
        "label" varchar(30) NOT NULL,
        "entity_id" varchar(1024),
        "certificate" text,
        "sso_url" varchar(2048),
        "default_team_id" varchar(32),
        "default_role" varchar(16),
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "PK_saml_providers" PRIMARY KEY ("id"),
        CONSTRAINT "FK_saml_providers_organization_id" FOREIGN KEY ("organization_id")
          REFERENCES "organizations"("id") ON DELETE CASCADE,
        CONSTRAINT "FK_saml_providers_default_team_id" FOREIGN KEY ("default_team_id")
          REFERENCES "teams"("id") ON DELETE SET NULL
      )`);
    await queryRunner.query(
      `CREATE INDEX "IDX_saml_providers_organization_id_created_at" ON "saml_providers" ("organization_id", "created_at", "id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_saml_providers_default_team_id" ON "saml_providers" ("default_team_id")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "saml_providers"`);
  }
}
