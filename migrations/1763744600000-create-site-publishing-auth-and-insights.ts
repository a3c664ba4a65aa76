import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A site's visitor authentication (its signing key, sealed, and the login and logout URLs of
 * its custom backend), made on first read; and the counters of its insights: events per day,
 * event type, site space, space, page and rating (of feedback), with nothing about who sent
 * them. An absent site space, space, page or rating is '' so that it is part of the key.
 * Both go with their site.
 */
export class CreateSitePublishingAuthAndInsights1763744600000 implements MigrationInterface {
  name = 'CreateSitePublishingAuthAndInsights1763744600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "site_publishing_auth" (
        "site_id" varchar(32) NOT NULL,
        "private_key_sealed" text NOT NULL,
        "fallback_url" varchar(2048),
        "logout_url" varchar(2048),
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "PK_site_publishing_auth" PRIMARY KEY ("site_id"),
        CONSTRAINT "FK_site_publishing_auth_site_id" FOREIGN KEY ("site_id")
          REFERENCES "sites"("id") ON DELETE CASCADE
      )`);

    // The key leads with the site and the day: what every aggregation filters on.
    await queryRunner.query(`
      CREATE TABLE "site_insights_counters" (
        "site_id" varchar(32) NOT NULL,
        "day" date NOT NULL,
        "event_type" varchar(32) NOT NULL,
        "site_space_id" varchar(32) NOT NULL,
        "space_id" varchar(32) NOT NULL,
        "page_id" varchar(64) NOT NULL,
        "rating" varchar(8) NOT NULL,
        "count" integer NOT NULL,
        CONSTRAINT "PK_site_insights_counters" PRIMARY KEY
          ("site_id", "day", "event_type", "site_space_id", "space_id", "page_id", "rating"),
        CONSTRAINT "FK_site_insights_counters_site_id" FOREIGN KEY ("site_id")
          REFERENCES "sites"("id") ON DELETE CASCADE
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "site_insights_counters"`);
    await queryRunner.query(`DROP TABLE "site_publishing_auth"`);
  }
}
