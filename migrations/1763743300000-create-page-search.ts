import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One row per indexed page, to rank pages from one small vector each rather than from every
 * matching section: `tsv` holds each lexeme of the page's sections once, with at most two
 * positions per weight (page title, headings, text), and is stored in the row (STORAGE MAIN)
 * so that ranking thousands of pages reads no TOAST. Rows go with their space. Pages already
 * indexed get their row from their `page_sections` rows.
 */
export class CreatePageSearch1763743300000 implements MigrationInterface {
  name = 'CreatePageSearch1763743300000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "page_search" (
        "space_id" varchar(32) NOT NULL,
        "page_id" varchar(64) NOT NULL,
        "tsv" tsvector NOT NULL,
        CONSTRAINT "PK_page_search" PRIMARY KEY ("space_id", "page_id"),
        CONSTRAINT "FK_page_search_space_id" FOREIGN KEY ("space_id")
          REFERENCES "spaces"("id") ON DELETE CASCADE
      )`);
    // Kept in the row (compressed if need be) rather than in TOAST: ranking reads every match.
    await queryRunner.query(`ALTER TABLE "page_search" ALTER COLUMN "tsv" SET STORAGE MAIN`);
    await queryRunner.query(
      `CREATE INDEX "IDX_page_search_tsv" ON "page_search" USING gin ("tsv")`,
    );
    await queryRunner.query(`
      INSERT INTO "page_search" ("space_id", "page_id", "tsv")
      SELECT space_id, page_id, string_agg(entry, ' ')::tsvector
        FROM (SELECT space_id, page_id,
                     '''' || replace(replace(lexeme, '\\', '\\\\'), '''', '''''') || ''':'
                       || string_agg(pos::text || weight, ',') AS entry
                FROM (SELECT ps.space_id, ps.page_id, u.lexeme, p.pos, p.weight,
                             row_number() OVER (PARTITION BY ps.space_id, ps.page_id, u.lexeme,
                                                             p.weight
                                                ORDER BY p.pos, ps.position) AS n
                        FROM page_sections ps, unnest(ps.tsv) u,
                             unnest(u.positions, u.weights) p(pos, weight)) occurrences
               WHERE n <= 2
               GROUP BY space_id, page_id, lexeme) entries
       GROUP BY space_id, page_id`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_page_search_tsv"`);
    await queryRunner.query(`DROP TABLE "page_search"`);
  }
}
