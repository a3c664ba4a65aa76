import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { FlexibleThrottlerStorage, LimiterFactory } from './flexible.storage';

describe('FlexibleThrottlerStorage', () => {
  const made: Array<{ points: number; duration: number }> = [];
  const memory: LimiterFactory = (points, duration) => {
    made.push({ points, duration });
    return new RateLimiterMemory({ points, duration });
  };
  beforeEach(() => {
    made.length = 0;
    jest.useFakeTimers({ now: 1_000_000, doNotFake: ['nextTick', 'setImmediate'] });
  });
  afterEach(() => jest.useRealTimers());

  it('counts hits in the window and blocks past the limit until the window ends', async () => {
    const storage = new FlexibleThrottlerStorage(memory);
    expect(await storage.increment('k', 60_000, 2, 0, 'default')).toEqual({
      totalHits: 1,
      timeToExpire: 60,
      isBlocked: false,
      timeToBlockExpire: 0,
    });
    await storage.increment('k', 60_000, 2, 0, 'default');
    jest.advanceTimersByTime(15_000);
    expect(await storage.increment('k', 60_000, 2, 0, 'default')).toEqual({
      totalHits: 3,
      timeToExpire: 45,
      isBlocked: true,
      timeToBlockExpire: 45,
    });
    expect(made).toEqual([{ points: 2, duration: 60 }]);
  });

  it('starts a new window once the last one ended, and keeps keys apart', async () => {
    const storage = new FlexibleThrottlerStorage(memory);
    for (let i = 0; i < 3; i++) await storage.increment('a', 60_000, 2, 0, 'default');
    expect((await storage.increment('b', 60_000, 2, 0, 'default')).totalHits).toBe(1);
    jest.advanceTimersByTime(60_001);
    expect(await storage.increment('a', 60_000, 2, 0, 'default')).toMatchObject({
      totalHits: 1,
      isBlocked: false,
    });
  });

  it('rounds the seconds left up, never below 1', async () => {
    const storage = new FlexibleThrottlerStorage(memory);
    await storage.increment('k', 60_000, 1, 0, 'default');
    jest.advanceTimersByTime(59_800);
    expect(await storage.increment('k', 60_000, 1, 0, 'default')).toMatchObject({
      timeToExpire: 1,
      isBlocked: true,
      timeToBlockExpire: 1,
    });
  });

  it('reports a key refused without a count (blocked in memory) as over the limit', async () => {
    const limiter = new RateLimiterMemory({ points: 5, duration: 60 });
    jest.spyOn(limiter, 'consume').mockRejectedValue(new RateLimiterRes(0, 30_000, 0));
    const storage = new FlexibleThrottlerStorage(() => limiter);
    expect(await storage.increment('k', 60_000, 5, 0, 'default')).toEqual({
      totalHits: 6,
      timeToExpire: 30,
      isBlocked: true,
      timeToBlockExpire: 30,
    });
  });

  it('makes one limiter per throttler name, window and limit', async () => {
    const storage = new FlexibleThrottlerStorage(memory);
    await storage.increment('k', 60_000, 2, 0, 'default');
    await storage.increment('k', 60_000, 2, 0, 'default');
    await storage.increment('k', 1_500, 10, 0, 'burst');
    expect(made).toEqual([
      { points: 2, duration: 60 },
      { points: 10, duration: 2 },
    ]);
  });

  it('passes on errors that are not a refusal', async () => {
    const limiter = new RateLimiterMemory({ points: 5, duration: 60 });
    jest.spyOn(limiter, 'consume').mockRejectedValue(new Error('store down'));
    const storage = new FlexibleThrottlerStorage(() => limiter);
    await expect(storage.increment('k', 60_000, 5, 0, 'default')).rejects.toThrow('store down');
  });

  it('releases its store at shutdown', async () => {
    const release = jest.fn(async () => undefined);
    await new FlexibleThrottlerStorage(memory, release).onApplicationShutdown();
    expect(release).toHaveBeenCalledTimes(1);
  });
});
