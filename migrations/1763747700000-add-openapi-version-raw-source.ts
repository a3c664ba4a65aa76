import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The root document of an OpenAPI specification's version as it was given or fetched (its text
 * and whether it is JSON or YAML), for getLatestOpenAPISpecVersionContentRaw. Versions made
 * before keep null: they have no raw source.
 */
export class AddOpenAPIVersionRawSource1763747700000 implements MigrationInterface {
  name = 'AddOpenAPIVersionRawSource1763747700000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE "openapi_spec_versions"
        ADD COLUMN "raw_text" text,
        ADD COLUMN "raw_format" varchar(4)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE "openapi_spec_versions" DROP COLUMN "raw_format", DROP COLUMN "raw_text"`);
  }
}
