import { NestFactory } from '@nestjs/core';
import type { OpenAPIObject } from '@nestjs/swagger';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { AppModule } from './app.module';
import { loadConfig } from './platform/config/app-config';
import { buildOpenApiDocument } from './platform/swagger/api-document';
import { applyRoutePrefix } from './setup';

/** Where the generated document is committed; CI fails when it differs from the code's. */
export const OPENAPI_FILE = join(__dirname, '..', '..', 'openapi', 'bindery.openapi.json');

/**
 * The API document as the code declares it, without a database (preview mode builds the module
 * graph without instantiating providers).
 */
export async function generateOpenApiDocument(): Promise<OpenAPIObject> {
  const config = loadConfig(
    {},
    { PUBLIC_URL: 'http://localhost:3000', DATABASE_URL: 'postgres://unused/unused' },
  );
  const app = await NestFactory.create(
    AppModule.forRoot(config, { url: config.DATABASE_URL as string, embedded: false }),
    {
      preview: true,
      logger: false,
    },
  );
  applyRoutePrefix(app);
  try {
    return buildOpenApiDocument(app);
  } finally {
    await app.close();
  }
}

/** `npm run openapi:generate`: writes the API document, sorted and stable. */
async function main(): Promise<void> {
  const document = await generateOpenApiDocument();
  mkdirSync(dirname(OPENAPI_FILE), { recursive: true });
  writeFileSync(OPENAPI_FILE, `${JSON.stringify(document, null, 2)}\n`);
  process.stdout.write(`Wrote ${OPENAPI_FILE}\n`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`Could not generate the API document: ${String(error)}\n`);
    process.exit(1);
  });
}
