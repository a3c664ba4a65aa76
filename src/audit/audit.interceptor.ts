import { CallHandler, ExecutionContext, Injectable, Logger } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { mergeMap, Observable } from 'rxjs';
import { ACCESS_METADATA } from '../platform/auth/access.decorator';
import type { Actor, AuthenticatedRequest } from '../platform/auth/actor';
import { API_OPERATION_METADATA, type DeclaredRoute } from '../platform/http/declared-routes';
import type { RouteInterceptor } from '../platform/http/route-interceptors';
import type { AccessRequirement, ResolvedAccess } from '../platform/policy/access';
import {
  AUDITED_OPERATIONS,
  type AuditedOperation,
  derivedOperation,
  UNAUDITED_OPERATIONS,
} from './audit-actions';
import { summariseChanges } from './audit-changes';
import { AuditEventsService, type NewAuditEvent } from './audit-events.service';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const MAX_LABEL = 256;
const MAX_USER_AGENT = 512;

type AuditedRequest = AuthenticatedRequest & {
  granted?: ResolvedAccess | null;
  /** The request's id (requestLogging), sent back as X-Request-Id. */
  id?: unknown;
};

/** What a route records, with its operationId. */
type RouteAudit = AuditedOperation & { id: string };

type JsonObject = Record<string, unknown>;
const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Records every successful write made through the API with a token: one INSERT once the
 * handler has answered, which is after its transaction committed (the event is not part of
 * it). The response waits for that INSERT, so a caller that got its 2xx finds the event; an
 * INSERT that fails is logged and the response goes out as it is. Failed requests (errors)
 * never reach it. It runs only on the writes it records (bound when the application starts).
 */
@Injectable()
export class AuditInterceptor implements RouteInterceptor {
  private readonly logger = new Logger('Audit');
  /** Per handler: what it records, or null for routes never audited. */
  private readonly operations = new WeakMap<object, RouteAudit | null>();

  constructor(
    private readonly reflector: Reflector,
    private readonly events: AuditEventsService,
  ) {}

  /** The writes a token's caller makes that are recorded (AUDITED_OPERATIONS, or derived). */
  appliesTo({ method, handler, controller }: DeclaredRoute): boolean {
    return WRITES.has(method) && this.operationOf(handler, controller) !== null;
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const request = context.switchToHttp().getRequest<AuditedRequest>();
    if (!WRITES.has(request.method)) return next.handle();
    const handler = context.getHandler() as DeclaredRoute['handler'];
    const operation = this.operationOf(handler, context.getClass());
    if (!operation) return next.handle();
    return next.handle().pipe(
      mergeMap(async (body: unknown) => {
        const response = context.switchToHttp().getResponse<Response>();
        if (response.statusCode >= 200 && response.statusCode < 300) {
          await this.record(request, operation, body);
        }
        return body;
      }),
    );
  }

  private operationOf(handler: DeclaredRoute['handler'], controller: object): RouteAudit | null {
    const known = this.operations.get(handler);
    if (known !== undefined) return known;
    const requirement = this.reflector.getAllAndOverride<AccessRequirement | undefined>(
      ACCESS_METADATA,
      [handler, controller as DeclaredRoute['handler']],
    );
    const operationId = this.reflector.get<{ operationId?: string } | undefined>(
      API_OPERATION_METADATA,
      handler,
    )?.operationId;
    const audited =
      requirement && requirement.kind !== 'public' && operationId
        ? UNAUDITED_OPERATIONS.has(operationId)
          ? null
          : {
              id: operationId,
              ...(AUDITED_OPERATIONS.get(operationId) ?? derivedOperation(operationId)),
            }
        : null;
    this.operations.set(handler, audited);
    return audited;
  }

  private async record(
    request: AuditedRequest,
    operation: RouteAudit,
    body: unknown,
  ): Promise<void> {
    try {
      const event = describeWrite(request, operation, body);
      if (event) await this.events.record(event);
    } catch (error) {
      // The write itself succeeded: its answer goes out, and the log says what was not recorded.
      this.logger.error(
        { err: error, operationId: operation.id, requestId: request.id },
        'Audit event not recorded',
      );
    }
  }
}

/** The event of one successful write; null when it changed nothing (an absent resource). */
export function describeWrite(
  request: AuditedRequest,
  operation: RouteAudit,
  body: unknown,
): NewAuditEvent | null {
  const actor = actorOf(request.actor);
  if (!actor) return null;
  const granted = request.granted;
  // A delete of an absent resource (`ifAbsent: 'proceed'`) answers 204 and changed nothing.
  if (granted === null) return null;
  const params = (request.params ?? {}) as Record<string, string>;
  const answer = isObject(body) ? body : undefined;
  // A route naming nothing (no path parameter, no id answered) changed something of its caller's.
  const target = targetOf(operation, params, answer, granted) ?? { id: actor.actorId, label: null };
  const organizationId =
    granted?.organizationId ??
    params.organizationId ??
    (answer?.object === 'organization' && typeof answer.id === 'string' ? answer.id : null) ??
    ownerOf(answer);
  const userAgent = request.headers['user-agent'];
  return {
    organizationId,
    action: operation.action,
    operationId: operation.id,
    ...actor,
    targetType: operation.target,
    targetId: target.id.slice(0, 256),
    targetLabel: target.label,
    method: request.method,
    requestId: typeof request.id === 'string' ? request.id.slice(0, 128) : null,
    ipAddress: request.ip?.slice(0, 64) ?? null,
    userAgent: typeof userAgent === 'string' ? userAgent.slice(0, MAX_USER_AGENT) : null,
    changes: summariseChanges(request.body),
  };
}

function actorOf(
  actor: Actor | undefined,
): Pick<NewAuditEvent, 'actorType' | 'actorId' | 'actorLabel' | 'tokenId'> | null {
  switch (actor?.kind) {
    case 'user':
      return {
        actorType: 'user',
        actorId: actor.userId,
        actorLabel: actor.user.displayName.slice(0, MAX_LABEL),
        tokenId: actor.tokenId,
      };
    case 'admin':
      return {
        actorType: 'support',
        actorId: 'admin',
        actorLabel: 'Instance administrator',
        tokenId: null,
      };
    case 'integration':
      return {
        actorType: 'integration',
        actorId: actor.integrationId,
        actorLabel: null,
        tokenId: null,
      };
    case 'installation':
      return {
        actorType: 'installation',
        actorId: actor.installationId,
        actorLabel: null,
        tokenId: null,
      };
    default:
      // Site readers and visitors only read.
      return null;
  }
}

/** A display label of an object, where it carries one. */
function labelOf(object: unknown): string | null {
  if (!isObject(object)) return null;
  for (const key of ['title', 'name', 'displayName', 'subject', 'label', 'slug']) {
    const value = object[key];
    if (typeof value === 'string' && value !== '') return value.slice(0, MAX_LABEL);
  }
  return null;
}

function targetOf(
  operation: AuditedOperation,
  params: Record<string, string>,
  answer: JsonObject | undefined,
  granted: ResolvedAccess | undefined,
): { id: string; label: string | null } | null {
  const from = operation.from ?? (operation.action.endsWith('.created') ? 'response' : undefined);
  const created =
    from === 'response' || from === 'response.slug'
      ? answer
      : from === 'response.user'
        ? answer?.user
        : undefined;
  const key = from === 'response.slug' ? 'slug' : 'id';
  let id: string | undefined;
  if (isObject(created) && typeof created[key] === 'string') id = created[key];
  else if (from?.startsWith('param:')) id = params[from.slice('param:'.length)];
  // The route's last path parameter names what it changes.
  id ??= Object.values(params).at(-1) ?? granted?.id;
  if (id === undefined) return null;
  const label =
    isObject(created) && created[key] === id
      ? labelOf(created)
      : answer?.id === id
        ? labelOf(answer)
        : granted?.id === id
          ? labelOf(granted.entity)
          : null;
  return { id, label };
}

/** The organization that owns an answered object (an integration's `owner`), if it names one. */
function ownerOf(answer: Record<string, unknown> | undefined): string | null {
  const owner = answer?.owner;
  return isObject(owner) && owner.object === 'organization' && typeof owner.id === 'string'
    ? owner.id
    : null;
}
