import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type {
  OperationObject,
  ParameterObject,
  SchemaObject,
} from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { errorExample } from './error-examples';
import { OPERATION_DESCRIPTIONS } from './operation-descriptions';
import { OPERATION_TAGS } from './operation-tags';
import { REQUEST_EXAMPLES } from './request-examples';
import { API_TAGS } from './tags';

const DESCRIPTION = `Self-hostable management API for documentation platforms, wire-compatible with
GitBook's public API (\`@gitbook/api\`): same paths, \`operationId\`s, fields and status codes.
Operations marked **Bindery only** (tagged \`x-bindery-only\`) are Bindery's own.

## Getting started

1. **A token.** The first start on an empty database prints a *Demo API token* (\`bnd_…\`) and
   the *Admin token*. The administrator creates users and their tokens (\`POST /v1/admin/users\`,
   \`POST /v1/admin/users/{userId}/tokens\`); a user makes more with \`POST /v1/user/tokens\`.
2. **Authorize.** Click *Authorize*, paste the token under \`user\`, then *Try it out* on an
   operation. Elsewhere, send \`Authorization: Bearer <token>\`.
3. **First calls.** \`GET /v1/user\` (who am I), \`GET /v1/orgs\` (my organizations),
   \`GET /v1/orgs/{organizationId}/spaces\`, then \`GET /v1/spaces/{spaceId}/content\`.

**Access.** Each operation's \`x-bindery-access\` says what it needs: \`<resource>:<role>\` or
\`<resource>:<action>\` on the resource named by the path (\`space:edit\`), \`any user\`, or
\`instance administrator\` (the admin API under \`/v1/admin\`). A resource the caller may not see
answers 404; one it sees but may not change, 403.

**Errors** are \`{"error": {"code": <status>, "message": "..."}}\`.
**Lists** take \`limit\` and \`page\`: pass the answer's \`next.page\` as \`page\` for the next
page; no \`next\` means the last page.
**Rate limits:** each token (or address) may send \`RATE_LIMIT_PER_MINUTE\` requests a minute
(600 by default); beyond, 429 with \`Retry-After\`.`;

/** The API document, with keys sorted so that the committed copy diffs cleanly. */
export function buildOpenApiDocument(app: INestApplication, serverUrl?: string): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('Bindery API')
    .setDescription(DESCRIPTION)
    .setVersion('1.0.0')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'An API token.' }, 'user')
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description:
          "A published site's token (`apiToken` of `resolvePublishedContentByUrl`): reads that " +
          "site's published content as its visitor may see it, nothing else.",
      },
      'siteReader',
    )
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description:
          "An integration's own token, which its script receives with each event " +
          '(`environment.apiTokens.integration`): its installations, their tokens, its tasks.',
      },
      'integration',
    )
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description:
          "An installation's token (`createIntegrationInstallationToken`, or " +
          '`environment.apiTokens.installation`): what the installation is installed on, ' +
          'within the scopes its integration holds.',
      },
      'integration-installation',
    );
  if (serverUrl) builder.addServer(serverUrl);
  const document = SwaggerModule.createDocument(app, builder.build());
  declarePathParameters(document);
  describeOperations(document);
  return sortKeys(document) as OpenAPIObject;
}

/**
 * Every parameter of a path is declared on each of its operations, including those a handler
 * does not read itself (its access policy reads them: `:spaceId` above a comment), in the order
 * Swagger gives the others (by name).
 */
function declarePathParameters(document: OpenAPIObject): void {
  for (const [path, item] of Object.entries(document.paths)) {
    const names = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
    for (const method of ['get', 'put', 'post', 'delete', 'patch'] as const) {
      const operation = item[method];
      if (!operation) continue;
      const parameters = (operation.parameters ?? []) as ParameterObject[];
      const missing = names.filter(
        (name) => !parameters.some((p) => p.in === 'path' && p.name === name),
      );
      if (missing.length === 0) continue;
      operation.parameters = [
        ...parameters,
        ...missing.map((name) => ({
          in: 'path' as const,
          name,
          required: true,
          schema: { type: 'string' as const },
        })),
      ].sort((a, b) => a.name.localeCompare(b.name));
    }
  }
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
const BINDERY_ONLY = 'Bindery only: ';

/** Every operation of the document with its path. */
export function operationsOf(
  document: OpenAPIObject,
): { path: string; method: string; operation: OperationObject }[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => ({
      path,
      method,
      operation: item[method] as OperationObject,
    })),
  );
}

/**
 * What the Swagger UI shows of each operation, done here for all of them: its one group
 * (GitBook's tag, or Bindery's own for operations GitBook does not have, then marked
 * `x-bindery-only` and "Bindery only:"), a description, a request example and an example body
 * for each error status. The document's `tags` list the groups used, described, in order.
 */
function describeOperations(document: OpenAPIObject): void {
  const binderyTags = new Set(API_TAGS.filter((tag) => tag.binderyOnly).map((tag) => tag.name));
  const schemas = (document.components?.schemas ?? {}) as Record<string, SchemaObject>;
  const used = new Set<string>();
  for (const { path, operation } of operationsOf(document)) {
    const id = operation.operationId ?? '';
    const tag = OPERATION_TAGS[id];
    // An operation missing from OPERATION_TAGS keeps its controller's tag; the unit test fails.
    if (tag) operation.tags = [tag];
    for (const name of operation.tags ?? []) used.add(name);
    // Bindery's operations said so in their own words; one marker now says it for all.
    const own = (operation.description ?? '').replace(
      /^(Bindery only:|Bindery's own\.|Not in GitBook.s API\.)\s*/,
      '',
    );
    const description = own || OPERATION_DESCRIPTIONS[id] || '';
    if (tag && binderyTags.has(tag)) {
      (operation as OperationObject & Record<string, unknown>)['x-bindery-only'] = true;
      operation.description = `${BINDERY_ONLY}${description}`;
    } else {
      operation.description = description;
    }
    const example = REQUEST_EXAMPLES[id];
    const body = operation.requestBody;
    if (example !== undefined && body && 'content' in body) {
      for (const media of Object.values(body.content)) media.example = example;
    }
    for (const [status, response] of Object.entries(operation.responses)) {
      const code = Number(status);
      if (code < 400 || !response || !('content' in response) || !response.content) continue;
      for (const media of Object.values(response.content)) {
        if (isErrorBody(media.schema)) media.example = errorExample(code, operation, path, schemas);
      }
    }
  }
  document.tags = API_TAGS.filter((tag) => used.has(tag.name)).map((tag) => ({
    name: tag.name,
    description: tag.description,
    ...(tag.binderyOnly ? { 'x-bindery-only': true } : {}),
  }));
}

/** Whether a body is the `{"error":{"code","message"}}` of every error (not an HTML page). */
export function isErrorBody(schema: unknown): boolean {
  return (
    typeof schema === 'object' &&
    schema !== null &&
    (schema as { $ref?: unknown }).$ref === '#/components/schemas/ErrorBody'
  );
}

/** Serves the API document and Swagger UI; answers the document. */
export function setupSwagger(app: INestApplication, serverUrl: string): OpenAPIObject {
  const document = buildOpenApiDocument(app, serverUrl);
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: 'docs-json',
    customSiteTitle: 'Bindery API',
    swaggerOptions: {
      persistAuthorization: true,
      // The operationId and the extensions (x-bindery-access, x-bindery-only) on each operation.
      displayOperationId: true,
      showExtensions: true,
      docExpansion: 'none',
      filter: true,
      // No tagsSorter: the groups keep the document's order (GitBook's), not alphabetical.
    },
  });
  return document;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
  );
}
