import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { paginate } from '../platform/pagination/keyset';
import type { Page } from '../platform/pagination/page';
import type { PageQueryDto } from '../platform/pagination/page-query.dto';
import { Webhook } from './entities/webhook.entity';

/** The `webhooks` table: endpoints, their sealed secrets and their failure state. */
@Injectable()
export class WebhooksRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async insert(webhook: Webhook, manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.insert(Webhook, webhook as QueryDeepPartialEntity<Webhook>);
  }

  /** The organization's webhooks, oldest first. */
  page(organizationId: string, query: PageQueryDto): Promise<Page<Webhook>> {
    const builder = this.dataSource.manager
      .getRepository(Webhook)
      .createQueryBuilder('webhook')
      .where('webhook.organization_id = :organizationId', { organizationId });
    return paginate(builder, query, {
      keys: [
        { sql: 'webhook.created_at', of: (webhook) => webhook.createdAt },
        { sql: 'webhook.id', of: (webhook) => webhook.id },
      ],
      direction: 'ASC',
    });
  }

  /** The webhook, if it is the organization's; with `lock`, locked for the transaction. */
  findInOrganization(
    organizationId: string,
    id: string,
    manager: EntityManager = this.dataSource.manager,
    lock = false,
  ): Promise<Webhook | null> {
    const query = manager
      .getRepository(Webhook)
      .createQueryBuilder('webhook')
      .where('webhook.id = :id AND webhook.organization_id = :organizationId', {
        id,
        organizationId,
      });
    if (lock) query.setLock('pessimistic_write');
    return query.getOne();
  }

  /** The active webhooks of these organizations. */
  activeIn(organizationIds: string[], manager: EntityManager): Promise<Webhook[]> {
    if (organizationIds.length === 0) return Promise.resolve([]);
    return manager
      .getRepository(Webhook)
      .createQueryBuilder('webhook')
      .where('webhook.organization_id = ANY(:organizationIds) AND webhook.active', {
        organizationIds,
      })
      .orderBy('webhook.id')
      .getMany();
  }

  async update(
    id: string,
    changes: QueryDeepPartialEntity<Webhook>,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.update(Webhook, { id }, changes);
  }

  async delete(
    organizationId: string,
    id: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<boolean> {
    const result = await manager.delete(Webhook, { id, organizationId });
    return (result.affected ?? 0) > 0;
  }

  /** A successful attempt: the failure state starts again. */
  async recordSuccess(id: string, manager: EntityManager): Promise<void> {
    await manager.query(
      `UPDATE webhooks SET consecutive_failures = 0, failing_since = NULL
        WHERE id = $1 AND (consecutive_failures <> 0 OR failing_since IS NOT NULL)`,
      [id],
    );
  }

  /** A failed attempt at `at`: the failure state after it. */
  async recordFailure(
    id: string,
    at: Date,
    manager: EntityManager,
  ): Promise<{ consecutiveFailures: number; failingSince: Date } | null> {
    const rows: { consecutive_failures: number; failing_since: Date }[] = await manager.query(
      `WITH failed AS (
         UPDATE webhooks
            SET consecutive_failures = consecutive_failures + 1,
                failing_since = COALESCE(failing_since, $2)
          WHERE id = $1
        RETURNING consecutive_failures, failing_since)
       SELECT consecutive_failures, failing_since FROM failed`,
      [id, at],
    );
    const row = rows[0];
    return row
      ? { consecutiveFailures: row.consecutive_failures, failingSince: new Date(row.failing_since) }
      : null;
  }

  /** Lets one dispatcher at a time work, so that deliveries are created in event order. */
  async lockDispatch(manager: EntityManager): Promise<void> {
    await manager.query(`SELECT pg_advisory_xact_lock(hashtext('bindery:webhooks-dispatch'))`);
  }
}
