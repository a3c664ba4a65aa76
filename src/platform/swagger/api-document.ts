import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';

const DESCRIPTION = `Self-hostable management API for documentation platforms, wire-compatible with
GitBook's public API (\`@gitbook/api\`). Authenticate with \`Authorization: Bearer <token>\`.
Every error is \`{"error": {"code": <status>, "message": "..."}}\`. Each operation's
\`x-bindery-access\` states what it requires: \`<resource>:<role>\` on the resource named by the
path, \`any user\`, or \`instance administrator\` (the admin API under /v1/admin).`;

/** The API document, with keys sorted so that the committed copy diffs cleanly. */
export function buildOpenApiDocument(app: INestApplication, serverUrl?: string): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('Bindery API')
    .setDescription(DESCRIPTION)
    .setVersion('1.0.0')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'An API token.' }, 'user');
  if (serverUrl) builder.addServer(serverUrl);
  const document = SwaggerModule.createDocument(app, builder.build());
  return sortKeys(document) as OpenAPIObject;
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
