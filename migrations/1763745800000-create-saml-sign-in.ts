import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * SAML sign-in: the AuthnRequests awaiting their answer, the assertions already used (kept until
 * they expire, against replays), the one-time codes a sign-in sends to its redirect URI, and a
 * provider's choice to accept sign-ins its identity provider starts.
 */
export class CreateSamlSignIn1763745800000 implements MigrationInterface {
  name = 'CreateSamlSignIn1763745800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "saml_providers" ADD "idp_initiated_login" boolean NOT NULL DEFAULT false`,
    );
    await queryRunner.query(
      `CREATE TABLE "saml_requests" (
         "provider_id" character varying(32) NOT NULL,
         "request_id" character varying(128) NOT NULL,
         "value" character varying(64) NOT NULL,
         "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL,
         CONSTRAINT "PK_saml_requests" PRIMARY KEY ("provider_id", "request_id"),
         CONSTRAINT "FK_saml_requests_provider_id" FOREIGN KEY ("provider_id")
           REFERENCES "saml_providers"("id") ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_saml_requests_expires_at" ON "saml_requests" ("expires_at")`,
    );
    await queryRunner.query(
      `CREATE TABLE "saml_assertions" (
         "provider_id" character varying(32) NOT NULL,
         "assertion_id" character varying(256) NOT NULL,
         "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL,
         CONSTRAINT "PK_saml_assertions" PRIMARY KEY ("provider_id", "assertion_id"),
         CONSTRAINT "FK_saml_assertions_provider_id" FOREIGN KEY ("provider_id")
           REFERENCES "saml_providers"("id") ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_saml_assertions_expires_at" ON "saml_assertions" ("expires_at")`,
    );
    await queryRunner.query(
      `CREATE TABLE "sso_sign_in_codes" (
         "code_hash" character varying(64) NOT NULL,
         "provider_id" character varying(32) NOT NULL,
         "organization_id" character varying(32) NOT NULL,
         "user_id" character varying(32) NOT NULL,
         "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
         "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL,
         CONSTRAINT "PK_sso_sign_in_codes" PRIMARY KEY ("code_hash"),
         CONSTRAINT "FK_sso_sign_in_codes_provider_id" FOREIGN KEY ("provider_id")
           REFERENCES "saml_providers"("id") ON DELETE CASCADE ON UPDATE NO ACTION,
         CONSTRAINT "FK_sso_sign_in_codes_organization_id" FOREIGN KEY ("organization_id")
           REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE NO ACTION,
         CONSTRAINT "FK_sso_sign_in_codes_user_id" FOREIGN KEY ("user_id")
           REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_sso_sign_in_codes_provider_id" ON "sso_sign_in_codes" ("provider_id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_sso_sign_in_codes_organization_id" ON "sso_sign_in_codes" ("organization_id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_sso_sign_in_codes_user_id" ON "sso_sign_in_codes" ("user_id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_sso_sign_in_codes_expires_at" ON "sso_sign_in_codes" ("expires_at")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "sso_sign_in_codes"`);
    await queryRunner.query(`DROP TABLE "saml_assertions"`);
    await queryRunner.query(`DROP TABLE "saml_requests"`);
    await queryRunner.query(`ALTER TABLE "saml_providers" DROP COLUMN "idp_initiated_login"`);
  }
}
