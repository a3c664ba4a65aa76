import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What an integration's script logged while it handled an event (its `console` calls and
 * uncaught exceptions, as workerd's tail reports them): shown in the event's trace.
 */
export class AddIntegrationEventLogs1763747200000 implements MigrationInterface {
  name = 'AddIntegrationEventLogs1763747200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "integration_events" ADD COLUMN "logs" jsonb NOT NULL DEFAULT '[]'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "integration_events" DROP COLUMN "logs"`);
  }
}
