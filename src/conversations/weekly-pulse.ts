/** Weeks in a cluster's `weeklyPulse`: about three months. */
export const PULSE_WEEKS = 13;
const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * The weeks of the pulse at `now`: Monday 00:00 UTC of the oldest of the 13 weeks, and the end
 * of the current one (exclusive). Week `i` of the pulse starts at `start + i weeks`.
 */
export function pulseWindow(now: Date): { start: Date; end: Date } {
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const sinceMonday = (day.getUTCDay() + 6) % 7;
  const currentWeek = day.getTime() - sinceMonday * 24 * 60 * 60 * 1000;
  return {
    start: new Date(currentWeek - (PULSE_WEEKS - 1) * WEEK_MS),
    end: new Date(currentWeek + WEEK_MS),
  };
}

/** The SQL expression of an issue's week in the pulse (0 = oldest), `$n` being the start. */
export function weekIndexSql(column: string, startParam: string): string {
  return `floor(extract(epoch from (${column} - ${startParam}::timestamptz)) / ${WEEK_MS / 1000})::int`;
}

/** 13 counts from `week → count` rows. */
export function pulseOf(rows: { week: number; count: number }[]): number[] {
  const pulse = new Array<number>(PULSE_WEEKS).fill(0);
  for (const { week, count } of rows) if (week >= 0 && week < PULSE_WEEKS) pulse[week] += count;
  return pulse;
}
