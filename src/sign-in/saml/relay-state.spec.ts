import { SecretKeyring } from '../../platform/settings/instance-secret';
import { UrlSigner } from '../../platform/urls/url-signer';
import { RelayStates } from './relay-state';

class StoppedClock {
  constructor(public time: number) {}
  now(): Date {
    return new Date(this.time);
  }
}

describe('RelayStates', () => {
  const clock = new StoppedClock(Date.parse('2026-05-01T10:00:00Z'));
  const states = (secret = 'a'.repeat(40), previous: string[] = []) =>
    new RelayStates(new UrlSigner(new SecretKeyring(secret, previous), clock, 'relay', 600));
  const claims = { providerId: 'prov1', requestId: '_req1', redirectUri: 'http://x.test/cb' };

  it('reads back what it made, with or without a redirect URI', () => {
    const relay = states();
    expect(relay.read(relay.make(claims))).toEqual({ valid: true, claims });
    const none = { ...claims, redirectUri: null };
    expect(relay.read(relay.make(none))).toEqual({ valid: true, claims: none });
  });

  it('refuses one whose claims were changed', () => {
    const relay = states();
    const [payload, signature] = relay.make(claims).split('.');
    const parts = JSON.parse(Buffer.from(payload, 'base64url').toString());
    for (const index of [0, 1, 2, 3]) {
      const changed = [...parts];
      changed[index] = index === 3 ? parts[3] + 1000 : `${parts[index]}x`;
      const forged = `${Buffer.from(JSON.stringify(changed)).toString('base64url')}.${signature}`;
      expect(relay.read(forged)).toEqual({ valid: false, reason: 'invalid' });
    }
  });

  it("refuses another secret's, and accepts a previous secret's during a rotation", () => {
    const old = states('b'.repeat(40)).make(claims);
    expect(states().read(old)).toEqual({ valid: false, reason: 'invalid' });
    expect(states('a'.repeat(40), ['b'.repeat(40)]).read(old).valid).toBe(true);
  });

  it('expires after its time to live', () => {
    const relay = states();
    const made = relay.make(claims);
    clock.time += 601_000;
    expect(relay.read(made)).toEqual({ valid: false, reason: 'expired' });
    clock.time -= 601_000;
  });

  it.each([undefined, '', 'abc', 'abc.def', `${'x'.repeat(5000)}`, '.sig', 42])(
    'refuses %p',
    (value) => {
      expect(states().read(value).valid).toBe(false);
    },
  );
});
