import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { JobsService } from '../../platform/jobs/jobs.service';
import { ContentGarbageCollector } from './content-garbage-collector';

/** The queue of the daily garbage collection of content objects and file blobs. */
export const CONTENT_GC_QUEUE = 'content-gc';

/** Every day at 04:43 UTC: after the purge of the trash (03:17), never at the same minute. */
export const CONTENT_GC_CRON = '43 4 * * *';

/** Schedules the garbage collection of the content that purged spaces left behind. */
@Injectable()
export class ContentGcSchedule implements OnModuleInit {
  private readonly logger = new Logger('ContentGcSchedule');

  constructor(
    private readonly jobs: JobsService,
    private readonly collector: ContentGarbageCollector,
  ) {}

  onModuleInit(): void {
    this.jobs.define(
      CONTENT_GC_QUEUE,
      async () => {
        const result = await this.collector.collect();
        if (result.swept > 0) this.logger.log(result, 'Collected unreachable content');
      },
      { policy: 'singleton' },
    );
    this.jobs.schedule(CONTENT_GC_QUEUE, CONTENT_GC_CRON);
  }
}
