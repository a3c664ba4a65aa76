import { QueryFailedError } from 'typeorm';
import { isRetryableConflict, retryOnConflict } from './conflict-retry';

const failure = (code: string) =>
  new QueryFailedError('UPDATE x', [], Object.assign(new Error(code), { code }));

const fast = { attempts: 4, baseDelayMs: 1 };

describe('retryOnConflict', () => {
  it.each(['40001', '40P01'])(
    'runs the work again after a %s, and answers its result',
    async (code) => {
      const work = jest
        .fn<Promise<string>, []>()
        .mockRejectedValueOnce(failure(code))
        .mockRejectedValueOnce(failure(code))
        .mockResolvedValue('done');
      await expect(retryOnConflict(work, fast)).resolves.toBe('done');
      expect(work).toHaveBeenCalledTimes(3);
    },
  );

  it('gives up after the last attempt with the last error', async () => {
    const last = failure('40P01');
    const work = jest
      .fn<Promise<string>, []>()
      .mockRejectedValueOnce(failure('40001'))
      .mockRejectedValueOnce(failure('40P01'))
      .mockRejectedValueOnce(failure('40001'))
      .mockRejectedValueOnce(last);
    await expect(retryOnConflict(work, fast)).rejects.toBe(last);
    expect(work).toHaveBeenCalledTimes(4);
  });

  it.each([failure('23505'), failure('22P02'), new Error('boom'), 'text'])(
    'does not retry other failures (%p)',
    async (error) => {
      const work = jest.fn<Promise<string>, []>().mockRejectedValue(error);
      await expect(retryOnConflict(work, fast)).rejects.toBe(error);
      expect(work).toHaveBeenCalledTimes(1);
    },
  );

  it('reads the SQLSTATE from the driver error or the error itself', () => {
    expect(isRetryableConflict(failure('40P01'))).toBe(true);
    expect(isRetryableConflict({ code: '40001' })).toBe(true);
    expect(isRetryableConflict({ code: '23505' })).toBe(false);
    expect(isRetryableConflict(null)).toBe(false);
  });
});
