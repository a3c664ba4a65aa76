import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { ParameterObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

const DESCRIPTION = `Self-hostable management API for documentation platforms, wire-compatible with
GitBook's public API (\`@gitbook/api\`). Authenticate with \`Authorization: Bearer <token>\`.
Every error is \`{"error": {"code": <status>, "message": "..."}}\`. Each operation's
\`x-bindery-access\` states what it requires: \`<resource>:<role>\` or \`<resource>:<action>\` on the
resource named by the path, \`any user\`, or \`instance administrator\` (the admin API under
/v1/admin).`;

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
    );
  if (serverUrl) builder.addServer(serverUrl);
  const document = SwaggerModule.createDocument(app, builder.build());
  declarePathParameters(document);
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

export function setupSwagger(app: INestApplication, serverUrl: string): void {
  const document = buildOpenApiDocument(app, serverUrl);
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: 'docs-json',
    customSiteTitle: 'Bindery API',
    swaggerOptions: { persistAuthorization: true },
  });
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
