import { CallHandler, ExecutionContext, Injectable } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import type {
  OperationObject,
  ReferenceObject,
  SchemaObject,
} from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { from, map, mergeMap, Observable, of } from 'rxjs';
import type { AuthenticatedRequest } from '../auth/actor';
import type { DocumentedRoute, RouteInterceptor } from '../http/route-interceptors';
import type { ResolvedAccess } from './access';
import { PolicyService } from './policy.service';

interface UserObject {
  object: 'user';
  id: string;
  email?: string;
}

/**
 * Who sees a user's email address: the person, the admins of the organization the request is
 * about, and the instance administrator. Everyone else sees GitBook's `User` without `email`
 * (name and photo only). Decided here, once, for every response: each user object of a
 * response body (`object: 'user'`, however deep) loses its `email` unless the caller may see
 * it. Presenters build a fresh body per response, so the objects are changed in place.
 * It runs on the routes whose answer may hold a user (bound when the application starts:
 * mayHoldUsers), not on the others.
 */
@Injectable()
export class EmailPrivacyInterceptor implements RouteInterceptor {
  constructor(private readonly policy: PolicyService) {}

  appliesTo({ operation, document }: DocumentedRoute): boolean {
    return mayHoldUsers(operation, document);
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const request = context
      .switchToHttp()
      .getRequest<AuthenticatedRequest & { granted?: ResolvedAccess }>();
    return next.handle().pipe(
      mergeMap((body: unknown) => {
        const actor = request.actor;
        if (actor?.kind === 'admin') return of(body);
        const userId = actor?.kind === 'user' ? actor.userId : undefined;
        const others = usersOtherThan(body, userId);
        // Most bodies show no one else's email: they go on as they are, with no promise.
        if (others.length === 0) return of(body);
        return from(this.redact(body, others, userId, request.granted));
      }),
    );
  }

  /** `body` without the emails of `others`, unless the caller administers their organization. */
  private async redact(
    body: unknown,
    others: UserObject[],
    userId: string | undefined,
    granted: ResolvedAccess | undefined,
  ): Promise<unknown> {
    if (userId && (await this.isOrganizationAdmin(userId, granted))) return body;
    for (const user of others) delete user.email;
    return body;
  }

  /** Whether the caller administers the organization of the route's resource. */
  private async isOrganizationAdmin(
    userId: string,
    granted: ResolvedAccess | undefined,
  ): Promise<boolean> {
    if (!granted) return false;
    if (granted.resource === 'organization') return granted.role === 'admin';
    const organization = await this.policy.resolve(userId, 'organization', granted.organizationId);
    return organization?.role === 'admin';
  }
}

/**
 * For tests: bound to the routes EmailPrivacyInterceptor does not run on, fails (500) an answer
 * that holds a user with an email there, which would mean the route's declared answer is wrong
 * and that email went out unchecked. Every e2e test checks the binding this way.
 */
@Injectable()
export class EmailPrivacyCheck implements RouteInterceptor {
  constructor(private readonly privacy: EmailPrivacyInterceptor) {}

  appliesTo(route: DocumentedRoute): boolean {
    return !this.privacy.appliesTo(route);
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      map((body: unknown) => {
        if (usersOtherThan(body, undefined).length > 0) {
          const route = `${context.getClass().name}.${context.getHandler().name}`;
          throw new Error(
            `${route} answered a user with an email, but its declared answer holds no user`,
          );
        }
        return body;
      }),
    );
  }
}

function isPlainContainer(value: unknown): value is Record<string, unknown> | unknown[] {
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return true;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/** The user objects with an email in `body` that are not `viewerId`'s own. */
function usersOtherThan(body: unknown, viewerId: string | undefined): UserObject[] {
  const found: UserObject[] = [];
  const stack: unknown[] = [body];
  while (stack.length > 0) {
    const value = stack.pop();
    if (!isPlainContainer(value)) continue;
    if (Array.isArray(value)) {
      for (const item of value) if (typeof item === 'object' && item !== null) stack.push(item);
      continue;
    }
    if (value.object === 'user' && typeof value.email === 'string' && value.id !== viewerId) {
      found.push(value as unknown as UserObject);
    }
    for (const child of Object.values(value)) {
      if (typeof child === 'object' && child !== null) stack.push(child);
    }
  }
  return found;
}

/**
 * Whether a JSON answer of `operation` may hold a user, as the API document declares its
 * answers: a schema that reaches GitBook's `User` (an object whose `object` is `user`), however
 * deep, or one that could be anything (a success without content or schema). A free-form
 * object (GitBook's documents, settings) is not taken for one: presenters put users only where
 * the API document says, which every e2e test checks (EmailPrivacyCheck). A route the document
 * leaves out may answer anything. Answers that are not JSON (pages, streams, files) hold none
 * that this interceptor could see.
 */
export function mayHoldUsers(
  operation: OperationObject | undefined,
  document: OpenAPIObject,
): boolean {
  if (!operation) return true;
  const schemas = (document.components?.schemas ?? {}) as Record<
    string,
    SchemaObject | ReferenceObject
  >;
  const seen = new Set<string>();
  const reaches = (schema: SchemaObject | ReferenceObject | undefined): boolean => {
    if (!schema) return true;
    if ('$ref' in schema) {
      const name = schema.$ref.replace('#/components/schemas/', '');
      if (seen.has(name)) return false;
      seen.add(name);
      return reaches(schemas[name]);
    }
    if (isUserSchema(schema)) return true;
    const parts = [...(schema.allOf ?? []), ...(schema.oneOf ?? []), ...(schema.anyOf ?? [])];
    if (parts.length > 0) return parts.some(reaches);
    if (schema.type === 'array') return reaches(schema.items);
    if (schema.type !== undefined && schema.type !== 'object') return false;
    const properties = Object.values(schema.properties ?? {});
    const extra = schema.additionalProperties;
    return properties.some(reaches) || (typeof extra === 'object' && reaches(extra));
  };
  return Object.entries(operation.responses ?? {}).some(([status, response]) => {
    const code = Number(status);
    if (code >= 300 || code === 204 || !response || '$ref' in response) return false;
    // A success declared without its content may answer anything.
    if (!response.content) return true;
    return Object.entries(response.content).some(
      ([type, media]) => isJson(type) && reaches(media.schema),
    );
  });
}

const isJson = (type: string) => type === 'application/json' || type.endsWith('+json');

function isUserSchema(schema: SchemaObject): boolean {
  const object = schema.properties?.object as SchemaObject | undefined;
  return object?.enum?.length === 1 && object.enum[0] === 'user';
}
