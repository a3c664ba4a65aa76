import { INestApplication, NestInterceptor } from '@nestjs/common';
import { INTERCEPTORS_METADATA } from '@nestjs/common/constants';
import type { OpenAPIObject } from '@nestjs/swagger';
import type { OperationObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { operationsOf } from '../swagger/api-document';
import { declaredRoutes, type DeclaredRoute } from './declared-routes';

/** A route with its operation in the API document (none for routes the document leaves out). */
export interface DocumentedRoute extends DeclaredRoute {
  operation?: OperationObject;
  document: OpenAPIObject;
}

/**
 * An interceptor that runs only on the routes it applies to, decided once when the application
 * starts (bindRouteInterceptors) rather than on every request.
 */
export interface RouteInterceptor extends NestInterceptor {
  appliesTo(route: DocumentedRoute): boolean;
}

/** Per application: each handler's interceptors bound by bindRouteInterceptors, by class name. */
const boundNames = new WeakMap<INestApplication, Map<DeclaredRoute['handler'], string[]>>();

/**
 * Binds each of `interceptors` to the routes it applies to, in that order and ahead of a
 * route's own (`@UseInterceptors`). Nest reads a route's interceptors once, as `app.init()`
 * builds its router: a route none applies to runs none, and its handler is called with no
 * Observable around it. Call before `app.init()`, and `release()` after it: the handlers'
 * metadata is shared by every application of the process (tests build several), so each
 * puts back what the routes declared once its router is built.
 */
export function bindRouteInterceptors(
  app: INestApplication,
  document: OpenAPIObject,
  interceptors: RouteInterceptor[],
): { release(): void } {
  const operations = new Map(
    operationsOf(document).map(({ operation }) => [operation.operationId, operation]),
  );
  const declared = new Map<DeclaredRoute['handler'], unknown[] | undefined>();
  const names = new Map<DeclaredRoute['handler'], string[]>();
  for (const route of declaredRoutes(app)) {
    const documented = { ...route, operation: operations.get(route.operationId), document };
    const bound = interceptors.filter((interceptor) => interceptor.appliesTo(documented));
    names.set(
      route.handler,
      bound.map((interceptor) => interceptor.constructor.name),
    );
    if (bound.length === 0) continue;
    const own = Reflect.getMetadata(INTERCEPTORS_METADATA, route.handler) as unknown[] | undefined;
    declared.set(route.handler, own);
    Reflect.defineMetadata(INTERCEPTORS_METADATA, [...bound, ...(own ?? [])], route.handler);
  }
  boundNames.set(app, names);
  return {
    release() {
      for (const [handler, own] of declared) {
        if (own) Reflect.defineMetadata(INTERCEPTORS_METADATA, own, handler);
        else Reflect.deleteMetadata(INTERCEPTORS_METADATA, handler);
      }
    },
  };
}

/** The interceptors bindRouteInterceptors bound to `handler` in `app`, by class name. */
export function boundInterceptors(app: INestApplication, handler: DeclaredRoute['handler']) {
  return boundNames.get(app)?.get(handler) ?? [];
}
