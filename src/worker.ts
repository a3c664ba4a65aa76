// First: tracing must start before `http`, Express and `pg` load (./setup, imported below).
import { startTracing } from './platform/tracing/tracing';
import { setPriority } from 'node:os';
import { ConfigurationError, loadConfig } from './platform/config/app-config';

/**
 * `npm run worker`: a process that only works background jobs (no HTTP listener), for
 * deployments that run the API with JOBS_IN_PROCESS=false and scale workers separately. It
 * runs at a lower CPU priority than the API (WORKER_NICENESS).
 */
async function main(): Promise<void> {
  const config = loadConfig(undefined, { JOBS_IN_PROCESS: true, SEED_DEMO: false });
  // Background work yields the CPU to the API processes of the same machine.
  if (config.WORKER_NICENESS > 0) setPriority(config.WORKER_NICENESS);
  startTracing(config, 'bindery-worker');
  const { closeOnSignals, createApp, logUnhandledRejections } = await import('./setup');
  const bindery = await createApp(config);
  process.stdout.write('Bindery worker is processing jobs.\n');
  closeOnSignals(bindery);
  logUnhandledRejections(bindery);
}

main().catch((error: unknown) => {
  process.stderr.write(
    error instanceof ConfigurationError
      ? `${error.message}\n`
      : `Worker failed to start: ${String(error)}\n`,
  );
  process.exit(1);
});
