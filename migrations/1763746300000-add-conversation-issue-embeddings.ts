import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Conversation issues keep their embedding (single precision) and the model that made it, so
 * that each issue is embedded once when AI_EMBEDDING_MODEL is set.
 */
export class AddConversationIssueEmbeddings1763746300000 implements MigrationInterface {
  name = 'AddConversationIssueEmbeddings1763746300000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "conversation_issues" ADD "embedding" real array, ADD "embedding_model" varchar(200)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "conversation_issues" DROP COLUMN "embedding_model", DROP COLUMN "embedding"`,
    );
  }
}
