import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Clock } from '../platform/clock/clock';
import { AppConfig } from '../platform/config/app-config';
import { sqlStateOf } from '../platform/database/conflict-retry';
import { isDatabaseUnavailable } from '../platform/database/connection-faults';
import { pauseBeforeRetry } from '../platform/database/resilient-query-runner';
import { invalidInput, notFound } from '../platform/errors/domain-error';
import type { Page } from '../platform/pagination/page';
import { AuditEventsRepository } from './audit-events.repository';
import type { ListAuditEventsQueryDto } from './dto/audit-event-queries.dto';
import { AuditEvent } from './entities/audit-event.entity';

/** An event as the recorder describes it; its id and time are given here. */
export type NewAuditEvent = Omit<AuditEvent, 'id' | 'occurredAt'>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DAY_MS = 86_400_000;
const UNIQUE_VIOLATION = '23505';
/** Attempts at an audit event's INSERT whose connection fails, the first included. */
const RECORD_ATTEMPTS = 3;

/** Records audit events, reads an organization's, and forgets them after the retention. */
@Injectable()
export class AuditEventsService {
  constructor(
    private readonly events: AuditEventsRepository,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  /**
   * Records `event` outside the write's transaction (see AuditInterceptor). When the connection
   * fails under the INSERT, it runs again, up to RECORD_ATTEMPTS times, with the same id: had an
   * earlier one landed, the next fails as a duplicate of it, so the event is recorded once
   * whatever happened.
   */
  async record(event: NewAuditEvent): Promise<void> {
    const row = { ...event, id: randomUUID(), occurredAt: this.clock.now() };
    for (let attempt = 1; ; attempt++) {
      try {
        await this.events.insert(row);
        return;
      } catch (error) {
        if (attempt > 1 && sqlStateOf(error) === UNIQUE_VIOLATION) return;
        if (attempt >= RECORD_ATTEMPTS || !isDatabaseUnavailable(error)) throw error;
        await pauseBeforeRetry();
      }
    }
  }

  list(organizationId: string, query: ListAuditEventsQueryDto): Promise<Page<AuditEvent>> {
    const from = query.from !== undefined ? new Date(query.from) : undefined;
    const to = query.to !== undefined ? new Date(query.to) : undefined;
    if (from && to && from > to) throw invalidInput('from must not be after to.');
    return this.events.page(
      organizationId,
      { from, to, action: query.action, actor: query.actor, target: query.target },
      query,
    );
  }

  async get(organizationId: string, id: string): Promise<AuditEvent> {
    const event = UUID.test(id) ? await this.events.find(organizationId, id) : null;
    if (!event) throw notFound('Audit event');
    return event;
  }

  /** Deletes the events older than AUDIT_RETENTION_DAYS; returns how many. */
  purgeExpired(): Promise<number> {
    const before = new Date(this.clock.now().getTime() - this.config.AUDIT_RETENTION_DAYS * DAY_MS);
    return this.events.deleteBefore(before);
  }
}
