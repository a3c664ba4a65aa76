import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { JobsService } from '../platform/jobs/jobs.service';
import { AuditEventsService } from './audit-events.service';

/** The queue of the daily deletion of audit events older than AUDIT_RETENTION_DAYS. */
export const PURGE_AUDIT_EVENTS_QUEUE = 'audit-events-purge';

/** Every day at 03:41 UTC (away from the other daily jobs). */
export const PURGE_AUDIT_EVENTS_CRON = '41 3 * * *';

/** Schedules the retention of the audit log. */
@Injectable()
export class AuditRetention implements OnModuleInit {
  private readonly logger = new Logger('AuditRetention');

  constructor(
    private readonly jobs: JobsService,
    private readonly events: AuditEventsService,
  ) {}

  onModuleInit(): void {
    this.jobs.define(
      PURGE_AUDIT_EVENTS_QUEUE,
      async () => {
        const deleted = await this.events.purgeExpired();
        if (deleted > 0) this.logger.log({ deleted }, 'Deleted expired audit events');
      },
      { policy: 'singleton' },
    );
    this.jobs.schedule(PURGE_AUDIT_EVENTS_QUEUE, PURGE_AUDIT_EVENTS_CRON);
  }
}
