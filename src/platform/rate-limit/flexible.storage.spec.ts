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

  describe('adding hits to the store every syncMs', () => {
    const SYNC_MS = 100;
    const release = async () => undefined;
    /** The store's count of `key` (what every process would see). */
    const stored = async (limiter: RateLimiterMemory, key: string) =>
      (await limiter.get(key))?.consumedPoints ?? 0;

    it('counts a window’s first hit in the store at once, and the next ones together', async () => {
      const limiter = new RateLimiterMemory({ points: 100, duration: 60 });
      const consume = jest.spyOn(limiter, 'consume');
      const penalty = jest.spyOn(limiter, 'penalty');
      const storage = new FlexibleThrottlerStorage(() => limiter, release, SYNC_MS);

      expect((await storage.increment('k', 60_000, 100, 0, 'default')).totalHits).toBe(1);
      expect(await stored(limiter, 'k')).toBe(1);
      for (let i = 2; i <= 5; i++) {
        expect(await storage.increment('k', 60_000, 100, 0, 'default')).toEqual({
          totalHits: i,
          timeToExpire: 60,
          isBlocked: false,
          timeToBlockExpire: 0,
        });
      }
      expect(await stored(limiter, 'k')).toBe(1);

      await jest.advanceTimersByTimeAsync(SYNC_MS);
      expect(await stored(limiter, 'k')).toBe(5);
      expect(consume).toHaveBeenCalledTimes(1);
      expect(penalty).toHaveBeenCalledTimes(1);
      expect(penalty).toHaveBeenCalledWith('k', 4);
    });

    it('holds one limit across processes once they have synced', async () => {
      const limiter = new RateLimiterMemory({ points: 5, duration: 60 });
      const a = new FlexibleThrottlerStorage(() => limiter, release, SYNC_MS);
      const b = new FlexibleThrottlerStorage(() => limiter, release, SYNC_MS);
      for (let i = 0; i < 3; i++) await a.increment('k', 60_000, 5, 0, 'default');
      await jest.advanceTimersByTimeAsync(SYNC_MS);
      // b's first hit reads the store: a's three hits and its own.
      expect((await b.increment('k', 60_000, 5, 0, 'default')).totalHits).toBe(4);
      expect(await b.increment('k', 60_000, 5, 0, 'default')).toMatchObject({
        totalHits: 5,
        isBlocked: false,
      });
      await jest.advanceTimersByTimeAsync(SYNC_MS);
      // a's view of the key is older than SYNC_MS: its next hit takes the store's count along.
      expect(await a.increment('k', 60_000, 5, 0, 'default')).toMatchObject({
        totalHits: 6,
        isBlocked: true,
        timeToBlockExpire: 60,
      });
      expect(await b.increment('k', 60_000, 5, 0, 'default')).toMatchObject({ isBlocked: true });
    });

    it('judges hits within SYNC_MS of the last round trip on what it knew then', async () => {
      const limiter = new RateLimiterMemory({ points: 5, duration: 60 });
      const a = new FlexibleThrottlerStorage(() => limiter, release, SYNC_MS);
      const b = new FlexibleThrottlerStorage(() => limiter, release, SYNC_MS);
      await a.increment('k', 60_000, 5, 0, 'default');
      for (let i = 0; i < 4; i++) await b.increment('k', 60_000, 5, 0, 'default');
      // b's hits are not in a's view yet: a admits one more than the limit, at most SYNC_MS long.
      expect(await a.increment('k', 60_000, 5, 0, 'default')).toMatchObject({
        totalHits: 2,
        isBlocked: false,
      });
      await jest.advanceTimersByTimeAsync(SYNC_MS);
      expect(await stored(limiter, 'k')).toBe(6);
      expect(await a.increment('k', 60_000, 5, 0, 'default')).toMatchObject({ isBlocked: true });
    });

    it('counts the hits of a round trip under way until the store has them', async () => {
      const limiter = new RateLimiterMemory({ points: 3, duration: 60 });
      const storage = new FlexibleThrottlerStorage(() => limiter, release, SYNC_MS);
      await storage.increment('k', 60_000, 3, 0, 'default');
      await storage.increment('k', 60_000, 3, 0, 'default');
      // The store answers slowly: the second hit is on its way while the next ones arrive.
      const penalty = limiter.penalty.bind(limiter);
      let answer: () => void = () => undefined;
      jest.spyOn(limiter, 'penalty').mockImplementationOnce(
        (key, points) =>
          new Promise((resolve) => {
            answer = () => resolve(penalty(key, points));
          }),
      );
      await jest.advanceTimersByTimeAsync(SYNC_MS);
      expect(await storage.increment('k', 60_000, 3, 0, 'default')).toMatchObject({
        totalHits: 3,
        isBlocked: false,
      });
      expect(await storage.increment('k', 60_000, 3, 0, 'default')).toMatchObject({
        totalHits: 4,
        isBlocked: true,
      });
      answer();
      await jest.advanceTimersByTimeAsync(SYNC_MS);
      // Both round trips done: the store has every hit.
      expect(await stored(limiter, 'k')).toBe(4);
    });

    it('starts a new window with a round trip once the last one ended', async () => {
      const limiter = new RateLimiterMemory({ points: 2, duration: 60 });
      const consume = jest.spyOn(limiter, 'consume');
      const storage = new FlexibleThrottlerStorage(() => limiter, release, SYNC_MS);
      for (let i = 0; i < 3; i++) await storage.increment('k', 60_000, 2, 0, 'default');
      await jest.advanceTimersByTimeAsync(60_001);
      expect(await storage.increment('k', 60_000, 2, 0, 'default')).toMatchObject({
        totalHits: 1,
        isBlocked: false,
      });
      expect(consume).toHaveBeenCalledTimes(2);
    });

    it('adds the hits it still holds to the store at shutdown', async () => {
      const limiter = new RateLimiterMemory({ points: 100, duration: 60 });
      const storage = new FlexibleThrottlerStorage(() => limiter, release, SYNC_MS);
      for (let i = 0; i < 4; i++) await storage.increment('k', 60_000, 100, 0, 'default');
      await storage.onApplicationShutdown();
      expect(await stored(limiter, 'k')).toBe(4);
    });

    it('keeps the hits a failed round trip could not store for the next one', async () => {
      const limiter = new RateLimiterMemory({ points: 100, duration: 60 });
      const storage = new FlexibleThrottlerStorage(() => limiter, release, SYNC_MS);
      await storage.increment('k', 60_000, 100, 0, 'default');
      await storage.increment('k', 60_000, 100, 0, 'default');
      jest.spyOn(limiter, 'penalty').mockRejectedValueOnce(new Error('store down'));
      await jest.advanceTimersByTimeAsync(SYNC_MS);
      expect(await stored(limiter, 'k')).toBe(1);
      expect((await storage.increment('k', 60_000, 100, 0, 'default')).totalHits).toBe(3);
      await jest.advanceTimersByTimeAsync(SYNC_MS);
      expect(await stored(limiter, 'k')).toBe(3);
    });
  });
});
