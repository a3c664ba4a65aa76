import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Registry } from 'prom-client';
import { HttpMetrics, UNMATCHED_ROUTE } from './http-metrics';

describe('HttpMetrics', () => {
  let registry: Registry;
  let metrics: HttpMetrics;
  beforeEach(() => {
    registry = new Registry();
    metrics = new HttpMetrics(registry);
  });

  const values = async (name: string) =>
    (await registry.getSingleMetric(name)!.get()).values.map(({ labels, value }) => ({
      labels,
      value,
    }));

  it('counts by method, route and status, and times by method and route', async () => {
    metrics.record('GET', '/v1/orgs/:organizationId', 200, 0.003);
    metrics.record('GET', '/v1/orgs/:organizationId', 200, 0.2);
    metrics.record('GET', '/v1/orgs/:organizationId', 404, 0.001);
    metrics.record('POST', '/v1/orgs', 201, 0.02);
    expect(await values('http_requests_total')).toEqual([
      { labels: { method: 'GET', route: '/v1/orgs/:organizationId', status: '200' }, value: 2 },
      { labels: { method: 'GET', route: '/v1/orgs/:organizationId', status: '404' }, value: 1 },
      { labels: { method: 'POST', route: '/v1/orgs', status: '201' }, value: 1 },
    ]);
    const duration = (await registry.getSingleMetric('http_request_duration_seconds')!.get())
      .values as { metricName?: string; labels: Record<string, unknown>; value: number }[];
    const count = duration.filter(
      (value) =>
        value.metricName === 'http_request_duration_seconds_count' && value.labels.method === 'GET',
    );
    expect(count).toEqual([expect.objectContaining({ value: 3 })]);
    const fastest = duration.find(
      (value) => value.labels.le === 0.005 && value.labels.route === '/v1/orgs/:organizationId',
    );
    expect(fastest?.value).toBe(2);
  });

  /** A response that finishes when told, for the middleware. */
  function exchange(method: string, route?: string, status = 200) {
    const request = { method, ...(route ? { route: { path: route } } : {}) } as IncomingMessage;
    const response = Object.assign(new EventEmitter(), {
      req: request,
      statusCode: status,
    }) as unknown as ServerResponse;
    return { request, response };
  }

  it('records each response as it finishes, under its route template or `unmatched`', async () => {
    const middleware = metrics.middleware();
    const next = jest.fn();
    const matched = exchange('GET', '/v1/spaces/:spaceId', 200);
    const unmatched = exchange('GET', undefined, 404);
    middleware(matched.request, matched.response, next);
    middleware(unmatched.request, unmatched.response, next);
    expect(next).toHaveBeenCalledTimes(2);
    expect(await values('http_requests_total')).toEqual([]);
    matched.response.emit('finish');
    unmatched.response.emit('finish');
    expect(await values('http_requests_total')).toEqual([
      { labels: { method: 'GET', route: '/v1/spaces/:spaceId', status: '200' }, value: 1 },
      { labels: { method: 'GET', route: UNMATCHED_ROUTE, status: '404' }, value: 1 },
    ]);
  });
});
