import { INestApplication } from '@nestjs/common';
import {
  GUARDS_METADATA,
  INTERCEPTORS_METADATA,
  ROUTE_ARGS_METADATA,
} from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { ApplicationConfig } from '@nestjs/core';
import type { Application } from 'express';
import { boundInterceptors } from './route-interceptors';
import { declaredRoutes } from './declared-routes';
import { isRouteIndex } from './route-index';

/** What runs for a request on one route, in order, each by name. */
export interface RoutePipeline {
  operationId: string;
  route: string;
  /** Express middleware before the router: every request runs them. */
  middleware: string[];
  guards: string[];
  interceptors: string[];
  /** Each pipe with the handler parameters it is given. */
  pipes: string[];
}

const nameOf = (step: unknown): string =>
  typeof step === 'function'
    ? step.name || '(anonymous)'
    : ((step as { constructor?: { name?: string } } | null)?.constructor?.name ?? String(step));

/**
 * The steps a request on the operation `operationId` goes through in `app` (after init): the
 * application's Express middleware, its global guards and the route's, the route's interceptors
 * (global ones, those bound when it started, its own), and the pipes with the parameters they
 * run on. A new step on a hot route shows here (test/platform/hot-routes).
 */
export function routePipeline(app: INestApplication, operationId: string): RoutePipeline {
  const route = declaredRoutes(app).find((declared) => declared.operationId === operationId);
  if (!route) throw new Error(`No route with operationId ${operationId}`);
  const config = app.get(ApplicationConfig);
  const own = (key: string) => [
    ...((Reflect.getMetadata(key, route.controller) as unknown[] | undefined) ?? []),
    ...((Reflect.getMetadata(key, route.handler) as unknown[] | undefined) ?? []),
  ];
  const middleware = middlewareBefore(app, `/v1${route.path}`);
  const params = Object.entries(
    (Reflect.getMetadata(ROUTE_ARGS_METADATA, route.controller, route.name) ?? {}) as Record<
      string,
      { index: number; data?: unknown; pipes?: unknown[] }
    >,
  ).sort(([, a], [, b]) => a.index - b.index);
  const pipeable = params.filter(([key]) => isPipeable(key));
  const globalPipes = config.getGlobalPipes().map(nameOf);
  const pipes = pipeable.flatMap(([key, param]) => {
    const names = [...globalPipes, ...(param.pipes ?? []).map(nameOf)];
    return names.map((pipe) => `${pipe}: ${describeParam(key, param.data)}`);
  });
  return {
    operationId,
    route: `${route.method} ${route.path}`,
    middleware,
    guards: [
      ...config.getGlobalGuards().map(nameOf),
      ...config.getGlobalRequestGuards().map((wrapper) => String(wrapper.name)),
      ...own(GUARDS_METADATA).map(nameOf),
    ],
    interceptors: [
      ...config.getGlobalInterceptors().map(nameOf),
      ...config.getGlobalRequestInterceptors().map((wrapper) => String(wrapper.name)),
      ...boundInterceptors(app, route.handler),
      ...own(INTERCEPTORS_METADATA).map(nameOf),
    ],
    pipes,
  };
}

interface ExpressLayer {
  name: string;
  handle: unknown;
  route?: unknown;
  match(path: string): boolean;
}

/**
 * The Express middleware a request on `path` passes before the router's routes: those mounted
 * where it matches, up to the first route (Nest's not-found and error handlers come after).
 */
function middlewareBefore(app: INestApplication, path: string): string[] {
  const express = app.getHttpAdapter().getInstance() as Application;
  const stack = (express.router as unknown as { stack?: ExpressLayer[] }).stack ?? [];
  const firstRoute = stack.findIndex((layer) => layer.route || isRouteIndex(layer));
  return stack
    .slice(0, firstRoute < 0 ? stack.length : firstRoute)
    .filter((layer) => layer.match(path))
    .map((layer) => (layer.name === '<anonymous>' ? '(anonymous)' : layer.name));
}

/** Nest runs pipes on a handler's body, query, params and custom decorators (keys `3:0`, `…:0`). */
function isPipeable(key: string): boolean {
  const type = key.split(':')[0];
  const pipeable = [RouteParamtypes.BODY, RouteParamtypes.QUERY, RouteParamtypes.PARAM];
  return pipeable.map(String).includes(type) || !/^\d+$/.test(type);
}

function describeParam(key: string, data: unknown): string {
  const type = key.split(':')[0];
  const kind = /^\d+$/.test(type) ? RouteParamtypes[Number(type)].toLowerCase() : 'custom';
  return typeof data === 'string' ? `${kind} ${data}` : kind;
}
