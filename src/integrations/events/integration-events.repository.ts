import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { paginate } from '../../platform/pagination/keyset';
import type { Page } from '../../platform/pagination/page';
import type { PageQueryDto } from '../../platform/pagination/page-query.dto';
import type { ScriptLogLine } from '../runtime/trace-collector';
import { IntegrationEvent } from './integration-event.entity';

/** The `integration_events` table: the events sent to integrations' scripts. */
@Injectable()
export class IntegrationEventsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async insert(event: IntegrationEvent): Promise<void> {
    await this.dataSource.manager.insert(
      IntegrationEvent,
      event as QueryDeepPartialEntity<IntegrationEvent>,
    );
  }

  /** Adds what the script logged to its event (nothing when the event is not recorded). */
  async appendLogs(id: string, logs: ScriptLogLine[]): Promise<void> {
    await this.dataSource
      .createQueryBuilder()
      .update(IntegrationEvent)
      .set({ logs: () => 'logs || :logs::jsonb' })
      .setParameter('logs', JSON.stringify(logs))
      .where('id = :id', { id })
      .execute();
  }

  /** The integration's events, newest first. */
  page(integrationId: string, query: PageQueryDto): Promise<Page<IntegrationEvent>> {
    const builder = this.dataSource.manager
      .getRepository(IntegrationEvent)
      .createQueryBuilder('event')
      .where('event.integration_id = :integrationId', { integrationId });
    return paginate(builder, query, {
      keys: [
        { sql: 'event.created_at', of: (event) => event.createdAt },
        { sql: 'event.id', of: (event) => event.id },
      ],
      direction: 'DESC',
    });
  }

  findOfIntegration(integrationId: string, id: string): Promise<IntegrationEvent | null> {
    return this.dataSource.manager.findOneBy(IntegrationEvent, { id, integrationId });
  }
}
