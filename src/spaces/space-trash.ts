import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { JobsService } from '../platform/jobs/jobs.service';
import { SpaceLifecycle } from './space-lifecycle.service';

/** The queue of the daily purge of spaces deleted more than seven days ago. */
export const PURGE_SPACES_QUEUE = 'spaces-purge';

/** Every day at 03:17 UTC (off the hour, away from other jobs' usual minute). */
export const PURGE_SPACES_CRON = '17 3 * * *';

/** Schedules the purge of the trash: spaces deleted more than seven days ago go for good. */
@Injectable()
export class SpaceTrash implements OnModuleInit {
  private readonly logger = new Logger('SpaceTrash');

  constructor(
    private readonly jobs: JobsService,
    private readonly spaces: SpaceLifecycle,
  ) {}

  onModuleInit(): void {
    this.jobs.define(
      PURGE_SPACES_QUEUE,
      async () => {
        const purged = await this.spaces.purge();
        if (purged > 0) this.logger.log({ purged }, 'Purged deleted spaces');
      },
      { policy: 'singleton' },
    );
    this.jobs.schedule(PURGE_SPACES_QUEUE, PURGE_SPACES_CRON);
  }
}
