import type {
  OperationObject,
  ParameterObject,
  ReferenceObject,
  SchemaObject,
} from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

/**
 * An example `{"error":{"code","message"}}` body for each error status an operation declares,
 * with a message of the kind the API answers there (the same wording as the guards, the policies,
 * the validation pipe and the services).
 */
export function errorExample(
  status: number,
  operation: OperationObject,
  path: string,
  schemas: Record<string, SchemaObject | ReferenceObject>,
): { error: { code: number; message: string } } {
  return { error: { code: status, message: messageFor(status, operation, path, schemas) } };
}

/** Messages of the 409 and 412 answers, by operation: each says what was refused. */
const CONFLICTS: Record<string, string> = {
  moveCollection: 'The collection is already at that position.',
  transferCollection: 'The collection already belongs to that organization.',
  updateOrganizationById: 'hostname already taken: another organization uses "docs.acme.example".',
  createOpenAPISpec: 'An OpenAPI specification with slug "payments-api" already exists.',
  updateSiteById: 'hostname already taken: another site uses "docs.acme.example".',
  createSiteRedirect: 'The site already has a redirect from /old/quickstart.',
  updateSiteRedirectById: 'The site already has a redirect from /old/quickstart.',
  updateSiteSectionById: 'The path is taken by another section.',
  updateSiteSpaceById: 'The path is taken by a sibling.',
  runTranslation: 'No translation provider is configured on this instance.',
  startSamlSignIn:
    'This SAML provider is still pending: set its entity ID, SSO URL and certificate.',
  updateChangeRequestContent: 'The change request is merged: its content cannot change.',
  mergeChangeRequest:
    'The change request is out of date: update it from the primary content first.',
  updateChangeRequest: 'The change request is merged: it cannot be updated.',
  applyTemplateToSpace:
    'The space is locked: its content cannot be edited until an administrator sets its edit mode back to live.',
  moveSpace: 'The space is already at that position.',
  transferSpace: 'The space already belongs to that organization.',
  adminCreateUser: 'A user with email ada@example.com already exists.',
};
const PRECONDITIONS: Record<string, string> = {
  transferCollection: 'The collection cannot be transferred: it holds a space published on a site.',
  transferSpace: 'The space cannot be transferred: it is published on a site.',
};
const IF_MATCH = "If-Match does not name the change request's head: read it again and retry.";

function messageFor(
  status: number,
  operation: OperationObject,
  path: string,
  schemas: Record<string, SchemaObject | ReferenceObject>,
): string {
  const id = operation.operationId ?? '';
  const access = (operation as unknown as Record<string, unknown>)['x-bindery-access'];
  switch (status) {
    case 400:
      return invalidInputMessage(operation, schemas);
    case 401:
      return 'Missing bearer token: send "Authorization: Bearer <token>".';
    case 403:
      return forbiddenMessage(typeof access === 'string' ? access : '');
    case 404:
      return `${resourceOfPath(path)} not found.`;
    case 409:
      return CONFLICTS[id] ?? 'This conflicts with an existing resource.';
    case 412:
      return PRECONDITIONS[id] ?? IF_MATCH;
    case 413:
      return 'The request body is too large: this route accepts up to 10485760 bytes.';
    case 415:
      return 'Unsupported content encoding.';
    case 429:
      return 'Too many requests. Retry after the delay in Retry-After.';
    case 502:
      return 'The integration did not answer as it should; its events say why.';
    default:
      return 'The service is unavailable.';
  }
}

/** What the policies answer when the caller sees the resource but lacks the role. */
function forbiddenMessage(access: string): string {
  if (access === 'instance administrator')
    return 'This route needs the instance administrator token.';
  const match = /^(\w+):(\w+)/.exec(access);
  if (!match) return 'The instance administrator token only works on /v1/admin routes.';
  const [, resource, need] = match;
  const noun = words(resource);
  // Seeing the resource is enough: the refusals left are of tokens that work elsewhere.
  if (need === 'view') return 'The instance administrator token only works on /v1/admin routes.';
  if (['admin', 'create', 'review', 'edit', 'comment', 'read'].includes(need))
    return `This needs the ${need} role on this ${noun}.`;
  return `You may not ${words(need)} this ${noun}.`;
}

/** "/v1/spaces/{spaceId}/comments/{commentId}" → "Comment". */
function resourceOfPath(path: string): string {
  const params = [...path.matchAll(/\{(\w+?)(Id|Slug)?\}/g)].map((m) => m[1]);
  const last = params.at(-1) ?? 'resource';
  const known: Record<string, string> = {
    organization: 'Organization',
    samlProvider: 'SAML provider',
    token: 'API token',
    commentReply: 'Comment reply',
    siteShareLink: 'Share link',
    invite: 'Invite',
    spec: 'OpenAPI specification',
    digest: 'File',
    pagePath: 'Page',
  };
  const name = known[last] ?? words(last);
  return name.charAt(0).toUpperCase() + name.slice(1);
}

function words(camel: string): string {
  return camel.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`);
}

/** A class-validator message about the first field of the body, else of the query. */
function invalidInputMessage(
  operation: OperationObject,
  schemas: Record<string, SchemaObject | ReferenceObject>,
): string {
  const resolve = (schema: SchemaObject | ReferenceObject | undefined): SchemaObject | undefined =>
    schema && '$ref' in schema
      ? (schemas[schema.$ref.split('/').pop() as string] as SchemaObject | undefined)
      : schema;
  const content =
    operation.requestBody && 'content' in operation.requestBody
      ? operation.requestBody.content
      : undefined;
  const body = resolve(content ? Object.values(content)[0]?.schema : undefined);
  const properties = body?.properties ?? {};
  const names = Object.keys(properties);
  const field = body?.required?.[0] ?? names[0];
  if (field) return fieldMessage(field, resolve(properties[field]) ?? {});
  const query = ((operation.parameters ?? []) as ParameterObject[]).filter((p) => p.in === 'query');
  if (query.some((p) => p.name === 'limit')) return 'limit must not be greater than 1000';
  if (query[0]) return fieldMessage(query[0].name, resolve(query[0].schema) ?? {});
  return 'A value has an invalid format.';
}

function fieldMessage(field: string, schema: SchemaObject): string {
  if (schema.enum) return `${field} must be one of the following values: ${schema.enum.join(', ')}`;
  switch (schema.type) {
    case 'string':
      return schema.maxLength
        ? `${field} must be shorter than or equal to ${schema.maxLength} characters`
        : `${field} must be a string`;
    case 'boolean':
      return `${field} must be a boolean value`;
    case 'integer':
    case 'number':
      return `${field} must be an integer number`;
    case 'array':
      return `${field} must be an array`;
    default:
      return `${field} must be an object`;
  }
}
