import { INestApplication } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { declaredRoutes } from '../http/declared-routes';
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
  const reflector = app.get(Reflector);
  return declaredRoutes(app).map(({ method, path, controller, name, handler }) => {
    const requirement = reflector.getAllAndOverride<AccessRequirement | undefined>(
      ACCESS_METADATA,
      [handler, controller],
    );
    return {
      method,
      path,
      handler: `${controller.name}.${name}`,
      access: requirement ? describeRequirement(requirement) : undefined,
      requirement,
    };
  });
}

/**
 * Refuses to start an application with a route that declares no access requirement, or one
 * whose requirement names a resource type no module registered, or a role or action its
 * policy does not know, or that admits site readers to anything but a read of a resource
 * whose policy has a site-reader resolver, or integrations to a resource no module opened to
 * them.
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
  const integrations = routes.filter(
    ({ requirement }) =>
      requirement?.kind === 'resource' &&
      requirement.integrations &&
      !policy.admitsIntegrations(requirement.resource),
  );
  if (integrations.length > 0) {
    throw new Error(
      `Routes admitting integrations on a resource closed to them: ${describe(integrations)}`,
    );
  }
}

/** What a route admitting site readers may need of members: to see, or to read. */
const READS = new Set(['view', 'read']);

function describe(routes: RouteAccess[]): string {
  return routes.map((r) => `${r.method} ${r.path} (${r.handler}: ${r.access})`).join(', ');
}
