import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { JobsService } from '../../platform/jobs/jobs.service';
import { SiteQuestionsService } from './site-questions.service';

/** The queue of the daily deletion of questions, answers and feedback past their retention. */
export const PURGE_SITE_QUESTIONS_QUEUE = 'site-questions-purge';

/** Every day at 03:53 UTC (away from the other daily jobs). */
export const PURGE_SITE_QUESTIONS_CRON = '53 3 * * *';

/** Schedules the retention of what visitors asked (AI_QUESTIONS_RETENTION_DAYS). */
@Injectable()
export class SiteQuestionsRetention implements OnModuleInit {
  private readonly logger = new Logger('SiteQuestionsRetention');

  constructor(
    private readonly jobs: JobsService,
    private readonly questions: SiteQuestionsService,
  ) {}

  onModuleInit(): void {
    this.jobs.define(
      PURGE_SITE_QUESTIONS_QUEUE,
      async () => {
        const deleted = await this.questions.purgeExpired();
        if (deleted > 0) this.logger.log({ deleted }, 'Deleted expired site questions');
      },
      { policy: 'singleton' },
    );
    this.jobs.schedule(PURGE_SITE_QUESTIONS_QUEUE, PURGE_SITE_QUESTIONS_CRON);
  }
}
