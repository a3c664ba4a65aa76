import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';

/** An event as its dispatcher reads it. */
export interface UndispatchedEvent {
  id: string;
  sequence: string;
  organizationId: string;
  type: string;
  resourceKey: string;
  spaceId: string | null;
  siteId: string | null;
  createdAt: Date;
}

/** The `events` table, for the module that dispatches them (webhooks) and their retention. */
@Injectable()
export class OutboxEventsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Takes the oldest `limit` events not yet dispatched, in `sequence` order: marks them
   * dispatched at `at` in the caller's transaction (which holds them until it ends) and answers
   * them. Rows another dispatcher holds are skipped.
   */
  async takeUndispatched(
    limit: number,
    at: Date,
    manager: EntityManager,
  ): Promise<UndispatchedEvent[]> {
    const rows: {
      id: string;
      sequence: string;
      organization_id: string;
      type: string;
      resource_key: string;
      space_id: string | null;
      site_id: string | null;
      created_at: Date;
    }[] = await manager.query(
      `WITH taken AS (
         SELECT id FROM events
          WHERE dispatched_at IS NULL
          ORDER BY sequence
          LIMIT $1
            FOR UPDATE SKIP LOCKED),
       marked AS (
         UPDATE events e SET dispatched_at = $2
           FROM taken WHERE e.id = taken.id
         RETURNING e.id, e.sequence, e.organization_id, e.type, e.resource_key, e.space_id,
                   e.site_id, e.created_at)
       SELECT * FROM marked ORDER BY sequence`,
      [limit, at],
    );
    return rows.map((row) => ({
      id: row.id,
      sequence: String(row.sequence),
      organizationId: row.organization_id,
      type: row.type,
      resourceKey: row.resource_key,
      spaceId: row.space_id,
      siteId: row.site_id,
      createdAt: new Date(row.created_at),
    }));
  }

  /** Whether any event waits for dispatch. */
  async anyUndispatched(manager: EntityManager = this.dataSource.manager): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `SELECT 1 FROM events WHERE dispatched_at IS NULL LIMIT 1`,
    );
    return rows.length > 0;
  }

  /**
   * Removes the dispatched events written before `cutoff`. Tables that refer to events (webhook
   * deliveries) do so with ON DELETE CASCADE, so what was made of them goes too.
   */
  async purgeDispatchedBefore(
    cutoff: Date,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<number> {
    const rows: { count: string }[] = await manager.query(
      `WITH gone AS (DELETE FROM events
                      WHERE created_at < $1 AND dispatched_at IS NOT NULL RETURNING 1)
       SELECT count(*) AS count FROM gone`,
      [cutoff],
    );
    return Number(rows[0]?.count ?? 0);
  }
}
