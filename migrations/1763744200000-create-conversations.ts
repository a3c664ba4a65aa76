import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Conversations ingested into an organization (unique per source and external id), the issues
 * their analysis extracts, and the clusters grouping similar issues; change requests may point
 * at a cluster (`conversationsIssuesCluster`).
 */
export class CreateConversations1763744200000 implements MigrationInterface {
  name = 'CreateConversations1763744200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "conversations" (
        "id" varchar(32) NOT NULL,
        "organization_id" varchar(32) NOT NULL,
        "source" varchar(300) NOT NULL,
        "external_id" varchar(255) NOT NULL,
        "subject" varchar(512),
        "parts" jsonb NOT NULL,
        "metadata_url" text,
        "metadata_attributes" jsonb,
        "metadata_created_at" TIMESTAMP WITH TIME ZONE,
        "content_hash" char(64) NOT NULL,
        "analysis_revision" integer NOT NULL DEFAULT 1,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "ingested_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "processed_at" TIMESTAMP WITH TIME ZONE,
        CONSTRAINT "PK_conversations" PRIMARY KEY ("id"),
        CONSTRAINT "FK_conversations_organization_id" FOREIGN KEY ("organization_id")
          REFERENCES "organizations"("id") ON DELETE CASCADE
      )`);
    // Re-ingesting an id of a source updates the conversation (the upsert's conflict target).
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_conversations_organization_id_source_external_id" ON "conversations" ("organization_id", "source", "external_id")`,
    );
    // The listing, newest first, with and without the source filter.
    await queryRunner.query(
      `CREATE INDEX "IDX_conversations_organization_id_created_at" ON "conversations" ("organization_id", "created_at", "id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_conversations_organization_id_source_created_at" ON "conversations" ("organization_id", "source", "created_at", "id")`,
    );
    // What the analysis picks up.
    await queryRunner.query(
      `CREATE INDEX "IDX_conversations_unprocessed" ON "conversations" ("organization_id", "created_at", "id") WHERE "processed_at" IS NULL`,
    );

    await queryRunner.query(`
      CREATE TABLE "conversation_issue_clusters" (
        "id" varchar(32) NOT NULL,
        "organization_id" varchar(32) NOT NULL,
        "label" varchar(512) NOT NULL,
        "summary" text NOT NULL,
        "icon" varchar(50) NOT NULL,
        "issues" integer NOT NULL DEFAULT 0,
        "conversations" integer NOT NULL DEFAULT 0,
        "sources" jsonb NOT NULL DEFAULT '{}',
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "PK_conversation_issue_clusters" PRIMARY KEY ("id"),
        CONSTRAINT "FK_conversation_issue_clusters_organization_id" FOREIGN KEY ("organization_id")
          REFERENCES "organizations"("id") ON DELETE CASCADE
      )`);
    // The listing by each `orderBy`.
    await queryRunner.query(
      `CREATE INDEX "IDX_conversation_issue_clusters_organization_id_updated_at" ON "conversation_issue_clusters" ("organization_id", "updated_at", "id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_conversation_issue_clusters_organization_id_issues" ON "conversation_issue_clusters" ("organization_id", "issues", "id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_conversation_issue_clusters_organization_id_conversations" ON "conversation_issue_clusters" ("organization_id", "conversations", "id")`,
    );

    await queryRunner.query(`
      CREATE TABLE "conversation_issues" (
        "id" varchar(32) NOT NULL,
        "organization_id" varchar(32) NOT NULL,
        "conversation_id" varchar(32) NOT NULL,
        "cluster_id" varchar(32),
        "title" varchar(512) NOT NULL,
        "summary" text NOT NULL,
        "terms" jsonb NOT NULL,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "ingested_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "PK_conversation_issues" PRIMARY KEY ("id"),
        CONSTRAINT "FK_conversation_issues_organization_id" FOREIGN KEY ("organization_id")
          REFERENCES "organizations"("id") ON DELETE CASCADE,
        CONSTRAINT "FK_conversation_issues_conversation_id" FOREIGN KEY ("conversation_id")
          REFERENCES "conversations"("id") ON DELETE CASCADE,
        CONSTRAINT "FK_conversation_issues_cluster_id" FOREIGN KEY ("cluster_id")
          REFERENCES "conversation_issue_clusters"("id") ON DELETE SET NULL
      )`);
    // The listing, newest first, with each filter; the weekly pulse reads the cluster index.
    await queryRunner.query(
      `CREATE INDEX "IDX_conversation_issues_organization_id_created_at" ON "conversation_issues" ("organization_id", "created_at", "id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_conversation_issues_cluster_id_created_at" ON "conversation_issues" ("cluster_id", "created_at", "id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_conversation_issues_conversation_id_created_at" ON "conversation_issues" ("conversation_id", "created_at", "id")`,
    );

    await queryRunner.query(
      `ALTER TABLE "change_requests" ADD "conversations_issues_cluster_id" varchar(32)`,
    );
    await queryRunner.query(
      `ALTER TABLE "change_requests" ADD CONSTRAINT "FK_change_requests_conversations_issues_cluster_id" FOREIGN KEY ("conversations_issues_cluster_id") REFERENCES "conversation_issue_clusters"("id") ON DELETE SET NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_change_requests_conversations_issues_cluster_id" ON "change_requests" ("conversations_issues_cluster_id") WHERE "conversations_issues_cluster_id" IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "change_requests" DROP COLUMN "conversations_issues_cluster_id"`,
    );
    await queryRunner.query(`DROP TABLE "conversation_issues"`);
    await queryRunner.query(`DROP TABLE "conversation_issue_clusters"`);
    await queryRunner.query(`DROP TABLE "conversations"`);
  }
}
