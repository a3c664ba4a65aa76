import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The structure of a docs site: section groups (nestable), sections (in a group or at the
 * root) and site spaces (the variants of a section, or at the root of a site without
 * sections). Everything goes with its site, and so with its organization; a site space also
 * goes with its space when that is purged.
 */
export class CreateSiteStructure1763743800000 implements MigrationInterface {
  name = 'CreateSiteStructure1763743800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "site_section_groups" (
        "id" varchar(32) NOT NULL,
        "site_id" varchar(32) NOT NULL,
        "parent_id" varchar(32),
        "title" varchar(100) NOT NULL,
        "icon" varchar(50),
        "position" integer NOT NULL,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "PK_site_section_groups" PRIMARY KEY ("id"),
        CONSTRAINT "FK_site_section_groups_site_id" FOREIGN KEY ("site_id")
          REFERENCES "sites"("id") ON DELETE CASCADE,
        CONSTRAINT "FK_site_section_groups_parent_id" FOREIGN KEY ("parent_id")
          REFERENCES "site_section_groups"("id") ON DELETE SET NULL
      )`);
    // The listing (oldest first) and the children of a group.
    await queryRunner.query(
      `CREATE INDEX "IDX_site_section_groups_site_id_created_at" ON "site_section_groups" ("site_id", "created_at", "id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_site_section_groups_parent_id" ON "site_section_groups" ("parent_id")`,
    );

    await queryRunner.query(`
      CREATE TABLE "site_sections" (
        "id" varchar(32) NOT NULL,
        "site_id" varchar(32) NOT NULL,
        "section_group_id" varchar(32),
        "title" varchar(128) NOT NULL,
        "path" varchar(100) NOT NULL,
        "description" varchar(256),
        "icon" varchar(50),
        "condition" varchar(1024),
        "default_site_space_id" varchar(32),
        "position" integer NOT NULL,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "PK_site_sections" PRIMARY KEY ("id"),
        CONSTRAINT "FK_site_sections_site_id" FOREIGN KEY ("site_id")
          REFERENCES "sites"("id") ON DELETE CASCADE,
        CONSTRAINT "FK_site_sections_section_group_id" FOREIGN KEY ("section_group_id")
          REFERENCES "site_section_groups"("id") ON DELETE SET NULL
      )`);
    // Paths are unique in a site; the listing (oldest first); the sections of a group.
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_site_sections_site_id_path" ON "site_sections" ("site_id", "path")`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_site_sections_site_id_created_at" ON "site_sections" ("site_id", "created_at", "id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_site_sections_section_group_id" ON "site_sections" ("section_group_id")`,
    );

    await queryRunner.query(`
      CREATE TABLE "site_spaces" (
        "id" varchar(32) NOT NULL,
        "site_id" varchar(32) NOT NULL,
        "section_id" varchar(32),
        "space_id" varchar(32) NOT NULL,
        "path" varchar(100) NOT NULL,
        "condition" varchar(1024),
        "position" integer NOT NULL,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "PK_site_spaces" PRIMARY KEY ("id"),
        CONSTRAINT "FK_site_spaces_site_id" FOREIGN KEY ("site_id")
          REFERENCES "sites"("id") ON DELETE CASCADE,
        CONSTRAINT "FK_site_spaces_section_id" FOREIGN KEY ("section_id")
          REFERENCES "site_sections"("id") ON DELETE CASCADE,
        CONSTRAINT "FK_site_spaces_space_id" FOREIGN KEY ("space_id")
          REFERENCES "spaces"("id") ON DELETE CASCADE
      )`);
    // Paths are unique among siblings: in a section, or at the root of the site.
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_site_spaces_section_id_path" ON "site_spaces" ("section_id", "path") WHERE "section_id" IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_site_spaces_site_id_path" ON "site_spaces" ("site_id", "path") WHERE "section_id" IS NULL`,
    );
    // The listing (oldest first); the sites of a space (and its purge).
    await queryRunner.query(
      `CREATE INDEX "IDX_site_spaces_site_id_created_at" ON "site_spaces" ("site_id", "created_at", "id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_site_spaces_space_id" ON "site_spaces" ("space_id")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "site_spaces"`);
    await queryRunner.query(`DROP TABLE "site_sections"`);
    await queryRunner.query(`DROP TABLE "site_section_groups"`);
  }
}
