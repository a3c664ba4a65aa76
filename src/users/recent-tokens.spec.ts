import type { UserActor } from '../platform/auth/actor';
import { RecentTokens } from './recent-tokens';

const actor = (tokenHash: string, userId = 'u1', tokenId = `t-${tokenHash}`): UserActor =>
  ({ kind: 'user', userId, tokenId, tokenHash, scope: null, user: { id: userId } }) as UserActor;

describe('RecentTokens', () => {
  it('keeps a token for its time, then forgets it', () => {
    const recent = new RecentTokens(1000);
    recent.remember(actor('h1'), 10_000, null);
    expect(recent.get('h1', 10_999)?.tokenId).toBe('t-h1');
    expect(recent.get('h1', 11_000)).toBeUndefined();
    expect(recent.get('h1', 10_500)).toBeUndefined(); // gone once ended
  });

  it('never keeps a token past its expiry', () => {
    const recent = new RecentTokens(1000);
    recent.remember(actor('h1'), 10_000, new Date(10_300));
    expect(recent.get('h1', 10_299)).toBeDefined();
    expect(recent.get('h1', 10_300)).toBeUndefined();
  });

  it('does not serve an entry to a clock moved back before it was made', () => {
    const recent = new RecentTokens(1000);
    recent.remember(actor('h1'), 10_000, null);
    expect(recent.get('h1', 9_999)).toBeUndefined();
  });

  it('forgets a token by id, and every token of a user', () => {
    const recent = new RecentTokens(1000);
    recent.remember(actor('h1', 'ada'), 0, null);
    recent.remember(actor('h2', 'ada'), 0, null);
    recent.remember(actor('h3', 'grace'), 0, null);
    recent.forgetToken('t-h1');
    expect(recent.get('h1', 1)).toBeUndefined();
    expect(recent.get('h2', 1)).toBeDefined();
    recent.forgetUser('ada');
    expect(recent.get('h2', 1)).toBeUndefined();
    expect(recent.get('h3', 1)).toBeDefined();
  });

  it('keeps at most maxEntries tokens, dropping the oldest', () => {
    const recent = new RecentTokens(1000, 2);
    recent.remember(actor('h1'), 0, null);
    recent.remember(actor('h2'), 0, null);
    recent.remember(actor('h3'), 0, null);
    expect(recent.get('h1', 1)).toBeUndefined();
    expect(recent.get('h2', 1)).toBeDefined();
    expect(recent.get('h3', 1)).toBeDefined();
  });

  it('keeps nothing with a time of 0', () => {
    const recent = new RecentTokens(0);
    recent.remember(actor('h1'), 0, null);
    expect(recent.get('h1', 0)).toBeUndefined();
  });
});
