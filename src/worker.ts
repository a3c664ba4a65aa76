import { ConfigurationError, loadConfig } from './platform/config/app-config';
import { closeOnSignals, createApp, logUnhandledRejections } from './setup';

/**
 * `npm run worker`: a process that only works background jobs (no HTTP listener), for
 * deployments that run the API with JOBS_IN_PROCESS=false and scale workers separately.
 */
async function main(): Promise<void> {
  const config = loadConfig(undefined, { JOBS_IN_PROCESS: true, SEED_DEMO: false });
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
