import { getMetadataStorage } from 'class-validator';
import { CORE_SCHEMA, load, mergeTag } from 'js-yaml';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppConfig, loadConfig } from './app-config';

interface Service {
  build?: { context: string; args?: Record<string, string> };
  image?: string;
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test?: string[]; disable?: boolean };
}

/** `${NAME:?message}` and `${NAME}` as Compose substitutes them, from `env`. */
function substitute(value: string, env: Record<string, string>): string {
  return value.replace(/\$\{([A-Z0-9_]+)(?::\?[^}]*)?\}/g, (_, name: string) => env[name] ?? '');
}

/**
 * The scaled-out shape docker-compose.yml starts (PostgreSQL, MinIO, two API processes, a
 * worker) holds together: every Bindery service's settings are AppConfig's and load, they share
 * one database, bucket and secret, and one process runs the migrations.
 */
describe('docker-compose.yml', () => {
  // Compose merges `<<: *anchor` keys, as YAML 1.1 did.
  const file = load(readFileSync(join(__dirname, '..', '..', '..', 'docker-compose.yml'), 'utf8'), {
    schema: CORE_SCHEMA.withTags(mergeTag),
  }) as { services: Record<string, Service> };
  const services = file.services;
  const bindery = Object.entries(services).filter(([, service]) => service.build?.context === '.');
  const secrets = { ADMIN_TOKEN: 'a'.repeat(64), SECRET_KEY: 'b'.repeat(64) };
  const environmentOf = (service: Service) =>
    Object.fromEntries(
      Object.entries(service.environment ?? {}).map(([name, value]) => [
        name,
        substitute(String(value), secrets),
      ]),
    );
  const settings = new Set(
    getMetadataStorage()
      .getTargetValidationMetadatas(AppConfig, '', true, false)
      .map((metadata) => metadata.propertyName),
  );

  it('runs PostgreSQL, MinIO, two API processes and a worker', () => {
    expect(Object.keys(services)).toEqual(
      expect.arrayContaining(['postgres', 'minio', 'api-1', 'api-2', 'worker']),
    );
    expect(bindery.map(([name]) => name).sort()).toEqual(['api-1', 'api-2', 'worker']);
    expect(services.worker.command).toEqual(['node', 'dist/src/worker.js']);
  });

  it.each(['api-1', 'api-2', 'worker'])('gives %s settings Bindery knows and accepts', (name) => {
    const environment = environmentOf(services[name]);
    expect(Object.keys(environment).filter((setting) => !settings.has(setting))).toEqual([]);
    const config = loadConfig(environment);
    expect(config.BLOB_STORE).toBe('s3');
    expect(config.JOBS_IN_PROCESS).toBe(false);
    expect(config.seedDemo).toBe(false);
  });

  it.each(['api-1', 'api-2', 'worker'])(
    'builds %s as the image for PostgreSQL (no embedded database template)',
    (name) => {
      expect(services[name].build?.args).toEqual({ DATABASE: 'postgresql' });
    },
  );

  it('shares one database, bucket and secret, and runs the migrations in one process', () => {
    const environments = bindery.map(([, service]) => environmentOf(service));
    for (const setting of ['DATABASE_URL', 'S3_BUCKET', 'S3_ENDPOINT', 'SECRET_KEY']) {
      expect(new Set(environments.map((environment) => environment[setting])).size).toBe(1);
    }
    const migrating = bindery.filter(
      ([, service]) => environmentOf(service).MIGRATIONS_RUN !== 'false',
    );
    expect(migrating.map(([name]) => name)).toEqual(['api-1']);
    expect(services['api-2'].depends_on?.['api-1']).toEqual({ condition: 'service_healthy' });
    expect(services.worker.depends_on?.['api-1']).toEqual({ condition: 'service_healthy' });
  });

  it('starts the others once the first API process is ready (readiness, not liveness)', () => {
    expect(services['api-1'].healthcheck?.test?.join(' ')).toContain('/health/ready');
    // The image's own check (liveness) is what the other API process keeps.
    expect(readFileSync(join(__dirname, '..', '..', '..', 'Dockerfile'), 'utf8')).toMatch(
      /HEALTHCHECK[\s\S]*\/health'/,
    );
  });
});
