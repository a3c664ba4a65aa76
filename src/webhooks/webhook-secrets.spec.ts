import { Webhook as StandardWebhook } from 'standardwebhooks';
import { isWebhookSecret, newWebhookSecret, WebhookSigner } from './webhook-secrets';

describe('webhook secrets', () => {
  it('makes whsec_ secrets of 24 random bytes, each different', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(24);
    expect(isWebhookSecret(secret)).toBe(true);
    expect(newWebhookSecret()).not.toBe(secret);
  });

  it.each([
    ['no prefix', Buffer.alloc(24, 1).toString('base64')],
    ['too short', `whsec_${Buffer.alloc(16, 1).toString('base64')}`],
    ['too long', `whsec_${Buffer.alloc(65, 1).toString('base64')}`],
    ['not base64', `whsec_${'!'.repeat(32)}`],
  ])('refuses a secret with %s', (_, secret) => {
    expect(isWebhookSecret(secret)).toBe(false);
  });

  it('signs as Standard Webhooks verifies, with every secret during a rotation', () => {
    const [a, b] = [newWebhookSecret(), newWebhookSecret()];
    const at = new Date();
    const body = JSON.stringify({ type: 'ping' });
    const signature = new WebhookSigner([a, b]).sign('evt_1', at, body);
    expect(signature.split(' ')).toHaveLength(2);
    const headers = {
      'webhook-id': 'evt_1',
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': signature,
    };
    for (const secret of [a, b]) {
      expect(new StandardWebhook(secret).verify(body, headers)).toEqual({ type: 'ping' });
    }
    expect(() => new StandardWebhook(newWebhookSecret()).verify(body, headers)).toThrow();
    expect(() => new StandardWebhook(a).verify(body.replace('ping', 'pong'), headers)).toThrow();
  });
});
