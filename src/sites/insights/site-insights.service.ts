import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../../platform/clock/clock';
import { EventOutbox } from '../../platform/events/event-outbox';
import { invalidInput } from '../../platform/errors/domain-error';
import { Site } from '../entities/site.entity';
import { siteNotFound } from '../sites.service';
import {
  AggregateSiteEventsDto,
  RangeCustom,
  RangePreset,
  SiteInsightsAggregationResponse,
  SiteInsightsColumnDto,
  SiteInsightsColumnValuesResponse,
  SiteInsightsFilterDto,
} from './aggregate-events.dto';
import {
  CounterIncrement,
  InsightsDimension,
  InsightsFilter,
  InsightsRow,
  InsightsSortKey,
  SiteInsightsRepository,
} from './site-insights.repository';
import {
  SITE_INSIGHTS_EVENT_TYPES,
  SiteInsightsAskRateEventDto,
  SiteInsightsEvent,
  SiteInsightsEventDto,
  SiteInsightsPageFeedbackEventDto,
} from './track-events.dto';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Events from further back are not counted: the renderer sends them within minutes. */
const MAX_EVENT_AGE_MS = DAY;
/** Clocks disagree a little; an event further in the future than this is not counted. */
const MAX_CLOCK_SKEW_MS = 5 * 60_000;

const KNOWN_TYPES = new Set<string>(SITE_INSIGHTS_EVENT_TYPES);

type DimensionName = 'datetime' | 'dayOfWeek' | 'eventType' | 'siteSpace' | 'page';
type MetricName = 'eventsCount' | 'pageFeedbackRating' | 'askResponseRating';
const DIMENSIONS = new Set<string>(['datetime', 'dayOfWeek', 'eventType', 'siteSpace', 'page']);
const METRICS = new Set<string>(['eventsCount', 'pageFeedbackRating', 'askResponseRating']);
const FILTERABLE = new Set<string>(['eventType', 'siteSpace', 'page']);

/** A column of the answer: a dimension (by its index in the grouping) or a metric. */
type OutputColumn =
  { name: DimensionName; dimension: number } | { name: MetricName; metric: MetricName };

const day = (date: Date) => date.toISOString().slice(0, 10);

/**
 * Site insights, kept minimal and private: events become daily counters per event type, site
 * space, page and feedback rating, and nothing else of them is stored; aggregations answer
 * what those counters can.
 */
/** A recorded answer rated with the renderer's thumbs up or down (`ask_rate_response`). */
export interface AnswerRating {
  responseId: string;
  rating: 1 | -1;
}

/** Told the answer ratings of a site's events, in the transaction that counts them. */
export type AnswerRatingListener = (
  manager: EntityManager,
  siteId: string,
  ratings: AnswerRating[],
) => Promise<void>;

@Injectable()
export class SiteInsightsService {
  private readonly ratingListeners: AnswerRatingListener[] = [];

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly repository: SiteInsightsRepository,
    private readonly clock: Clock,
    private readonly outbox: EventOutbox,
  ) {}

  /** Tells `listener` the answer ratings events carry (the site's questions keep them). */
  onAnswerRated(listener: AnswerRatingListener): void {
    this.ratingListeners.push(listener);
  }

  /**
   * Counts the events for the organization's published site (404 `Site` otherwise), in one
   * statement. Events of unknown types, over a day old or from the future are not counted.
   * An `ask_rate_response` naming a response also rates that recorded answer (onAnswerRated).
   */
  async track(organizationId: string, siteId: string, events: SiteInsightsEvent[]): Promise<void> {
    const now = this.clock.now().getTime();
    const counts = new Map<string, CounterIncrement>();
    const feedback: Record<string, unknown>[] = [];
    const ratings: AnswerRating[] = [];
    for (const event of events) {
      if (!KNOWN_TYPES.has(event.type)) continue;
      const known = event as SiteInsightsEventDto;
      const at = known.timestamp === undefined ? now : Date.parse(known.timestamp);
      if (Number.isNaN(at) || at < now - MAX_EVENT_AGE_MS || at > now + MAX_CLOCK_SKEW_MS) {
        continue;
      }
      const siteSpaceId = known.location.siteSpace ?? '';
      const increment: CounterIncrement = {
        day: day(new Date(at)),
        eventType: known.type,
        siteSpaceId,
        pageId: siteSpaceId ? (known.location.page ?? '') : '',
        rating: ratingOf(known),
        count: 1,
      };
      const key = JSON.stringify([
        increment.day,
        increment.eventType,
        increment.siteSpaceId,
        increment.pageId,
        increment.rating,
      ]);
      const existing = counts.get(key);
      if (existing) existing.count++;
      else counts.set(key, increment);
      if (known instanceof SiteInsightsAskRateEventDto && known.responseId) {
        ratings.push({ responseId: known.responseId, rating: known.rating });
      }
      if (known instanceof SiteInsightsPageFeedbackEventDto) {
        feedback.push({
          siteId,
          ...(increment.siteSpaceId ? { siteSpaceId: increment.siteSpaceId } : {}),
          ...(increment.pageId ? { pageId: increment.pageId } : {}),
          feedback: { rating: increment.rating },
        });
      }
    }
    const increments = [...counts.values()];
    if (feedback.length === 0 && ratings.length === 0) {
      if (!(await this.repository.increment(organizationId, siteId, increments))) {
        throw siteNotFound();
      }
      return;
    }
    // GitBook's `page_feedback`, with what Bindery keeps of it (no comment, URL or visitor).
    await this.dataSource.transaction(async (manager) => {
      if (!(await this.repository.increment(organizationId, siteId, increments, manager))) {
        throw siteNotFound();
      }
      if (ratings.length > 0) {
        for (const listener of this.ratingListeners) await listener(manager, siteId, ratings);
      }
      if (feedback.length === 0) return;
      await this.outbox.record(
        manager,
        ...feedback.map((fields) => ({
          type: 'page_feedback',
          organizationId,
          resource: { type: 'site', id: siteId },
          siteId,
          actor: { kind: 'system' as const },
          fields,
        })),
      );
    });
  }

  /** GitBook's aggregation, over the daily counters; what they cannot answer is a 400. */
  async aggregate(
    site: Site,
    input: AggregateSiteEventsDto,
  ): Promise<SiteInsightsAggregationResponse> {
    const dimensions: InsightsDimension[] = [];
    const output: OutputColumn[] = [];
    const groupBy = input.groupBy ?? [];
    const select = input.select ?? [{ column: 'eventsCount' } as SiteInsightsColumnDto];

    for (const column of groupBy) {
      if (!DIMENSIONS.has(column.column)) throw unsupported(column.column, 'grouped by');
      if (output.some((c) => c.name === column.column)) {
        throw invalidInput(`groupBy names ${column.column} twice.`);
      }
      dimensions.push(dimensionOf(column));
      output.push({ name: column.column as DimensionName, dimension: dimensions.length - 1 });
    }
    // The answer: the grouping columns select does not name, then select's, in its order.
    const selected: OutputColumn[] = [];
    for (const column of select) {
      if (METRICS.has(column.column)) {
        if (selected.some((c) => c.name === column.column)) continue;
        selected.push({ name: column.column as MetricName, metric: column.column as MetricName });
      } else if (DIMENSIONS.has(column.column)) {
        const grouped = output.find((c) => c.name === column.column);
        if (!grouped) {
          throw invalidInput(`select names ${column.column}, which groupBy does not.`);
        }
        if (!selected.includes(grouped)) selected.push(grouped);
      } else {
        throw unsupported(column.column, 'selected');
      }
    }
    const columns = [...output.filter((c) => !selected.includes(c)), ...selected];

    const rows = await this.repository.aggregate({
      siteId: site.id,
      ...this.daysOf(input.range),
      dimensions,
      filters: (input.where ?? []).map(filterOf),
      order: input.order ? orderOf(input.order.by, input.order.direction, columns) : null,
      limit: input.limit ?? 1000,
    });
    return {
      columns: columns.map((column): SiteInsightsColumnValuesResponse => ({
        column: column.name,
        values: rows.map((row) => valueOf(column, row, dimensions)),
      })),
    };
  }

  /** The first and last UTC days of the range, both included. */
  private daysOf(range: RangePreset | RangeCustom): { fromDay: string; toDay: string } {
    if (typeof range === 'object') {
      const from = new Date(range.from);
      const to = new Date(range.to);
      if (from > to) throw invalidInput('range.from must not be after range.to.');
      return { fromDay: day(from), toDay: day(to) };
    }
    const now = this.clock.now();
    const from = new Date(now);
    switch (range) {
      case 'last24Hours':
        from.setTime(now.getTime() - DAY);
        break;
      case 'last7Days':
        from.setTime(now.getTime() - 7 * DAY);
        break;
      case 'last30Days':
        from.setTime(now.getTime() - 30 * DAY);
        break;
      case 'last3Months':
        from.setUTCMonth(from.getUTCMonth() - 3);
        break;
      case 'lastYear':
        from.setUTCFullYear(from.getUTCFullYear() - 1);
        break;
    }
    return { fromDay: day(from), toDay: day(now) };
  }
}

function ratingOf(event: SiteInsightsEventDto): string {
  if (event instanceof SiteInsightsPageFeedbackEventDto) return event.feedback.rating;
  if (event instanceof SiteInsightsAskRateEventDto) {
    return event.rating === 1 ? 'positive' : 'negative';
  }
  return '';
}

function unsupported(column: string, how: string) {
  return invalidInput(
    `${column} cannot be ${how}: Bindery keeps only daily counts per event type, site space, ` +
      'page and rating (no visitors, sessions, URLs or text). It answers eventsCount, ' +
      'pageFeedbackRating and askResponseRating, by datetime (day, week, month), dayOfWeek, ' +
      'eventType, siteSpace and page.',
  );
}

function dimensionOf(column: SiteInsightsColumnDto): InsightsDimension {
  if (column.column !== 'datetime') {
    return { kind: column.column as Exclude<DimensionName, 'datetime'> };
  }
  const interval = column.interval ?? 'day';
  if (interval === 'hour') {
    throw invalidInput('datetime cannot be grouped by hour: Bindery counts events per day.');
  }
  return { kind: 'datetime', interval };
}

function filterOf(filter: SiteInsightsFilterDto, index: number): InsightsFilter {
  const at = `where.${index}`;
  if (!FILTERABLE.has(filter.column)) {
    throw invalidInput(
      `${at}: ${filter.column} cannot be filtered on; Bindery filters on eventType, siteSpace and page.`,
    );
  }
  const operator = filter.operator ?? 'in';
  if (operator !== 'in' && operator !== 'notIn') {
    throw invalidInput(`${at}: ${filter.column} takes the operators in and notIn.`);
  }
  const negate = operator === 'notIn';
  const values = filter.values;
  switch (filter.column) {
    case 'eventType':
      if (!values.every((v) => typeof v === 'string' && KNOWN_TYPES.has(v))) {
        throw invalidInput(
          `${at}.values must be event types (${SITE_INSIGHTS_EVENT_TYPES.join(', ')}).`,
        );
      }
      return { kind: 'eventType', negate, values: values as string[] };
    case 'siteSpace':
      if (!values.every((v) => v === null || typeof v === 'string')) {
        throw invalidInput(`${at}.values must be site space ids or null.`);
      }
      return { kind: 'siteSpace', negate, values: values.map((v) => (v as string | null) ?? '') };
    default:
      return { kind: 'page', negate, values: values.map((v) => pageOf(v, at)) };
  }
}

/** A `page` value: `{page, space}` (page null: the space's events on no page), or null. */
function pageOf(value: unknown, at: string): { spaceId: string; pageId: string } {
  if (value === null) return { spaceId: '', pageId: '' };
  const { page, space } = (value ?? {}) as { page?: unknown; space?: unknown };
  if (
    typeof value !== 'object' ||
    typeof space !== 'string' ||
    (page !== null && typeof page !== 'string')
  ) {
    throw invalidInput(
      `${at}.values must be {page, space} objects (page a string or null) or null.`,
    );
  }
  return { spaceId: space, pageId: page ?? '' };
}

function orderOf(
  by: SiteInsightsColumnDto,
  direction: 'asc' | 'desc',
  columns: OutputColumn[],
): { key: InsightsSortKey; direction: 'asc' | 'desc' } {
  const column = columns.find((c) => c.name === by.column);
  if (!column) throw invalidInput(`order.by must be a column of the answer, not ${by.column}.`);
  if ('dimension' in column) return { key: { dimension: column.dimension }, direction };
  if (column.metric !== 'eventsCount') {
    throw invalidInput(`order.by cannot be ${by.column}; order by eventsCount instead.`);
  }
  return { key: { metric: 'eventsCount' }, direction };
}

function valueOf(column: OutputColumn, row: InsightsRow, dimensions: InsightsDimension[]): unknown {
  if ('metric' in column) {
    if (column.metric === 'eventsCount') return row.eventsCount;
    return column.metric === 'pageFeedbackRating' ? row.pageFeedback : row.askRating;
  }
  const value = row.dimensions[column.dimension];
  switch (dimensions[column.dimension].kind) {
    case 'datetime':
      return `${value as string}T00:00:00.000Z`;
    case 'siteSpace':
    case 'eventType':
      return value === '' ? null : value;
    case 'page': {
      const [spaceId, pageId] = value as [string, string];
      return spaceId === '' ? null : { page: pageId === '' ? null : pageId, space: spaceId };
    }
    default:
      return value;
  }
}
