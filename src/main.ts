// First: tracing must start before `http`, Express and `pg` load (./setup, imported below).
import { startTracing } from './platform/tracing/tracing';
import { AppConfig, ConfigurationError, loadConfig } from './platform/config/app-config';
import { prepareEmbeddedFolder } from './platform/database/database';
import type { BinderyApp } from './setup';

async function main(): Promise<void> {
  const config = loadConfig();
  startTracing(config, 'bindery');
  // A first start copies the shipped database while the application's modules load.
  const folderReady = prepareEmbeddedFolder(config);
  const { closeOnSignals, createApp, logUnhandledRejections } = await import('./setup');
  await folderReady;
  const bindery = await createApp(config);
  await bindery.app.listen(config.PORT, config.HOST);
  closeOnSignals(bindery);
  logUnhandledRejections(bindery);
  // performance.now() counts from the process start, module loading included.
  printBanner(bindery, config, performance.now());
}

function printBanner(bindery: BinderyApp, config: AppConfig, elapsedMs: number): void {
  const lines = [
    '',
    `Bindery is ready on ${config.publicUrl} (${Math.round(elapsedMs)} ms, ${
      bindery.database.embedded
        ? `embedded database in ${config.inMemory ? 'memory' : config.DATA_DIR}`
        : 'PostgreSQL'
    })`,
    `  Swagger UI:        ${config.publicUrl}/docs`,
  ];
  if (bindery.generatedAdminToken) {
    lines.push(`  Admin token:       ${bindery.generatedAdminToken}   (shown once: keep it)`);
  }
  if (bindery.demo) {
    lines.push(
      `  Demo user:         ${bindery.demo.userEmail}`,
      `  Demo API token:    ${bindery.demo.token}`,
      `  Demo organization: ${bindery.demo.organizationId}`,
      `  Demo space:        ${bindery.demo.spaceId}`,
      `  Try it:            curl -H "Authorization: Bearer ${bindery.demo.token}" ${config.publicUrl}/v1/orgs/${bindery.demo.organizationId}`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n\n`);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigurationError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(
      `Bindery failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
  }
  process.exit(1);
});
