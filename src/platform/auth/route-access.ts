import { INestApplication, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { AccessRequirement, describeRequirement } from '../policy/access';
import { PolicyService } from '../policy/policy.service';
import { ACCESS_METADATA } from './access.decorator';

export interface RouteAccess {
  method: string;
  path: string;
  handler: string;
  /** undefined: the route declares no requirement (a defect). */
  access?: string;
  requirement?: AccessRequirement;
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
        requirement,
      });
    }
  }
  return routes.sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
}

/**
 * Refuses to start an application with a route that declares no access requirement, or one
 * whose requirement names a resource type no module registered, or a role or action its
 * policy does not know, or that admits site readers to anything but a read of a resource
 * whose policy has a site-reader resolver.
 */
export function assertEveryRouteDeclaresAccess(app: INestApplication): void {
  const routes = listRouteAccess(app);
  const missing = routes.filter((route) => route.access === undefined);
  if (missing.length > 0) {
    throw new Error(
      `Routes without an access requirement (@Access(...) or @Access.public()): ${describe(missing)}`,
    );
  }
  const policy = app.get(PolicyService);
  const unknown = routes.filter(
    ({ requirement }) =>
      requirement?.kind === 'resource' && !policy.knows(requirement.resource, requirement.need),
  );
  if (unknown.length > 0) {
    throw new Error(`Routes needing what no access policy knows: ${describe(unknown)}`);
  }
  const readers = routes.filter(
    ({ requirement }) =>
      requirement?.kind === 'resource' &&
      requirement.siteReaders &&
      (!READS.has(requirement.need) || !policy.admitsSiteReaders(requirement.resource)),
  );
  if (readers.length > 0) {
    throw new Error(
      `Routes admitting site readers for more than a read, or on a resource closed to them: ${describe(readers)}`,
    );
  }
}

/** What a route admitting site readers may need of members: to see, or to read. */
const READS = new Set(['view', 'read']);

function describe(routes: RouteAccess[]): string {
  return routes.map((r) => `${r.method} ${r.path} (${r.handler}: ${r.access})`).join(', ');
}

function normalize(path: string | string[] | undefined): string {
  const value = Array.isArray(path) ? path[0] : path;
  return (value ?? '').replace(/^\/+|\/+$/g, '');
}
