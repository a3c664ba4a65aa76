import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Custom fonts of an organization, which its sites' customization names: a family name and,
 * as one JSON list, a file per weight (the files are in the blob store).
 */
export class CreateCustomFonts1763747400000 implements MigrationInterface {
  name = 'CreateCustomFonts1763747400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "custom_fonts" (
        "id" varchar(32) NOT NULL,
        "organization_id" varchar(32) NOT NULL,
        "font_family" varchar(50) NOT NULL,
        "font_faces" jsonb NOT NULL,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "PK_custom_fonts" PRIMARY KEY ("id"),
        CONSTRAINT "FK_custom_fonts_organization_id" FOREIGN KEY ("organization_id")
          REFERENCES "organizations"("id") ON DELETE CASCADE
      )`);
    await queryRunner.query(
      `CREATE INDEX "IDX_custom_fonts_organization_id_created_at"
         ON "custom_fonts" ("organization_id", "created_at", "id")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "custom_fonts"`);
  }
}
