import { MigrationInterface, QueryRunner } from 'typeorm';

/** Invitations emailed to addresses of no user yet, pending until accepted, revoked or expired. */
export class CreateEmailInvites1763745700000 implements MigrationInterface {
  name = 'CreateEmailInvites1763745700000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "email_invites" (
         "id" character varying(32) NOT NULL,
         "organization_id" character varying(32) NOT NULL,
         "email" character varying(320) NOT NULL,
         "role" character varying(16),
         "sso" boolean NOT NULL,
         "invited_by" character varying(32),
         "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
         "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL,
         CONSTRAINT "PK_email_invites" PRIMARY KEY ("id"),
         CONSTRAINT "FK_email_invites_organization_id" FOREIGN KEY ("organization_id")
           REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE NO ACTION,
         CONSTRAINT "FK_email_invites_invited_by" FOREIGN KEY ("invited_by")
           REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION)`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_email_invites_organization_id_created_at" ON "email_invites" ("organization_id", "created_at", "id")`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_email_invites_organization_id_email" ON "email_invites" ("organization_id", "email")`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_email_invites_invited_by" ON "email_invites" ("invited_by")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "email_invites"`);
  }
}
