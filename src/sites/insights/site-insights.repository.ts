import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';

/** Events counted together: the same day, type, site space, page and rating ('' when none). */
export interface CounterIncrement {
  day: string;
  eventType: string;
  siteSpaceId: string;
  pageId: string;
  rating: string;
  count: number;
}

/** What an aggregation groups by. */
export type InsightsDimension =
  | { kind: 'datetime'; interval: 'day' | 'week' | 'month' }
  | { kind: 'dayOfWeek' }
  | { kind: 'eventType' }
  | { kind: 'siteSpace' }
  | { kind: 'page' };

/** What an aggregation keeps ('' stands for none: a null site space, a page of no site space). */
export type InsightsFilter = { negate: boolean } & (
  | { kind: 'eventType'; values: string[] }
  | { kind: 'siteSpace'; values: string[] }
  | { kind: 'page'; values: { spaceId: string; pageId: string }[] }
);

export type InsightsSortKey = { dimension: number } | { metric: 'eventsCount' };

export interface InsightsQuery {
  siteId: string;
  /** First and last UTC days, `YYYY-MM-DD`, both included. */
  fromDay: string;
  toDay: string;
  dimensions: InsightsDimension[];
  filters: InsightsFilter[];
  order: { key: InsightsSortKey; direction: 'asc' | 'desc' } | null;
  limit: number;
}

/** One group of an aggregation: its dimension values, then every sum the counters give. */
export interface InsightsRow {
  /** Per dimension: a day `YYYY-MM-DD`, a day of the week, a string, or `[spaceId, pageId]`. */
  dimensions: (string | number | [string, string])[];
  eventsCount: number;
  pageFeedback: { bad: number; ok: number; good: number };
  askRating: { positive: number; negative: number };
}

/** Expressions of each dimension: fixed SQL, never built from input. */
const DIMENSION_SQL: Record<InsightsDimension['kind'], (d: InsightsDimension) => string[]> = {
  datetime: (d) => {
    const interval = (d as { interval: string }).interval;
    if (interval === 'day') return [`to_char(c.day, 'YYYY-MM-DD')`];
    const unit = interval === 'week' ? `'week'` : `'month'`;
    return [`to_char(date_trunc(${unit}, c.day::timestamp), 'YYYY-MM-DD')`];
  },
  dayOfWeek: () => ['extract(isodow FROM c.day)::int'],
  eventType: () => ['c.event_type'],
  siteSpace: () => ['c.site_space_id'],
  page: () => ['c.space_id', 'c.page_id'],
};

const sumWhere = (condition: string) =>
  `coalesce(sum(c.count) FILTER (WHERE ${condition}), 0)::bigint`;

const METRICS_SQL = [
  `coalesce(sum(c.count), 0)::bigint AS events_count`,
  ...(['bad', 'ok', 'good'] as const).map(
    (rating) =>
      `${sumWhere(`c.event_type = 'page_post_feedback' AND c.rating = '${rating}'`)} AS feedback_${rating}`,
  ),
  ...(['positive', 'negative'] as const).map(
    (rating) =>
      `${sumWhere(`c.event_type = 'ask_rate_response' AND c.rating = '${rating}'`)} AS ask_${rating}`,
  ),
].join(',\n              ');

/**
 * The `site_insights_counters` table: per site, day, event type, site space (with its space),
 * page and rating, how many events came. Nothing else of an event is ever written.
 */
@Injectable()
export class SiteInsightsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Adds the increments to the counters of the organization's site if it is published, in one
   * statement; false when there is no such published site (nothing is counted). It reads
   * `sites` and `site_spaces` (this module's) so that an event counts for a site space only if
   * that site space is the site's, and takes the space from it; the page of an unknown site
   * space is dropped with it. Rows go in key order, so that concurrent batches do not deadlock.
   */
  async increment(
    organizationId: string,
    siteId: string,
    increments: CounterIncrement[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<boolean> {
    const rows: { found: boolean }[] = await manager.query(
      `WITH site AS (
         SELECT id FROM sites WHERE organization_id = $1 AND id = $2 AND published
       ), counted AS (
         INSERT INTO site_insights_counters AS c
           (site_id, day, event_type, site_space_id, space_id, page_id, rating, count)
         SELECT site.id, e.day, e.event_type, coalesce(ss.id, ''), coalesce(ss.space_id, ''),
                CASE WHEN ss.id IS NULL THEN '' ELSE e.page_id END, e.rating, sum(e.count)
           FROM site
          CROSS JOIN unnest($3::date[], $4::varchar[], $5::varchar[], $6::varchar[],
                            $7::varchar[], $8::int[])
                  AS e(day, event_type, site_space_id, page_id, rating, count)
           LEFT JOIN site_spaces ss ON ss.site_id = site.id AND ss.id = e.site_space_id
          GROUP BY 1, 2, 3, 4, 5, 6, 7
          ORDER BY 1, 2, 3, 4, 5, 6, 7
         ON CONFLICT (site_id, day, event_type, site_space_id, space_id, page_id, rating)
         DO UPDATE SET count = c.count + EXCLUDED.count
       )
       SELECT EXISTS (SELECT 1 FROM site) AS found`,
      [
        organizationId,
        siteId,
        increments.map((i) => i.day),
        increments.map((i) => i.eventType),
        increments.map((i) => i.siteSpaceId),
        increments.map((i) => i.pageId),
        increments.map((i) => i.rating),
        increments.map((i) => i.count),
      ],
    );
    return rows[0]?.found === true;
  }

  /** The sums of the site's counters over the days, grouped, filtered, ordered and limited. */
  async aggregate(
    query: InsightsQuery,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<InsightsRow[]> {
    const params: unknown[] = [query.siteId, query.fromDay, query.toDay];
    const param = (value: unknown) => {
      params.push(value);
      return `$${params.length}`;
    };

    const perDimension = query.dimensions.map((d) => DIMENSION_SQL[d.kind](d));
    const dimensionSql = perDimension.flat();
    const aliases = dimensionSql.map((_, i) => `d${i}`);

    const conditions = query.filters.map((filter) => {
      let test: string;
      if (filter.kind === 'page') {
        test = `(c.space_id, c.page_id) IN (SELECT * FROM unnest(${param(
          filter.values.map((v) => v.spaceId),
        )}::varchar[], ${param(filter.values.map((v) => v.pageId))}::varchar[]))`;
      } else {
        const column = filter.kind === 'eventType' ? 'c.event_type' : 'c.site_space_id';
        test = `${column} = ANY(${param(filter.values)}::varchar[])`;
      }
      return filter.negate ? `NOT (${test})` : test;
    });

    // The columns of dimension i among the aliases (a page has two).
    const columnsOf = (index: number) => {
      const start = perDimension.slice(0, index).reduce((n, cols) => n + cols.length, 0);
      return aliases.slice(start, start + perDimension[index].length);
    };
    const orderBy: string[] = [];
    if (query.order) {
      const direction = query.order.direction === 'desc' ? 'DESC' : 'ASC';
      const key = query.order.key;
      const columns = 'metric' in key ? ['events_count'] : columnsOf(key.dimension);
      orderBy.push(...columns.map((column) => `${column} ${direction}`));
    }
    orderBy.push(...aliases);

    const sql = `
      SELECT ${[...dimensionSql.map((expr, i) => `${expr} AS ${aliases[i]}`), METRICS_SQL].join(',\n              ')}
        FROM site_insights_counters c
       WHERE c.site_id = $1 AND c.day BETWEEN $2::date AND $3::date
             ${conditions.map((condition) => `AND ${condition}`).join('\n             ')}
       ${aliases.length > 0 ? `GROUP BY ${aliases.join(', ')}` : ''}
       ${orderBy.length > 0 ? `ORDER BY ${orderBy.join(', ')}` : ''}
       LIMIT ${param(query.limit)}`;
    const rows: Record<string, string | number>[] = await manager.query(sql, params);

    return rows.map((row) => ({
      dimensions: query.dimensions.map((_, i) => {
        const [first, second] = columnsOf(i).map((alias) => row[alias]);
        return second === undefined ? first : [String(first), String(second)];
      }),
      eventsCount: Number(row.events_count),
      pageFeedback: {
        bad: Number(row.feedback_bad),
        ok: Number(row.feedback_ok),
        good: Number(row.feedback_good),
      },
      askRating: { positive: Number(row.ask_positive), negative: Number(row.ask_negative) },
    }));
  }
}
