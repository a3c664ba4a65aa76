import { INestApplication, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { AccessRequirement, describeRequirement } from '../policy/access';
import { ACCESS_METADATA } from './access.decorator';

export interface RouteAccess {
  method: string;
  path: string;
  handler: string;
  /** undefined: the route declares no requirement (a defect). */
  access?: string;
}

/** Every route of the application with its declared access requirement. */
export function listRouteAccess(app: INestApplication): RouteAccess[] {
  const discovery = app.get(DiscoveryService);
  const scanner = app.get(MetadataScanner);
  const reflector = app.get(Reflector);
  const routes: RouteAccess[] = [];
  for (const wrapper of discovery.getControllers()) {
    const controller = wrapper.metatype as (new (...args: never[]) => object) | undefined;
    if (!controller) continue;
    const base = normalize(Reflect.getMetadata(PATH_METADATA, controller));
    for (const name of scanner.getAllMethodNames(controller.prototype)) {
      const handler = (controller.prototype as Record<string, unknown>)[name] as object;
      const path = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
      if (path === undefined) continue;
      const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number];
      const requirement = reflector.getAllAndOverride<AccessRequirement | undefined>(
        ACCESS_METADATA,
        [handler as () => void, controller],
      );
      routes.push({
        method,
        path: `/${[base, normalize(path)].filter(Boolean).join('/')}`,
        handler: `${controller.name}.${name}`,
        access: requirement ? describeRequirement(requirement) : undefined,
      });
    }
  }
  return routes.sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
}

/** Refuses to start an application with a route that declares no access requirement. */
export function assertEveryRouteDeclaresAccess(app: INestApplication): void {
  const missing = listRouteAccess(app).filter((route) => route.access === undefined);
  if (missing.length > 0) {
    const list = missing.map((r) => `${r.method} ${r.path} (${r.handler})`).join(', ');
    throw new Error(
      `Routes without an access requirement (@Access(...) or @Access.public()): ${list}`,
    );
  }
}

function normalize(path: string | string[] | undefined): string {
  const value = Array.isArray(path) ? path[0] : path;
  return (value ?? '').replace(/^\/+|\/+$/g, '');
}
