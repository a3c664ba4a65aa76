import { Router, type Application, type NextFunction, type Request, type Response } from 'express';

/** What this file reads of the layers of an Express router's stack. */
interface StackLayer {
  name: string;
  handle: unknown;
  route?: { path: string | string[]; _handlesMethod(method: string): boolean };
}

/** Runs of fewer consecutive routes than this are left as Express lays them out. */
const SHORTEST_RUN = 16;

const indexes = new WeakSet<object>();

/**
 * Express tries an application's routes one after the other, matching each route's path
 * pattern against the request's path until one fits: with Bindery's ~380 routes, a request on
 * a route declared late runs hundreds of pattern matches (and allocates for each path that
 * fits with another method) before its own. After the application has started, `indexRoutes`
 * replaces each long run of consecutive routes in the stack with one layer that picks the
 * routes which can match from the first two segments of the request's path (`v1/spaces` of
 * `/v1/spaces/{id}/…`) and runs them, in their order, through an Express router of their own:
 * matching, parameters, HEAD on GET routes and errors are Express's, unchanged.
 *
 * A route whose path does not start with two literal segments (`/health`, `/v1/:x`, `*`) can
 * match any request: it is in every group, at its place in the order. Group keys follow the
 * application's case sensitivity. A run holding a route that answers OPTIONS (or every method)
 * is left as it is; in the others no route can answer OPTIONS, so an OPTIONS request goes past
 * the index to the handlers after it (Nest's not-found handler), as it went past the routes.
 * (Express's router answers such a request itself, with the methods of the routes whose path
 * fits, only when no handler after the routes answers it; the application always has one.)
 */
export function indexRoutes(express: Application): void {
  const stack = (express.router as unknown as { stack: StackLayer[] }).stack;
  const caseSensitive = Boolean(express.get('case sensitive routing'));
  const laidOut: StackLayer[] = [];
  let run: StackLayer[] = [];
  const endRun = () => {
    const indexable =
      run.length >= SHORTEST_RUN && run.every((layer) => !layer.route?._handlesMethod('OPTIONS'));
    if (indexable) laidOut.push(indexLayer(run, caseSensitive));
    else laidOut.push(...run);
    run = [];
  };
  for (const layer of stack) {
    if (layer.route) {
      run.push(layer);
    } else {
      endRun();
      laidOut.push(layer);
    }
  }
  endRun();
  stack.splice(0, stack.length, ...laidOut);
}

/** Whether a layer of an application's stack is one `indexRoutes` put there. */
export function isRouteIndex(layer: { handle?: unknown }): boolean {
  return typeof layer.handle === 'function' && indexes.has(layer.handle);
}

/** One middleware layer running, for each request, the routes of `routes` its path can match. */
function indexLayer(routes: StackLayer[], caseSensitive: boolean): StackLayer {
  const keyOf = (value: string) => (caseSensitive ? value : value.toLowerCase());
  const keys = routes.map((layer) => routeKey(layer.route!.path, keyOf));
  const groups = new Map<string, StackLayer[]>();
  for (const key of keys) if (key !== null && !groups.has(key)) groups.set(key, []);
  const anyPath: StackLayer[] = [];
  routes.forEach((layer, i) => {
    const key = keys[i];
    if (key !== null) {
      groups.get(key)!.push(layer);
      return;
    }
    anyPath.push(layer);
    for (const group of groups.values()) group.push(layer);
  });
  const routerOf = (layers: StackLayer[]) => {
    const router = Router();
    (router as unknown as { stack: StackLayer[] }).stack.push(...layers);
    return router;
  };
  const routers = new Map([...groups].map(([key, layers]) => [key, routerOf(layers)]));
  const others = routerOf(anyPath);

  const routeIndex = (request: Request, response: Response, next: NextFunction) => {
    // No route of the run answers OPTIONS (indexRoutes checks): on to what follows, without
    // the router's own answer listing the methods of the routes whose path fits.
    if (request.method === 'OPTIONS') return next();
    const key = requestKey(request.path, keyOf);
    const router = (key !== null && routers.get(key)) || others;
    router(request, response, next);
  };
  indexes.add(routeIndex);
  // A layer made the way Express makes one for `use(fn)` (matching every path).
  const holder = Router();
  holder.use(routeIndex);
  return (holder as unknown as { stack: StackLayer[] }).stack[0];
}

/** Literal segments only: no parameter, wildcard, group or escape of path-to-regexp's syntax. */
const LITERAL_SEGMENT = /^[A-Za-z0-9_.~-]+$/;

/** `v1/spaces` for `/v1/spaces/:spaceId`; null when the first two segments are not literal. */
function routeKey(path: string | string[], keyOf: (value: string) => string): string | null {
  const paths = Array.isArray(path) ? path : [path];
  const keys = new Set(
    paths.map((one) => {
      const [empty, first, second] = one.split('/', 3);
      const literal =
        empty === '' && LITERAL_SEGMENT.test(first ?? '') && LITERAL_SEGMENT.test(second ?? '');
      return literal ? keyOf(`${first}/${second}`) : null;
    }),
  );
  const [only] = keys;
  return keys.size === 1 ? only : null;
}

/** The first two segments of a request's path (`v1/spaces`), or null when it has fewer. */
function requestKey(pathname: string, keyOf: (value: string) => string): string | null {
  const second = pathname.indexOf('/', 1);
  if (pathname[0] !== '/' || second < 0) return null;
  const third = pathname.indexOf('/', second + 1);
  return keyOf(pathname.slice(1, third < 0 ? undefined : third));
}
