import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { countRows, paginate, type PageRequest } from '../pagination/keyset';
import type { Page } from '../pagination/page';

/** pg-boss's schema (JobsService starts pg-boss with it). */
const SCHEMA = 'pgboss';

/** The states of a pg-boss job, in its order. */
export const JOB_STATES = [
  'created',
  'retry',
  'active',
  'completed',
  'cancelled',
  'failed',
] as const;
export type JobState = (typeof JOB_STATES)[number];

/** A queue pg-boss knows, with its live jobs by state. */
export interface QueueRow {
  name: string;
  policy: string;
  counts: Record<JobState, number>;
}

/** A job as the admin API reads it: never its data, which may carry sealed secrets. */
export interface JobRow {
  id: string;
  name: string;
  state: JobState;
  retryCount: number;
  retryLimit: number;
  createdOn: Date;
  startedOn: Date | null;
  /** When it failed for good, to the millisecond (the list's sort key). */
  completedOn: Date | null;
  output: unknown;
}

const JOB_COLUMNS = [
  'j.id AS id',
  'j.name AS name',
  'j.state::text AS state',
  'j.retry_count AS "retryCount"',
  'j.retry_limit AS "retryLimit"',
  'j.created_on AS "createdOn"',
  'j.started_on AS "startedOn"',
  `date_trunc('milliseconds', j.completed_on) AS "completedOn"`,
  'j.output AS output',
];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Reads of pg-boss's tables for the instance administrator, on the application's connection (the
 * same database). Only live jobs: pg-boss moves finished ones to its archive after 12 hours.
 */
@Injectable()
export class JobsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Every queue, by name, with its jobs counted by state in one grouped scan. */
  async queues(): Promise<QueueRow[]> {
    const rows: ({ name: string; policy: string | null } & Record<JobState, number>)[] =
      await this.dataSource.query(
        `SELECT q.name, q.policy,
                ${JOB_STATES.map(
                  (state) => `count(j.id) FILTER (WHERE j.state = '${state}')::int AS "${state}"`,
                ).join(',\n                ')}
           FROM ${SCHEMA}.queue q
           LEFT JOIN ${SCHEMA}.job j ON j.name = q.name
          GROUP BY q.name, q.policy
          ORDER BY q.name`,
      );
    return rows.map((row) => ({
      name: row.name,
      policy: row.policy ?? 'standard',
      counts: Object.fromEntries(JOB_STATES.map((state) => [state, row[state]])) as Record<
        JobState,
        number
      >,
    }));
  }

  /** A page of the jobs failed for good, newest failure first; of one queue when given. */
  failed(request: PageRequest, queue?: string): Promise<Page<JobRow>> {
    const query = this.dataSource
      .createQueryBuilder()
      .select(JOB_COLUMNS)
      .from(`${SCHEMA}.job`, 'j')
      .where(`j.state = 'failed'`);
    if (queue !== undefined) query.andWhere('j.name = :queue', { queue });
    return paginate<object, JobRow>(query, request, {
      keys: [
        // pg-boss writes microseconds; the cursor keeps milliseconds, so the key is truncated.
        { sql: `date_trunc('milliseconds', j.completed_on)`, of: (job) => job.completedOn },
        { sql: 'j.id', of: (job) => job.id },
      ],
      direction: 'DESC',
      fetch: (rows) => rows.getRawMany<JobRow>(),
      count: () => countRows(query),
    });
  }

  /** The live job with this id, whatever its queue; null when none (or not a job id). */
  async find(id: string): Promise<JobRow | null> {
    if (!UUID.test(id)) return null;
    const rows: JobRow[] = await this.dataSource.query(
      `SELECT ${JOB_COLUMNS.join(', ')} FROM ${SCHEMA}.job j WHERE j.id = $1`,
      [id],
    );
    return rows[0] ?? null;
  }
}
