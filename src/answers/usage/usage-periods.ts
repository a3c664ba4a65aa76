import type { AiUsageInterval } from '../dto/ask-in-organization.dto';
import type { OrganizationAIUsageResponse } from '../dto/organization-answer.response';
import type { DailyUsage } from './ai-usage.repository';

const DAY_MS = 86_400_000;

/** The UTC day `YYYY-MM-DD` at the start of the calendar bucket holding `day` (weeks: Monday). */
export function bucketOf(day: string, interval: AiUsageInterval): string {
  const date = new Date(`${day}T00:00:00Z`);
  switch (interval) {
    case 'day':
      return day;
    case 'week': {
      const sinceMonday = (date.getUTCDay() + 6) % 7;
      return new Date(date.getTime() - sinceMonday * DAY_MS).toISOString().slice(0, 10);
    }
    case 'month':
      return `${day.slice(0, 7)}-01`;
    case 'year':
      return `${day.slice(0, 4)}-01-01`;
  }
}

/** The bucket after `bucket`. */
function nextBucket(bucket: string, interval: AiUsageInterval): string {
  const date = new Date(`${bucket}T00:00:00Z`);
  if (interval === 'day') date.setUTCDate(date.getUTCDate() + 1);
  else if (interval === 'week') date.setUTCDate(date.getUTCDate() + 7);
  else if (interval === 'month') date.setUTCMonth(date.getUTCMonth() + 1);
  else date.setUTCFullYear(date.getUTCFullYear() + 1);
  return date.toISOString().slice(0, 10);
}

/**
 * GitBook's `OrganizationAIUsage` of daily counters: every bucket from the one holding `from`
 * to the one holding the last instant before `to`, empty ones included, each with its credits
 * (tokens) by feature, the largest first.
 */
export function usagePeriods(
  from: Date,
  to: Date,
  interval: AiUsageInterval,
  counters: DailyUsage[],
): OrganizationAIUsageResponse {
  const firstDay = from.toISOString().slice(0, 10);
  const lastDay = new Date(to.getTime() - 1).toISOString().slice(0, 10);
  const buckets = new Map<string, Map<string, number>>();
  for (
    let bucket = bucketOf(firstDay, interval);
    bucket <= lastDay;
    bucket = nextBucket(bucket, interval)
  ) {
    buckets.set(bucket, new Map());
  }
  for (const counter of counters) {
    const features = buckets.get(bucketOf(counter.day, interval));
    if (!features) continue;
    features.set(counter.feature, (features.get(counter.feature) ?? 0) + counter.tokens);
  }
  return {
    from: from.toISOString(),
    to: to.toISOString(),
    periods: [...buckets].map(([date, features]) => {
      const credits = [...features.values()].reduce((sum, tokens) => sum + tokens, 0);
      return {
        date,
        credits,
        features: [...features]
          .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
          .map(([feature, tokens]) => ({
            feature,
            credits: tokens,
            creditsPercent: credits === 0 ? 0 : Math.round((tokens / credits) * 10_000) / 100,
          })),
      };
    }),
  };
}
