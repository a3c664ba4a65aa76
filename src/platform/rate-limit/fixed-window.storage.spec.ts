import { FixedWindowThrottlerStorage } from './fixed-window.storage';

describe('FixedWindowThrottlerStorage', () => {
  let now: number;
  let storage: FixedWindowThrottlerStorage;
  beforeEach(() => {
    now = 1_000_000;
    storage = new FixedWindowThrottlerStorage(() => now);
  });
  afterEach(() => storage.onModuleDestroy());

  it('counts hits in a window and blocks past the limit until the window ends', async () => {
    const first = await storage.increment('k', 60_000, 2, 0, 'default');
    expect(first).toEqual({
      totalHits: 1,
      timeToExpire: 60,
      isBlocked: false,
      timeToBlockExpire: 0,
    });
    await storage.increment('k', 60_000, 2, 0, 'default');
    now += 15_000;
    const third = await storage.increment('k', 60_000, 2, 0, 'default');
    expect(third).toEqual({
      totalHits: 3,
      timeToExpire: 45,
      isBlocked: true,
      timeToBlockExpire: 45,
    });
  });

  it('starts a fresh window once the previous one has ended', async () => {
    for (let i = 0; i < 3; i++) await storage.increment('k', 60_000, 2, 0, 'default');
    now += 60_000;
    const next = await storage.increment('k', 60_000, 2, 0, 'default');
    expect(next.totalHits).toBe(1);
    expect(next.isBlocked).toBe(false);
  });

  it('keeps keys and throttler names apart', async () => {
    await storage.increment('a', 60_000, 1, 0, 'default');
    expect((await storage.increment('b', 60_000, 1, 0, 'default')).isBlocked).toBe(false);
    expect((await storage.increment('a', 60_000, 1, 0, 'burst')).isBlocked).toBe(false);
    expect((await storage.increment('a', 60_000, 1, 0, 'default')).isBlocked).toBe(true);
  });
});
