import { cachedFor } from './cached';

describe('cachedFor', () => {
  let time = 0;
  const now = () => time;
  beforeEach(() => (time = 0));

  it('loads once per period, and shares a load under way', async () => {
    let loads = 0;
    const get = cachedFor(1000, async () => ++loads, now);
    const [a, b] = await Promise.all([get(), get()]);
    expect([a, b, loads]).toEqual([1, 1, 1]);
    time = 999;
    expect(await get()).toBe(1);
    time = 1000;
    expect(await get()).toBe(2);
  });

  it('shares a failure for the period too, then tries again', async () => {
    let loads = 0;
    const get = cachedFor(
      1000,
      async () => {
        loads += 1;
        if (loads === 1) throw new Error('down');
        return loads;
      },
      now,
    );
    await expect(get()).rejects.toThrow('down');
    await expect(get()).rejects.toThrow('down');
    expect(loads).toBe(1);
    time = 1500;
    expect(await get()).toBe(2);
  });
});
