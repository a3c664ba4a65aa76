import { get, IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import request from 'supertest';
import { createTestApp, TestApp } from '../helpers/app';

const PAGE_ORIGIN = 'https://docs.example.com';

/** A GET whose body is read as sent, without decoding its content encoding. */
async function rawGet(
  t: TestApp,
  path: string,
  headers: Record<string, string>,
): Promise<{ headers: IncomingHttpHeaders; body: Buffer }> {
  if (!t.server.listening) {
    await new Promise<void>((resolve) => t.server.listen(0, '127.0.0.1', resolve));
  }
  const { port } = t.server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    }).on('error', reject);
  });
}

/** A browser's preflight for a GET with an Authorization header from `origin`. */
function preflight(t: TestApp, origin: string) {
  return request(t.server)
    .options('/v1/user')
    .set('Origin', origin)
    .set('Access-Control-Request-Method', 'GET')
    .set('Access-Control-Request-Headers', 'authorization,content-type');
}

describe('CORS off (CORS_ORIGINS unset, the default)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers a preflight without allowing the origin, so a browser refuses the call', async () => {
    const answer = await preflight(t, PAGE_ORIGIN);
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
    expect(answer.headers['access-control-allow-headers']).toBeUndefined();
  });

  it('sends no CORS header on a cross-origin call', async () => {
    const { token } = await t.factories.user();
    const answer = await t.as(token).get('/v1/user').set('Origin', PAGE_ORIGIN).expect(200);
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('CORS for a list of origins', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ CORS_ORIGINS: `${PAGE_ORIGIN},http://localhost:5173` });
  });
  afterAll(() => t.close());

  it('answers the preflight of a listed origin before authentication', async () => {
    const answer = await preflight(t, PAGE_ORIGIN).expect(204);
    expect(answer.headers['access-control-allow-origin']).toBe(PAGE_ORIGIN);
    expect(answer.headers['access-control-allow-credentials']).toBe('true');
    expect(answer.headers['access-control-allow-headers']).toBe('authorization,content-type');
    expect(answer.headers['access-control-allow-methods']).toContain('PATCH');
    expect(answer.headers['access-control-max-age']).toBe('600');
    expect(answer.headers.vary).toMatch(/Origin/);
  });

  it('allows the call itself and exposes the rate limit and request id headers', async () => {
    const { token } = await t.factories.user();
    const answer = await t
      .as(token)
      .get('/v1/user')
      .set('Origin', 'http://LOCALHOST:5173')
      .expect(200);
    expect(answer.headers['access-control-allow-origin']).toBe('http://LOCALHOST:5173');
    const exposed = answer.headers['access-control-expose-headers'].split(',');
    expect(exposed).toEqual(expect.arrayContaining(['X-Request-Id', 'X-RateLimit-Remaining']));
  });

  it('does not allow an origin that is not listed', async () => {
    for (const origin of ['https://evil.example.com', 'https://docs.example.com.evil.test']) {
      const answer = await preflight(t, origin);
      expect(answer.headers['access-control-allow-origin']).toBeUndefined();
    }
  });

  it('still authenticates the call: no token is a 401 the page can read', async () => {
    const answer = await t.anonymous.get('/v1/user').set('Origin', PAGE_ORIGIN).expect(401);
    expect(answer.headers['access-control-allow-origin']).toBe(PAGE_ORIGIN);
    expect(answer.body).toEqual({ error: { code: 401, message: expect.any(String) } });
  });
});

describe('CORS for any origin (*)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ CORS_ORIGINS: '*' });
  });
  afterAll(() => t.close());

  it('allows every origin, never with credentials', async () => {
    const answer = await preflight(t, 'https://anywhere.example').expect(204);
    expect(answer.headers['access-control-allow-origin']).toBe('*');
    expect(answer.headers['access-control-allow-credentials']).toBeUndefined();
  });
});

describe('compression and security headers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('compresses the API document for a client that accepts gzip', async () => {
    const answer = await rawGet(t, '/docs-json', { 'Accept-Encoding': 'gzip' });
    expect(answer.headers['content-encoding']).toBe('gzip');
    const json = gunzipSync(answer.body);
    expect((JSON.parse(json.toString('utf8')) as { openapi: string }).openapi).toMatch(/^3\./);
    expect(answer.body.length).toBeLessThan(json.length / 5);
  });

  it('sends small answers and answers to clients without gzip as they are', async () => {
    const { token } = await t.factories.user();
    const small = await t.as(token).get('/v1/user').set('Accept-Encoding', 'gzip').expect(200);
    expect(small.headers['content-encoding']).toBeUndefined();
    const plain = await request(t.server)
      .get('/docs-json')
      .set('Accept-Encoding', 'identity')
      .expect(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    // No Accept-Encoding at all: as it is, and whole.
    const bare = await rawGet(t, '/docs-json', {});
    expect(bare.headers['content-encoding']).toBeUndefined();
    expect((JSON.parse(bare.body.toString('utf8')) as { openapi: string }).openapi).toMatch(/^3\./);
  });

  it('sends security headers with every answer', async () => {
    const { token } = await t.factories.user();
    const answer = await t.as(token).get('/v1/user').expect(200);
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(answer.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    expect(answer.headers['content-security-policy']).toContain("default-src 'self'");
    expect(answer.headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
    expect(answer.headers['x-powered-by']).toBeUndefined();
  });

  it('serves Swagger UI under a policy that allows its own script and styles', async () => {
    const page = await request(t.server).get('/docs/').expect(200);
    const policy = page.headers['content-security-policy'] as string;
    expect(policy).toMatch(/script-src 'self'/);
    const scripts = [...page.text.matchAll(/<script[^>]*src="([^"]+)"/g)].map((m) => m[1]);
    expect(scripts.length).toBeGreaterThan(0);
    // Every script of the page comes from this origin (the policy allows no other).
    for (const src of scripts) expect(src).not.toMatch(/^https?:/);
    expect(page.text).not.toMatch(/<script>(?!\s*<\/script>)/);
  });
});

describe('TRUST_PROXY', () => {
  async function remainingFor(t: TestApp, forwardedFor: string): Promise<string> {
    const answer = await request(t.server).get('/v1/user').set('X-Forwarded-For', forwardedFor);
    return answer.headers['x-ratelimit-remaining'] as string;
  }

  it('keys anonymous clients by X-Forwarded-For when the proxy is trusted (loopback, the default)', async () => {
    const t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '5' });
    try {
      expect(await remainingFor(t, '203.0.113.1')).toBe('4');
      expect(await remainingFor(t, '203.0.113.1')).toBe('3');
      expect(await remainingFor(t, '203.0.113.2')).toBe('4');
    } finally {
      await t.close();
    }
  });

  it('ignores X-Forwarded-For from a proxy that is not trusted (TRUST_PROXY=false)', async () => {
    const t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '5', TRUST_PROXY: 'false' });
    try {
      expect(await remainingFor(t, '203.0.113.1')).toBe('4');
      expect(await remainingFor(t, '203.0.113.2')).toBe('3');
    } finally {
      await t.close();
    }
  });
});
