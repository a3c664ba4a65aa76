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

/**
 * What a start ends with, after every log line of the start (the logger writes synchronously):
 * where to go, the demo data a first start seeded, and last the administrator token when this
 * start generated it (in a frame: it is shown once), else how to get administrator access.
 */
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
  if (bindery.demo) {
    lines.push(
      `  Demo user:         ${bindery.demo.userEmail}`,
      `  Demo API token:    ${bindery.demo.token}`,
      `  Demo organization: ${bindery.demo.organizationId}`,
      `  Demo space:        ${bindery.demo.spaceId}`,
      `  Try it:            curl -H "Authorization: Bearer ${bindery.demo.token}" ${config.publicUrl}/v1/orgs/${bindery.demo.organizationId}`,
    );
  }
  if (bindery.generatedAdminToken) {
    lines.push(
      ...framed([
        `Admin token: ${bindery.generatedAdminToken}`,
        'Shown once (only its hash is kept): copy it now.',
        'To choose the token instead, set ADMIN_TOKEN (32+ characters).',
      ]),
    );
  } else if (config.ADMIN_TOKEN) {
    lines.push('  Admin token:       the one in ADMIN_TOKEN');
  } else {
    lines.push(
      '  Admin token:       the one printed at the first start (set ADMIN_TOKEN, 32+ characters, to choose one)',
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** `text` in a box drawn with box-drawing characters, indented as the banner's lines. */
function framed(text: string[]): string[] {
  const width = Math.max(...text.map((line) => line.length));
  return [
    `  ┌${'─'.repeat(width + 2)}┐`,
    ...text.map((line) => `  │ ${line.padEnd(width)} │`),
    `  └${'─'.repeat(width + 2)}┘`,
  ];
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
