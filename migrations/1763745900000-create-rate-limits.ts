import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Rate limit counters shared by every API process (RATE_LIMIT_STORE=database): one row per
 * token (or client address) and route, with the points used in its window and the window's end
 * (epoch milliseconds), in the shape rate-limiter-flexible's PostgreSQL limiter reads and
 * writes. Unlogged: the counters live a minute, so they skip the write-ahead log (and are
 * emptied after a crash). Expired rows are deleted by each process every five minutes, through
 * the index on `expire`.
 */
export class CreateRateLimits1763745900000 implements MigrationInterface {
  name = 'CreateRateLimits1763745900000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE UNLOGGED TABLE "rate_limits" (
         "key" character varying(255) NOT NULL,
         "points" integer NOT NULL DEFAULT 0,
         "expire" bigint,
         CONSTRAINT "PK_rate_limits" PRIMARY KEY ("key"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_rate_limits_expire" ON "rate_limits" ("expire")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "rate_limits"`);
  }
}
