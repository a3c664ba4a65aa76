/**
 * OpenTelemetry tracing, when the standard OTEL_* settings name an OTLP endpoint (see
 * AppConfig.tracesEndpoint). The entry points start it before anything loads `http`, Express
 * or `pg`, so that the instrumentations can wrap them. When it is off, nothing of the SDK is
 * loaded: this module imports no OpenTelemetry code, `./sdk` is required only once it is on.
 */
import type { AppConfig } from '../config/app-config';
import type { Tracing, TracingSettings } from './types';

export type { JobSpan, TracedJob, Tracing, TracingSettings } from './types';

/** How long the flush at shutdown may take, after the application has closed. */
export const TRACING_SHUTDOWN_MS = 5_000;

let active: Tracing | undefined;

/** The settings to start tracing with, or undefined when tracing is off. */
export function tracingSettings(
  config: AppConfig,
  defaultServiceName: string,
): TracingSettings | undefined {
  const endpoint = config.tracesEndpoint;
  if (!endpoint) return undefined;
  return {
    serviceName: config.OTEL_SERVICE_NAME ?? defaultServiceName,
    endpoint,
    protocol: config.tracesProtocol,
    logLevel: config.LOG_LEVEL,
  };
}

/**
 * Starts tracing when the settings ask for it (once per process), before the modules it
 * instruments load: `http`, Express, Nest, `pg`. `defaultServiceName` names the process
 * unless OTEL_SERVICE_NAME does (`bindery`, `bindery-worker`).
 */
export function startTracing(config: AppConfig, defaultServiceName: string): Tracing | undefined {
  if (active) return active;
  const settings = tracingSettings(config, defaultServiceName);
  if (!settings) return undefined;
  // Required here, not imported above: with tracing off, the SDK is never loaded.
  const { startSdk } = require('./sdk') as typeof import('./sdk');
  active = startSdk(settings);
  return active;
}

/** Tracing in this process, when it was started. */
export function currentTracing(): Tracing | undefined {
  return active;
}

/** Exports what is left and ends tracing (at shutdown, once the application has closed). */
export async function stopTracing(timeoutMs = TRACING_SHUTDOWN_MS): Promise<void> {
  const tracing = active;
  active = undefined;
  await tracing?.shutdown(timeoutMs);
}
