import { Clock } from '../platform/clock/clock';
import type { AppConfig } from '../platform/config/app-config';
import { SecretKeyring, type InstanceSecret } from '../platform/settings/instance-secret';
import type { UrlBuilder } from '../platform/urls/url-builder';
import { EmailInviteLinks } from './email-invite-links';

class FixedClock extends Clock {
  constructor(public time: number) {
    super();
  }
  override now(): Date {
    return new Date(this.time);
  }
}

const urls = {
  api: (...segments: string[]) => `https://bindery.example/v1/${segments.join('/')}`,
} as UrlBuilder;
const config = { EMAIL_INVITE_TTL_HOURS: 2 } as AppConfig;
const secretOf = (value: string) => new SecretKeyring(value) as unknown as InstanceSecret;

/** The query of a link, as a request would carry it. */
const queryOf = (url: string) => Object.fromEntries(new URL(url).searchParams);

describe('EmailInviteLinks', () => {
  const clock = new FixedClock(Date.parse('2026-11-27T10:00:00.500Z'));
  const links = new EmailInviteLinks(secretOf('s3cret'), clock, config, urls);
  const invite = { id: 'inv1', email: 'ada@example.com', expiresAt: links.expiresAt() };

  it('expires after EMAIL_INVITE_TTL_HOURS, on a whole second', () => {
    expect(invite.expiresAt.toISOString()).toBe('2026-11-27T12:00:00.000Z');
  });

  it('links to the invitation page with its expiry and signature', () => {
    const url = links.url(invite);
    expect(url).toMatch(
      /^https:\/\/bindery\.example\/v1\/invitations\/inv1\?expires=\d+&signature=[\w-]+$/,
    );
    expect(links.check(invite, queryOf(url))).toBe('valid');
  });

  it('refuses a link to another invite, another address, another key or a changed expiry', () => {
    const query = queryOf(links.url(invite));
    expect(links.check({ ...invite, id: 'inv2' }, query)).toBe('invalid');
    expect(links.check({ ...invite, email: 'eve@example.com' }, query)).toBe('invalid');
    const elsewhere = new EmailInviteLinks(secretOf('other'), clock, config, urls);
    expect(elsewhere.check(invite, query)).toBe('invalid');
    expect(links.check(invite, { ...query, expires: String(Number(query.expires) + 60) })).toBe(
      'invalid',
    );
    expect(links.check(invite, { expires: query.expires })).toBe('invalid');
  });

  it('refuses the link of an invite renewed since (its expiry is no longer the invite’s)', () => {
    const query = queryOf(links.url(invite));
    const renewed = { ...invite, expiresAt: new Date(invite.expiresAt.getTime() + 3_600_000) };
    expect(links.check(renewed, query)).toBe('invalid');
  });

  it('says a link is expired once its time has passed', () => {
    const query = queryOf(links.url(invite));
    const later = new FixedClock(invite.expiresAt.getTime() + 1000);
    expect(new EmailInviteLinks(secretOf('s3cret'), later, config, urls).check(invite, query)).toBe(
      'expired',
    );
  });
});
