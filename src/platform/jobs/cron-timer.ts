import { parseExpression } from 'cron-parser';

/**
 * How long after its time a schedule's job is sent. Processes whose clocks differ by less send
 * it within the same minute of the database's clock, in which pg-boss keeps one job per key
 * (`singletonSeconds`), rather than on either side of a minute's start.
 */
export const CRON_SEND_DELAY_MS = 5_000;

/** A schedule's timer; `stop` clears it. */
export interface CronTimer {
  stop(): void;
}

/**
 * Calls `fire` with each time `cron` (five fields, UTC) names from now on, CRON_SEND_DELAY_MS
 * after it, until stopped. The next time is computed once per firing: pg-boss's own cron
 * monitor parsed every schedule every 30 seconds on the event loop (60 ms for a dozen, a pause
 * every request in flight then waited for).
 */
export function everyCronTime(cron: string, fire: (due: Date) => void): CronTimer {
  // Throws on a malformed expression, when the schedule is set up.
  parseExpression(cron, { tz: 'UTC' });
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const arm = (after: number) => {
    const due = parseExpression(cron, { tz: 'UTC', currentDate: new Date(after) })
      .next()
      .toDate();
    timer = setTimeout(
      () => {
        if (stopped) return;
        arm(due.getTime());
        fire(due);
      },
      Math.max(0, due.getTime() + CRON_SEND_DELAY_MS - Date.now()),
    );
    // A schedule never keeps the process alive on its own.
    timer.unref();
  };
  arm(Date.now());
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
