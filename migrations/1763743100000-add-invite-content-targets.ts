import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Invite links to one space or one collection (GitBook's `{level, space}` and
 * `{level, collection}` invites): the target, and the level joining gives there. An invite has
 * at most one target, and a level exactly when it has one. Removing the space (purge) or the
 * collection removes its invites.
 */
export class AddInviteContentTargets1763743100000 implements MigrationInterface {
  name = 'AddInviteContentTargets1763743100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE "organization_invites"
        ADD COLUMN "space_id" varchar(32),
        ADD COLUMN "collection_id" varchar(32),
        ADD COLUMN "level" varchar(16),
        ADD CONSTRAINT "FK_organization_invites_space_id" FOREIGN KEY ("space_id")
          REFERENCES "spaces"("id") ON DELETE CASCADE,
        ADD CONSTRAINT "FK_organization_invites_collection_id" FOREIGN KEY ("collection_id")
          REFERENCES "collections"("id") ON DELETE CASCADE,
        ADD CONSTRAINT "CHK_organization_invites_target"
          CHECK (("space_id" IS NULL OR "collection_id" IS NULL) AND (("level" IS NULL) = ("space_id" IS NULL AND "collection_id" IS NULL)))`);
    // The cascades above look invites up by target.
    await queryRunner.query(
      `CREATE INDEX "IDX_organization_invites_space_id" ON "organization_invites" ("space_id") WHERE "space_id" IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_organization_invites_collection_id" ON "organization_invites" ("collection_id") WHERE "collection_id" IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_organization_invites_collection_id"`);
    await queryRunner.query(`DROP INDEX "IDX_organization_invites_space_id"`);
    await queryRunner.query(`
      ALTER TABLE "organization_invites"
        DROP CONSTRAINT "CHK_organization_invites_target",
        DROP CONSTRAINT "FK_organization_invites_collection_id",
        DROP CONSTRAINT "FK_organization_invites_space_id",
        DROP COLUMN "level",
        DROP COLUMN "collection_id",
        DROP COLUMN "space_id"`);
  }
}
