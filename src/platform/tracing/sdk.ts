import {
  context,
  defaultTextMapGetter,
  defaultTextMapSetter,
  type DiagLogger,
  diag,
  DiagLogLevel,
  type Link,
  ROOT_CONTEXT,
  type SpanContext,
  SpanKind,
  SpanStatusCode,
  trace,
  type Tracer,
} from '@opentelemetry/api';
import { OTLPTraceExporter as OtlpJsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OtlpProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { ExpressInstrumentation, ExpressLayerType } from '@opentelemetry/instrumentation-express';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { NestInstrumentation } from '@opentelemetry/instrumentation-nestjs-core';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { core, NodeSDK, resources, type tracing } from '@opentelemetry/sdk-node';
import pino from 'pino';
import { redactSpanAttributes } from './redact-span';
import type { JobSpan, TracedJob, Tracing, TracingSettings } from './types';
import { buildInfo } from '../build-info';

/** Requests never traced: health checks and scrapes, many and all alike. */
const UNTRACED_PATHS = new Set(['/health', '/health/ready', '/metrics']);

/** Jobs carry the W3C traceparent whatever OTEL_PROPAGATORS says for HTTP. */
const traceContext = new core.W3CTraceContextPropagator();

/**
 * Starts the OpenTelemetry SDK (required by `startTracing` only when tracing is on): spans of
 * HTTP requests (in and out), Express routes, Nest handlers and `pg` queries, batched and
 * posted to the OTLP endpoint. Everything else of the SDK (sampler, batch sizes, export
 * timeout and headers, resource attributes) reads its standard OTEL_* variables.
 */
export function startSdk(settings: TracingSettings): Tracing {
  diag.setLogger(diagLogger(settings.logLevel), {
    logLevel: DiagLogLevel.WARN,
    suppressOverrideMessage: true,
  });
  const Exporter = settings.protocol === 'http/json' ? OtlpJsonExporter : OtlpProtobufExporter;
  const sdk = new NodeSDK({
    // Ours first; OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES (the env detector) win.
    resource: resources.defaultResource().merge(
      resources.resourceFromAttributes({
        'service.name': settings.serviceName,
        'service.version': buildInfo().version,
      }),
    ),
    traceExporter: new RedactingExporter(new Exporter({ url: settings.endpoint })),
    // Traces only: no metrics or logs, whatever OTEL_METRICS_EXPORTER or OTEL_LOGS_EXPORTER say.
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request) => UNTRACED_PATHS.has(pathOf(request.url)),
        // Outbound calls are traced within a request or a job, never on their own.
        requireParentforOutgoingSpans: true,
      }),
      // For the route template of the request's span only: Nest's spans stand for the layers.
      new ExpressInstrumentation({
        ignoreLayersType: [
          ExpressLayerType.MIDDLEWARE,
          ExpressLayerType.ROUTER,
          ExpressLayerType.REQUEST_HANDLER,
        ],
      }),
      new NestInstrumentation(),
      // Queries of a request or a job (not the job queues' polling); no pool checkout spans.
      new PgInstrumentation({ requireParentSpan: true, ignoreConnectSpans: true }),
    ],
  });
  sdk.start();
  const tracer = trace.getTracer('bindery');
  return {
    serviceName: settings.serviceName,
    traceparent() {
      const carrier: Record<string, string> = {};
      traceContext.inject(context.active(), carrier, defaultTextMapSetter);
      return carrier.traceparent;
    },
    traceJob: (job, run) => traceJob(tracer, job, run),
    shutdown: (timeoutMs) => withinMs(sdk.shutdown(), timeoutMs),
  };
}

/**
 * A consumer span per run of a job, named `job <queue>`: its first attempt is a child of the
 * span that queued it (the request's), a retry starts a trace of its own linked to it (a retry
 * may come hours later); jobs coalesced into the run are linked.
 */
async function traceJob(
  tracer: Tracer,
  job: TracedJob,
  run: (span: JobSpan) => Promise<void>,
): Promise<void> {
  const origin = spanContextOf(job.traceparent);
  const links: Link[] = [];
  let parent = ROOT_CONTEXT;
  if (origin && job.attempt === 1) parent = trace.setSpanContext(ROOT_CONTEXT, origin);
  else if (origin) links.push({ context: origin, attributes: { 'messaging.message.id': job.id } });
  for (const other of job.coalesced) {
    const queuedBy = spanContextOf(other.traceparent);
    if (queuedBy)
      links.push({ context: queuedBy, attributes: { 'messaging.message.id': other.id } });
  }
  const attributes = {
    'messaging.system': 'pg-boss',
    'messaging.operation.type': 'process',
    'messaging.destination.name': job.queue,
    'messaging.message.id': job.id,
    'bindery.job.attempt': job.attempt,
    'bindery.job.retry_limit': job.retryLimit,
    ...(job.coalesced.length > 0
      ? { 'messaging.batch.message_count': job.coalesced.length + 1 }
      : {}),
  };
  await tracer.startActiveSpan(
    `job ${job.queue}`,
    { kind: SpanKind.CONSUMER, attributes, links },
    parent,
    async (span) => {
      let outcome = 'completed';
      const fail = (error: unknown) => {
        // pg-boss retries a failed run while retries are left.
        outcome = job.attempt <= job.retryLimit ? 'retry' : 'failed';
        if (error instanceof Error) span.recordException(error);
        span.setStatus({
          code: SpanStatusCode.ERROR,
          message: error instanceof Error ? error.message : String(error),
        });
      };
      try {
        await run({ fail });
      } catch (error) {
        fail(error);
        throw error;
      } finally {
        span.setAttribute('bindery.job.outcome', outcome);
        span.end();
      }
    },
  );
}

function spanContextOf(traceparent: string | undefined): SpanContext | undefined {
  if (!traceparent) return undefined;
  const extracted = traceContext.extract(ROOT_CONTEXT, { traceparent }, defaultTextMapGetter);
  const spanContext = trace.getSpanContext(extracted);
  return spanContext && trace.isSpanContextValid(spanContext) ? spanContext : undefined;
}

/**
 * The exporter, sending spans with their URLs as the logs keep them: the values of secret query
 * parameters (signatures, share keys, tokens) redacted, and only the origin of URLs called out
 * (a webhook's path may be its secret). See `redactSpanAttributes`.
 */
class RedactingExporter implements tracing.SpanExporter {
  constructor(private readonly exporter: tracing.SpanExporter) {}

  export(spans: tracing.ReadableSpan[], done: (result: core.ExportResult) => void): void {
    this.exporter.export(spans.map(redacted), done);
  }

  shutdown(): Promise<void> {
    return this.exporter.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.exporter.forceFlush?.() ?? Promise.resolve();
  }
}

/** The span, or a view of it with its attributes redacted (the span itself is left as is). */
function redacted(span: tracing.ReadableSpan): tracing.ReadableSpan {
  const attributes = redactSpanAttributes(span.kind === SpanKind.CLIENT, span.attributes);
  if (attributes === span.attributes) return span;
  return Object.create(span, { attributes: { value: attributes } }) as tracing.ReadableSpan;
}

/** The path of a request target, without its query. */
function pathOf(url: string | undefined): string {
  if (!url) return '/';
  const query = url.indexOf('?');
  return query < 0 ? url : url.slice(0, query);
}

/** The SDK's own warnings and errors (an export that failed) as JSON log lines. */
function diagLogger(level: TracingSettings['logLevel']): DiagLogger {
  const logger = pino({ level }).child({ context: 'Tracing' });
  const write =
    (method: 'error' | 'warn' | 'info' | 'debug' | 'trace') =>
    (message: string, ...args: unknown[]) => {
      const err = args.find((arg) => arg instanceof Error);
      logger[method](err ? { err } : {}, message);
    };
  return {
    error: write('error'),
    warn: write('warn'),
    info: write('info'),
    debug: write('debug'),
    verbose: write('trace'),
  };
}

/** `work`, or undefined once `ms` have passed (the rest is dropped). */
async function withinMs(work: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    work.catch(() => undefined),
    new Promise<void>((resolve) => (timer = setTimeout(resolve, ms))),
  ]);
  clearTimeout(timer);
}
