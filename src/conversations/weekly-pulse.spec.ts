import { pulseOf, pulseWindow } from './weekly-pulse';

describe('weekly pulse', () => {
  it('spans 13 weeks from a Monday, ending after the current week', () => {
    // Wednesday 2026-11-18 15:00 UTC: the current week began Monday 2026-11-16.
    const { start, end } = pulseWindow(new Date('2026-11-18T15:00:00Z'));
    expect(end.toISOString()).toBe('2026-11-23T00:00:00.000Z');
    expect(start.toISOString()).toBe('2026-08-24T00:00:00.000Z');
  });

  it('treats Sunday as the end of its week and Monday as the start of the next', () => {
    expect(pulseWindow(new Date('2026-11-22T23:59:59Z')).end.toISOString()).toBe(
      '2026-11-23T00:00:00.000Z',
    );
    expect(pulseWindow(new Date('2026-11-23T00:00:00Z')).end.toISOString()).toBe(
      '2026-11-30T00:00:00.000Z',
    );
  });

  it('places counts by week and ignores weeks outside the window', () => {
    expect(
      pulseOf([
        { week: 0, count: 2 },
        { week: 12, count: 5 },
        { week: 13, count: 9 },
        { week: -1, count: 9 },
      ]),
    ).toEqual([2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5]);
  });
});
