import { createTestApp, TestApp } from '../helpers/app';

describe('rate limiting per token', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '3' });
  });
  afterAll(() => t.close());

  it('counts down in headers, then answers 429 with Retry-After; other tokens are unaffected', async () => {
    const limited = await t.factories.user();
    const other = await t.factories.user();

    const first = await limited.client.get('/v1/user').expect(200);
    expect(first.headers['x-ratelimit-limit']).toBe('3');
    expect(first.headers['x-ratelimit-remaining']).toBe('2');
    expect(Number(first.headers['x-ratelimit-reset'])).toBeGreaterThan(0);
    await limited.client.get('/v1/user').expect(200);
    await limited.client.get('/v1/user').expect(200);

    const refused = await limited.client.get('/v1/user').expect(429);
    expect(refused.body).toEqual({ error: { code: 429, message: expect.any(String) } });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);

    await other.client.get('/v1/user').expect(200);
  });

  it('counts every operation of a token against its one limit', async () => {
    // Its first hit: creating the organization.
    const { id: organizationId, owner: user } = await t.factories.organization();
    await user.client.get('/v1/user').expect(200);
    const second = await user.client.get(`/v1/orgs/${organizationId}`).expect(200);
    expect(second.headers['x-ratelimit-remaining']).toBe('0');
    await user.client.get(`/v1/orgs/${organizationId}/members`).expect(429);
    await user.client.get('/v1/user').expect(429);
  });

  it('does not limit the health check', async () => {
    for (let i = 0; i < 5; i++) await t.anonymous.get('/health').expect(200);
  });
});
