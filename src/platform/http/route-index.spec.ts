import express, { type Application, type NextFunction, type Request, type Response } from 'express';
import request from 'supertest';
import { indexRoutes, isRouteIndex } from './route-index';

/**
 * An application laid out as Nest lays out Bindery's: middleware, a long run of routes (some
 * whose path starts with a parameter or has one segment), then a not-found handler and an
 * error handler. Each route answers which route it is, so two layouts can be compared.
 */
function application(options: { caseSensitive?: boolean; optionsRoute?: boolean } = {}) {
  const app = express();
  if (options.caseSensitive) app.set('case sensitive routing', true);
  app.use((_request: Request, response: Response, next: NextFunction) => {
    response.setHeader('X-Before', 'yes');
    next();
  });
  const answer = (name: string) => (req: Request, res: Response) =>
    void res.json({ route: name, params: req.params, path: req.route?.path, url: req.url });
  app.get('/health', answer('health'));
  for (const area of ['orgs', 'spaces', 'collections', 'sites']) {
    app.get(`/v1/${area}/:id`, answer(`get ${area}`));
    app.patch(`/v1/${area}/:id`, answer(`patch ${area}`));
    app.get(`/v1/${area}/:id/items/:item`, answer(`get ${area} item`));
    app.get(`/v1/${area}/:id/content/path/*page`, answer(`get ${area} page`));
    app.delete(`/v1/${area}`, answer(`delete ${area}`));
  }
  // A route after others of its group that another route of the group also matches: order wins.
  app.get('/v1/spaces/special', answer('special, never reached'));
  app.get('/v1/:anything/echo', answer('any echo'));
  app.get('/v1/spaces/:id/echo', answer('spaces echo, after any echo'));
  app.get('/v1/fails/:id', () => {
    throw new Error('handler failed');
  });
  app.get('/v1/skips/:id', (_req, _res, next) => next());
  app.get('/v1/skips/:id', answer('second skips'));
  if (options.optionsRoute) app.options('/v1/orgs/:id', answer('options orgs'));
  app.use((_request: Request, response: Response) => void response.status(404).json({ nf: 1 }));
  app.use((error: Error, _request: Request, response: Response, _next: NextFunction) => {
    response.status(500).json({ error: error.message });
  });
  return app;
}

const REQUESTS: [string, string][] = [
  ['GET', '/health'],
  ['GET', '/health/'],
  ['GET', '/v1/orgs/o1'],
  ['GET', '/V1/ORGS/o1'],
  ['GET', '/v1/orgs/o1/'],
  ['GET', '/v1/orgs/o1?x=1'],
  ['HEAD', '/v1/orgs/o1'],
  ['PATCH', '/v1/spaces/s1'],
  ['POST', '/v1/spaces/s1'],
  ['OPTIONS', '/v1/spaces/s1'],
  ['DELETE', '/v1/sites'],
  ['DELETE', '/v1/sites/'],
  ['GET', '/v1/sites'],
  ['GET', '/v1/collections/c1/items/i%20one'],
  ['GET', '/v1/collections/c1/items/%E0%A4%A'],
  ['GET', '/v1/spaces/s1/content/path/a/b/c'],
  ['GET', '/v1/spaces/special'],
  ['GET', '/v1/spaces/s1/echo'],
  ['GET', '/v1/orgs/o1/echo'],
  ['GET', '/v1/collections/echo'],
  ['GET', '/v1/unknown/echo'],
  ['GET', '/v1//orgs/o1'],
  ['GET', '/v1/%6Frgs/o1'],
  ['GET', '/v1'],
  ['GET', '/v1/'],
  ['GET', '/'],
  ['GET', '/v1/fails/1'],
  ['GET', '/v1/skips/1'],
  ['GET', '/nowhere/at/all'],
];

async function answers(app: Application) {
  const results = [];
  for (const [method, path] of REQUESTS) {
    const response = await request(app)[method.toLowerCase() as 'get'](path);
    results.push({
      request: `${method} ${path}`,
      status: response.status,
      body: response.body as unknown,
      before: response.headers['x-before'],
      allow: response.headers['allow'],
    });
  }
  return results;
}

describe('indexRoutes', () => {
  it('answers every request as the application laid out by Express does', async () => {
    const indexed = application();
    indexRoutes(indexed);
    const expected = await answers(application());
    expect(await answers(indexed)).toEqual(expected);
    // The comparison covers what matters: these are the layout's own answers.
    const byRequest = new Map(expected.map((answer) => [answer.request, answer]));
    expect(byRequest.get('GET /V1/ORGS/o1')?.body).toMatchObject({ route: 'get orgs' });
    expect(byRequest.get('GET /v1/unknown/echo')?.body).toMatchObject({ route: 'any echo' });
    expect(byRequest.get('GET /v1/collections/echo')?.body).toMatchObject({
      route: 'get collections',
    });
    expect(byRequest.get('GET /v1/spaces/s1/echo')?.body).toMatchObject({
      route: 'spaces echo, after any echo',
    });
    expect(byRequest.get('GET /v1/spaces/special')?.body).toMatchObject({ route: 'get spaces' });
    expect(byRequest.get('GET /v1/skips/1')?.body).toMatchObject({ route: 'second skips' });
    expect(byRequest.get('GET /v1/fails/1')?.status).toBe(500);
    expect(byRequest.get('OPTIONS /v1/spaces/s1')?.status).toBe(404);
    expect(byRequest.get('GET /v1/collections/c1/items/%E0%A4%A')?.body).toEqual({
      error: "Failed to decode param '%E0%A4%A'",
    });
  });

  it('puts one layer in place of the run of routes, after the middleware', () => {
    const app = application();
    const stack = (app.router as unknown as { stack: { route?: unknown; handle: unknown }[] })
      .stack;
    const before = stack.length;
    indexRoutes(app);
    expect(stack.filter((layer) => layer.route)).toHaveLength(0);
    expect(stack.filter((layer) => isRouteIndex(layer))).toHaveLength(1);
    expect(stack.length).toBeLessThan(before - 20);
    expect(stack.findIndex((layer) => isRouteIndex(layer))).toBeGreaterThan(0);
  });

  it('follows case-sensitive routing', async () => {
    const app = application({ caseSensitive: true });
    indexRoutes(app);
    expect(await answers(app)).toEqual(await answers(application({ caseSensitive: true })));
    const upper = await request(app).get('/V1/ORGS/o1');
    expect(upper.status).toBe(404);
  });

  it('leaves a run with an OPTIONS route as it is', async () => {
    const app = application({ optionsRoute: true });
    const stack = (app.router as unknown as { stack: { route?: unknown }[] }).stack;
    const routes = stack.filter((layer) => layer.route).length;
    indexRoutes(app);
    expect(stack.filter((layer) => layer.route)).toHaveLength(routes);
    expect((await request(app).options('/v1/orgs/o1')).body).toMatchObject({
      route: 'options orgs',
    });
  });
});
