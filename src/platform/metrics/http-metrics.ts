import type { IncomingMessage, ServerResponse } from 'node:http';
import { Counter, Histogram, type Registry } from 'prom-client';
import { routeOf } from '../logging/request-logging';

/** Route label of a request no route matched (unknown path, refused before routing). */
export const UNMATCHED_ROUTE = 'unmatched';

/** Seconds: from 5 ms to 10 s. */
export const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The children of one method and route: bound once, reused by every request of the route. */
interface RouteSeries {
  duration: Histogram.Internal<'method' | 'route'>;
  byStatus: Map<number, Counter.Internal>;
}

/**
 * `http_requests_total` (method, route, status) and `http_request_duration_seconds`
 * (method, route). The route is the matched template (`/v1/orgs/:organizationId`), never the
 * URL, so that the series stay as many as the routes. Label children are looked up in nested
 * maps (no key string is built per request) and bound on first use.
 */
export class HttpMetrics {
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly duration: Histogram<'method' | 'route'>;
  private readonly series = new Map<string, Map<string, RouteSeries>>();

  constructor(registry: Registry) {
    this.requests = new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by method, route template and status.',
      labelNames: ['method', 'route', 'status'],
      registers: [registry],
    });
    this.duration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from the request to the end of its response, by method and route template.',
      labelNames: ['method', 'route'],
      buckets: DURATION_BUCKETS,
      registers: [registry],
    });
  }

  record(method: string, route: string, status: number, seconds: number): void {
    let routes = this.series.get(method);
    if (!routes) this.series.set(method, (routes = new Map()));
    let series = routes.get(route);
    if (!series) {
      series = { duration: this.duration.labels(method, route), byStatus: new Map() };
      routes.set(route, series);
    }
    let counter = series.byStatus.get(status);
    if (!counter) {
      counter = this.requests.labels(method, route, String(status));
      series.byStatus.set(status, counter);
    }
    counter.inc();
    series.duration.observe(seconds);
  }

  /**
   * Express middleware measuring each response as it finishes. Its `finish` listener is one
   * function for every request (the response is `this`); the start time rides on the response.
   */
  middleware() {
    const record = (response: TimedResponse) => {
      const request = response.req;
      const seconds = (performance.now() - response[STARTED_AT]) / 1000;
      this.record(
        request.method ?? 'UNKNOWN',
        routeOf(request) ?? UNMATCHED_ROUTE,
        response.statusCode,
        seconds,
      );
    };
    function onFinish(this: TimedResponse) {
      record(this);
    }
    return (_request: IncomingMessage, response: ServerResponse, next: () => void) => {
      (response as TimedResponse)[STARTED_AT] = performance.now();
      response.on('finish', onFinish);
      next();
    };
  }
}

const STARTED_AT = Symbol('metricsStartedAt');

type TimedResponse = ServerResponse & { [STARTED_AT]: number };
