import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { countRows, paginate } from '../platform/pagination/keyset';
import type { Page } from '../platform/pagination/page';
import { AuditEvent } from './entities/audit-event.entity';

/** What a list of an organization's events is narrowed to. */
export interface AuditEventFilter {
  from?: Date;
  to?: Date;
  action?: string;
  actor?: string;
  target?: string;
}

/** Rows one retention statement deletes, so that no statement holds its locks long. */
const PURGE_BATCH = 5000;

/** The `audit_events` table: one row per successful write through the API. */
@Injectable()
export class AuditEventsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async insert(event: AuditEvent, manager: EntityManager = this.dataSource.manager): Promise<void> {
    // `changes` is free-form JSON, which TypeORM's deep-partial type cannot follow.
    await manager.getRepository(AuditEvent).insert(event as QueryDeepPartialEntity<AuditEvent>);
  }

  /**
   * A page of the organization's events, newest first. Each filter is an equality on a column
   * that leads an index after `organization_id`, followed by `(occurred_at, id)`, so the keyset
   * and the time range are served by the same index.
   */
  page(
    organizationId: string,
    filter: AuditEventFilter,
    request: { page?: string; limit?: number },
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Page<AuditEvent>> {
    const query = manager
      .getRepository(AuditEvent)
      .createQueryBuilder('event')
      .where('event.organization_id = :organizationId', { organizationId });
    if (filter.action !== undefined) {
      query.andWhere('event.action = :action', { action: filter.action });
    }
    if (filter.actor !== undefined) {
      query.andWhere('event.actor_id = :actor', { actor: filter.actor });
    }
    if (filter.target !== undefined) {
      query.andWhere('event.target_id = :target', { target: filter.target });
    }
    if (filter.from !== undefined) {
      query.andWhere('event.occurred_at >= :from', { from: filter.from });
    }
    if (filter.to !== undefined) {
      query.andWhere('event.occurred_at <= :to', { to: filter.to });
    }
    return paginate(query, request, {
      keys: [
        { sql: 'event.occurred_at', of: (event) => event.occurredAt },
        { sql: 'event.id', of: (event) => event.id },
      ],
      direction: 'DESC',
      count: () => countRows(query),
    });
  }

  /** The organization's event; null if none (or another organization's). */
  find(
    organizationId: string,
    id: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<AuditEvent | null> {
    return manager.getRepository(AuditEvent).findOneBy({ organizationId, id });
  }

  /** Deletes the events that occurred before `before`, in batches; returns how many. */
  async deleteBefore(
    before: Date,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<number> {
    let deleted = 0;
    for (;;) {
      const result = await manager
        .createQueryBuilder()
        .delete()
        .from(AuditEvent)
        .where(
          `id IN (SELECT id FROM audit_events WHERE occurred_at < :before ORDER BY occurred_at LIMIT ${PURGE_BATCH})`,
          { before },
        )
        .execute();
      const count = result.affected ?? 0;
      deleted += count;
      if (count < PURGE_BATCH) return deleted;
    }
  }
}
