import { bucketOf, usagePeriods } from './usage-periods';

describe('bucketOf', () => {
  it('starts days, Monday weeks, months and years in UTC', () => {
    expect(bucketOf('2026-03-05', 'day')).toBe('2026-03-05');
    // 2026-03-05 is a Thursday; 2026-03-02 the Monday before; a Monday is its own week.
    expect(bucketOf('2026-03-05', 'week')).toBe('2026-03-02');
    expect(bucketOf('2026-03-02', 'week')).toBe('2026-03-02');
    expect(bucketOf('2026-03-01', 'week')).toBe('2026-02-23');
    expect(bucketOf('2026-03-05', 'month')).toBe('2026-03-01');
    expect(bucketOf('2026-03-05', 'year')).toBe('2026-01-01');
  });
});

describe('usagePeriods', () => {
  const counters = [
    { day: '2026-03-01', feature: 'site-ask', tokens: 30 },
    { day: '2026-03-01', feature: 'organization-ask', tokens: 10 },
    { day: '2026-03-03', feature: 'site-ask', tokens: 60 },
  ];

  it('answers every bucket of the range, empty ones too, with features by share', () => {
    const usage = usagePeriods(
      new Date('2026-03-01T10:00:00Z'),
      new Date('2026-03-04T00:00:00Z'),
      'day',
      counters,
    );
    expect(usage).toEqual({
      from: '2026-03-01T10:00:00.000Z',
      to: '2026-03-04T00:00:00.000Z',
      periods: [
        {
          date: '2026-03-01',
          credits: 40,
          features: [
            { feature: 'site-ask', credits: 30, creditsPercent: 75 },
            { feature: 'organization-ask', credits: 10, creditsPercent: 25 },
          ],
        },
        { date: '2026-03-02', credits: 0, features: [] },
        {
          date: '2026-03-03',
          credits: 60,
          features: [{ feature: 'site-ask', credits: 60, creditsPercent: 100 }],
        },
      ],
    });
  });

  it('sums the days of a month into its bucket', () => {
    const usage = usagePeriods(
      new Date('2026-02-15T00:00:00Z'),
      new Date('2026-03-10T00:00:00Z'),
      'month',
      counters,
    );
    expect(usage.periods.map((period) => [period.date, period.credits])).toEqual([
      ['2026-02-01', 0],
      ['2026-03-01', 100],
    ]);
  });
});
