import { INestApplication, RequestMethod, Type } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';

/** Where `@ApiOperation` keeps its options (@nestjs/swagger's `DECORATORS.API_OPERATION`, not exported). */
export const API_OPERATION_METADATA = 'swagger/apiOperation';

/** A route as its controller declares it. */
export interface DeclaredRoute {
  /** `GET`, `POST`, … */
  method: string;
  /** `/orgs/:organizationId`: the controller's path and the handler's, without the global prefix. */
  path: string;
  controller: Type<object>;
  /** The handler's method name on the controller. */
  name: string;
  /** The handler itself, where Nest reads its metadata. */
  handler: (...args: unknown[]) => unknown;
  /** Its `@ApiOperation`'s operationId, when it has one. */
  operationId?: string;
}

/** Every route of the application's controllers. */
export function declaredRoutes(app: INestApplication): DeclaredRoute[] {
  const discovery = app.get(DiscoveryService);
  const scanner = app.get(MetadataScanner);
  const routes: DeclaredRoute[] = [];
  for (const wrapper of discovery.getControllers()) {
    const controller = wrapper.metatype as Type<object> | undefined;
    if (!controller) continue;
    const base = normalize(Reflect.getMetadata(PATH_METADATA, controller));
    const prototype = controller.prototype as Record<string, DeclaredRoute['handler']>;
    for (const name of scanner.getAllMethodNames(prototype)) {
      const handler = prototype[name];
      const path = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
      if (path === undefined) continue;
      routes.push({
        method: RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number],
        path: `/${[base, normalize(path)].filter(Boolean).join('/')}`,
        controller,
        name,
        handler,
        operationId: (
          Reflect.getMetadata(API_OPERATION_METADATA, handler) as
            { operationId?: string } | undefined
        )?.operationId,
      });
    }
  }
  return routes.sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
}

function normalize(path: string | string[] | undefined): string {
  const value = Array.isArray(path) ? path[0] : path;
  return (value ?? '').replace(/^\/+|\/+$/g, '');
}
