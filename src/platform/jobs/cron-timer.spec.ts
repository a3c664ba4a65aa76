import { CRON_SEND_DELAY_MS, everyCronTime } from './cron-timer';

describe('everyCronTime', () => {
  beforeEach(() => {
    jest.useFakeTimers();
    jest.setSystemTime(new Date('2026-12-03T12:03:20Z'));
  });
  afterEach(() => jest.useRealTimers());

  it('fires at each time the expression names (UTC), CRON_SEND_DELAY_MS after it', () => {
    const fired: string[] = [];
    const timer = everyCronTime('*/5 * * * *', (due) => fired.push(due.toISOString()));
    // 12:05:00 + the delay is 1 min 40 s + the delay away.
    jest.advanceTimersByTime(100_000 + CRON_SEND_DELAY_MS - 1);
    expect(fired).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(fired).toEqual(['2026-12-03T12:05:00.000Z']);
    jest.advanceTimersByTime(10 * 60_000);
    expect(fired).toEqual([
      '2026-12-03T12:05:00.000Z',
      '2026-12-03T12:10:00.000Z',
      '2026-12-03T12:15:00.000Z',
    ]);
    timer.stop();
  });

  it('reads the hours in UTC, whatever the process time zone', () => {
    const fired: string[] = [];
    const timer = everyCronTime('47 3 * * *', (due) => fired.push(due.toISOString()));
    jest.advanceTimersByTime(24 * 3600_000);
    expect(fired).toEqual(['2026-12-04T03:47:00.000Z']);
    timer.stop();
  });

  it('fires no more once stopped', () => {
    const fire = jest.fn();
    const timer = everyCronTime('* * * * *', fire);
    jest.advanceTimersByTime(60_000);
    expect(fire).toHaveBeenCalledTimes(1);
    timer.stop();
    jest.advanceTimersByTime(10 * 60_000);
    expect(fire).toHaveBeenCalledTimes(1);
  });

  it('refuses a malformed expression when set up', () => {
    expect(() => everyCronTime('61 * * * *', jest.fn())).toThrow();
  });
});
