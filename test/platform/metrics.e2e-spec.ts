import { Lifecycle } from '../../src/platform/health/lifecycle';
import { createTestApp, TestApp } from '../helpers/app';

const METRICS_TOKEN = 'metrics-token-0123456789abcdef';

/** One sample of the exposition text: name, labels, value. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const SAMPLE = new RegExp(`^(${NAME})(?:\\{(.*)\\})? (\\S+)$`);
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** Parses Prometheus text format 0.0.4, failing on any line that is neither comment nor sample. */
function parseExposition(text: string): { samples: Sample[]; types: Map<string, string> } {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const type = new RegExp(`^# TYPE (${NAME}) (counter|gauge|histogram|summary|untyped)$`).exec(
      line,
    );
    if (type) {
      types.set(type[1], type[2]);
      continue;
    }
    if (new RegExp(`^# HELP ${NAME} `).test(line)) continue;
    const match = SAMPLE.exec(line);
    if (!match) throw new Error(`Not a Prometheus sample: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(LABEL)) labels[key] = value;
    // prom-client writes NaN as `Nan`; Prometheus reads it (Go's ParseFloat ignores case).
    const nan = /^nan$/i.test(match[3]);
    const value = match[3] === '+Inf' ? Infinity : nan ? NaN : Number(match[3]);
    if (Number.isNaN(value) && !nan) throw new Error(`Not a value: ${line}`);
    samples.push({ name: match[1], labels, value });
  }
  return { samples, types };
}

const find = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples.filter(
    (sample) =>
      sample.name === name &&
      Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );

describe('metrics and readiness', () => {
  describe('by default', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp();
    });
    afterAll(() => t.close());

    it('does not serve /metrics (404, as an unknown route)', async () => {
      const res = await t.anonymous.get('/metrics').expect(404);
      expect(res.body.error.message).toBe('No route GET /metrics.');
      await t.anonymous.get('/v1/metrics').expect(404);
    });

    it('GET /health/ready answers 200 with the lifecycle and the database up', async () => {
      const res = await t.anonymous.get('/health/ready').expect(200);
      expect(res.body).toEqual({
        status: 'ok',
        info: { lifecycle: { status: 'up', state: 'ready' }, database: { status: 'up' } },
        error: {},
        details: { lifecycle: { status: 'up', state: 'ready' }, database: { status: 'up' } },
      });
    });

    it('GET /health/ready answers 503 when the database does not answer in time', async () => {
      const query = jest
        .spyOn(t.dataSource, 'query')
        .mockImplementation(() => new Promise(() => undefined));
      try {
        const res = await t.anonymous.get('/health/ready').expect(503);
        expect(res.body.status).toBe('error');
        expect(res.body.details.database.status).toBe('down');
        expect(res.body.details.lifecycle.status).toBe('up');
      } finally {
        query.mockRestore();
      }
      await t.anonymous.get('/health/ready').expect(200);
    });

    it('GET /health/ready answers 503 once shutdown has begun; /health stays 200', async () => {
      t.bindery.app.get(Lifecycle).markStopping();
      const res = await t.anonymous.get('/health/ready').expect(503);
      expect(res.body).toEqual({
        status: 'error',
        info: {},
        error: { lifecycle: { status: 'down', state: 'stopping' } },
        details: { lifecycle: { status: 'down', state: 'stopping' } },
      });
      await t.anonymous.get('/health').expect(200);
    });
  });

  describe('with METRICS_TOKEN', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ METRICS_TOKEN });
    });
    afterAll(() => t.close());

    it('answers 401 without the token or with another one', async () => {
      const res = await t.anonymous.get('/metrics').expect(401);
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
      await t.as('some-other-token-0123456789').get('/metrics').expect(401);
      // An API token is not the metrics token.
      const user = await t.factories.user();
      await user.client.get('/metrics').expect(401);
    });

    it('serves Prometheus text: requests by route template, durations, pool and queues', async () => {
      const org = await t.factories.organization();
      await org.owner.client.get(`/v1/orgs/${org.id}`).expect(200);
      await org.owner.client.get(`/v1/orgs/${org.id}`).expect(200);
      await t.anonymous.get('/v1/no-such-route').expect(404);

      const res = await t.as(METRICS_TOKEN).get('/metrics').expect(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain;/);
      expect(res.headers['content-type']).toContain('version=0.0.4');
      expect(res.text).not.toContain(org.id);
      const { samples, types } = parseExposition(res.text);

      expect(types.get('http_requests_total')).toBe('counter');
      const orgRoute = { method: 'GET', route: '/v1/orgs/:organizationId' };
      expect(find(samples, 'http_requests_total', { ...orgRoute, status: '200' })).toEqual([
        expect.objectContaining({ value: 2 }),
      ]);
      expect(
        find(samples, 'http_requests_total', { route: 'unmatched', status: '404' })[0]?.value,
      ).toBeGreaterThanOrEqual(1);

      expect(types.get('http_request_duration_seconds')).toBe('histogram');
      const buckets = find(samples, 'http_request_duration_seconds_bucket', orgRoute);
      expect(buckets.map((bucket) => bucket.labels.le)).toEqual([
        '0.005',
        '0.01',
        '0.025',
        '0.05',
        '0.1',
        '0.25',
        '0.5',
        '1',
        '2.5',
        '5',
        '10',
        '+Inf',
      ]);
      expect(buckets.at(-1)!.value).toBe(2);
      expect(find(samples, 'http_request_duration_seconds_count', orgRoute)[0].value).toBe(2);
      expect(find(samples, 'http_request_duration_seconds_sum', orgRoute)[0].value).toBeGreaterThan(
        0,
      );

      for (const name of [
        'db_pool_connections',
        'db_pool_idle_connections',
        'db_pool_waiting_clients',
        'db_pool_max_connections',
      ]) {
        expect(types.get(name)).toBe('gauge');
        expect(find(samples, name)).toHaveLength(1);
      }
      expect(find(samples, 'db_pool_connections')[0].value).toBeGreaterThanOrEqual(1);
      expect(find(samples, 'db_pool_max_connections')[0].value).toBe(5);

      const depths = find(samples, 'job_queue_depth');
      expect(depths.length).toBeGreaterThan(0);
      for (const depth of depths) expect(depth.labels.queue).toBeTruthy();
      for (const name of ['job_queue_active', 'job_queue_failed', 'jobs_failed_total']) {
        expect(find(samples, name).map((sample) => sample.labels.queue)).toEqual(
          depths.map((depth) => depth.labels.queue),
        );
      }
      expect(types.get('jobs_failed_total')).toBe('counter');

      // Node's default process metrics.
      expect(find(samples, 'process_cpu_user_seconds_total')).toHaveLength(1);
      expect(find(samples, 'nodejs_heap_size_used_bytes')).toHaveLength(1);
    });

    it('counts the scrape itself under its route', async () => {
      await t.as(METRICS_TOKEN).get('/metrics').expect(200);
      const res = await t.as(METRICS_TOKEN).get('/metrics').expect(200);
      const { samples } = parseExposition(res.text);
      const scrapes = find(samples, 'http_requests_total', { route: '/metrics', status: '200' });
      expect(scrapes[0]?.value).toBeGreaterThanOrEqual(1);
    });
  });

  describe('with METRICS_ENABLED=true and no token', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ METRICS_ENABLED: 'true' });
    });
    afterAll(() => t.close());

    it('serves /metrics without a token', async () => {
      const res = await t.anonymous.get('/metrics').expect(200);
      expect(parseExposition(res.text).types.get('http_requests_total')).toBe('counter');
    });
  });
});
