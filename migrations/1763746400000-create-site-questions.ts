import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What visitors ask a site's AI answers, kept AI_QUESTIONS_RETENTION_DAYS: a question (one per
 * site and normalized text) and each time it was asked (its answer, its sources, the visitor's
 * anonymous ids when given, its feedback); agents' feedback to a site; a site's agent settings.
 * All belong to their organization through their site.
 */
export class CreateSiteQuestions1763746400000 implements MigrationInterface {
  name = 'CreateSiteQuestions1763746400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "site_questions" (
        "id" varchar(32) NOT NULL,
        "site_id" varchar(32) NOT NULL,
        "question_key" varchar(600) NOT NULL,
        "question" varchar(512) NOT NULL,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "asked_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "PK_site_questions" PRIMARY KEY ("id"),
        CONSTRAINT "FK_site_questions_site_id" FOREIGN KEY ("site_id")
          REFERENCES "sites"("id") ON DELETE CASCADE
      )`);
    // One question per normalized text in a site: the lookup of each new ask.
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_site_questions_site_id_question_key" ON "site_questions" ("site_id", "question_key")`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_site_questions_site_id_created_at" ON "site_questions" ("site_id", "created_at", "id")`,
    );
    // The retention's deletion of questions no longer asked.
    await queryRunner.query(
      `CREATE INDEX "IDX_site_questions_asked_at" ON "site_questions" ("asked_at")`,
    );
    await queryRunner.query(`
      CREATE TABLE "site_question_answers" (
        "id" varchar(32) NOT NULL,
        "site_id" varchar(32) NOT NULL,
        "question_id" varchar(32) NOT NULL,
        "question" varchar(512) NOT NULL,
        "answer" text,
        "sources" jsonb NOT NULL,
        "answered" varchar(16) NOT NULL,
        "channel" varchar(16) NOT NULL,
        "visitor_id" varchar(256),
        "session_id" varchar(256),
        "response_id" varchar(128) NOT NULL,
        "rating" smallint,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "PK_site_question_answers" PRIMARY KEY ("id"),
        CONSTRAINT "FK_site_question_answers_site_id" FOREIGN KEY ("site_id")
          REFERENCES "sites"("id") ON DELETE CASCADE,
        CONSTRAINT "FK_site_question_answers_question_id" FOREIGN KEY ("question_id")
          REFERENCES "site_questions"("id") ON DELETE CASCADE
      )`);
    await queryRunner.query(
      `CREATE INDEX "IDX_site_question_answers_site_id_created_at" ON "site_question_answers" ("site_id", "created_at", "id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_site_question_answers_question_id_created_at" ON "site_question_answers" ("question_id", "created_at", "id")`,
    );
    // An agent's feedback names the answer by the response id it was given.
    await queryRunner.query(
      `CREATE INDEX "IDX_site_question_answers_site_id_response_id" ON "site_question_answers" ("site_id", "response_id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_site_question_answers_created_at" ON "site_question_answers" ("created_at")`,
    );
    await queryRunner.query(`
      CREATE TABLE "site_agent_feedback" (
        "id" varchar(32) NOT NULL,
        "site_id" varchar(32) NOT NULL,
        "answer_id" varchar(32),
        "subject" jsonb NOT NULL,
        "feedback" jsonb NOT NULL,
        "reported_by" jsonb,
        "source" varchar(16),
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "PK_site_agent_feedback" PRIMARY KEY ("id"),
        CONSTRAINT "FK_site_agent_feedback_site_id" FOREIGN KEY ("site_id")
          REFERENCES "sites"("id") ON DELETE CASCADE,
        CONSTRAINT "FK_site_agent_feedback_answer_id" FOREIGN KEY ("answer_id")
          REFERENCES "site_question_answers"("id") ON DELETE SET NULL
      )`);
    await queryRunner.query(
      `CREATE INDEX "IDX_site_agent_feedback_site_id_created_at" ON "site_agent_feedback" ("site_id", "created_at")`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_site_agent_feedback_answer_id" ON "site_agent_feedback" ("answer_id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_site_agent_feedback_created_at" ON "site_agent_feedback" ("created_at")`,
    );
    await queryRunner.query(`
      CREATE TABLE "site_agent_settings" (
        "site_id" varchar(32) NOT NULL,
        "settings" jsonb NOT NULL,
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "updated_by" varchar(32),
        CONSTRAINT "PK_site_agent_settings" PRIMARY KEY ("site_id"),
        CONSTRAINT "FK_site_agent_settings_site_id" FOREIGN KEY ("site_id")
          REFERENCES "sites"("id") ON DELETE CASCADE,
        CONSTRAINT "FK_site_agent_settings_updated_by" FOREIGN KEY ("updated_by")
          REFERENCES "users"("id") ON DELETE SET NULL
      )`);
    await queryRunner.query(
      `CREATE INDEX "IDX_site_agent_settings_updated_by" ON "site_agent_settings" ("updated_by")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "site_agent_settings"`);
    await queryRunner.query(`DROP TABLE "site_agent_feedback"`);
    await queryRunner.query(`DROP TABLE "site_question_answers"`);
    await queryRunner.query(`DROP TABLE "site_questions"`);
  }
}
