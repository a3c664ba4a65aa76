import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { invalidInput } from '../../platform/errors/domain-error';
import { JobsService } from '../../platform/jobs/jobs.service';
import type { Integration } from '../entities/integration.entity';
import { IntegrationsRepository } from '../integrations.repository';
import { IntegrationDispatcher } from './integration-dispatcher';

export const TASKS_QUEUE = 'integration-tasks';
/** How large a task's payload may be, as JSON (it waits in the queue until it runs). */
export const MAX_TASK_BYTES = 64 * 1024;

interface TaskJob {
  integrationId: string;
  task: Record<string, unknown>;
}

/**
 * GitBook's integration tasks (`queueIntegrationTask`): work an integration's script gives
 * itself for later, sent back to it as a `task` event when due (after `schedule` seconds). The
 * job waits in the database's queue, so a restart loses none; the event is recorded as any
 * other, and a task the script fails is not retried (the script queues another if it wants).
 * A task of an integration unpublished meanwhile is dropped.
 */
@Injectable()
export class IntegrationTasks implements OnModuleInit {
  private readonly logger = new Logger(IntegrationTasks.name);

  constructor(
    private readonly jobs: JobsService,
    private readonly integrations: IntegrationsRepository,
    private readonly dispatcher: IntegrationDispatcher,
  ) {}

  onModuleInit(): void {
    this.jobs.define<TaskJob>(TASKS_QUEUE, (job) => this.run(job), { concurrency: 4 });
  }

  /** Queues `task` for `integration`'s script, due in `scheduleSeconds`; 400 when too large. */
  async queue(
    integration: Integration,
    task: Record<string, unknown>,
    scheduleSeconds = 0,
  ): Promise<void> {
    if (Buffer.byteLength(JSON.stringify(task)) > MAX_TASK_BYTES) {
      throw invalidInput(`task must be at most ${MAX_TASK_BYTES / 1024} KB as JSON.`);
    }
    await this.jobs.send<TaskJob>(
      TASKS_QUEUE,
      { integrationId: integration.id, task },
      { startAfter: Math.round(scheduleSeconds), retryLimit: 0 },
    );
  }

  private async run({ integrationId, task }: TaskJob): Promise<void> {
    const integration = await this.integrations.findById(integrationId);
    if (!integration) {
      this.logger.log(`task of unpublished integration ${integrationId} dropped`);
      return;
    }
    await this.dispatcher.dispatch(integration, { type: 'task', task });
  }
}
