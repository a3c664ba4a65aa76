import type { AppConfig, OtlpProtocol } from '../config/app-config';

/** What the rest of Bindery sees of tracing, when it is on (see `startTracing`). */
export interface Tracing {
  /** The `service.name` of the spans. */
  readonly serviceName: string;
  /**
   * The W3C `traceparent` of the span active now (a request's, a job's), to keep with work it
   * queues; undefined outside any span.
   */
  traceparent(): string | undefined;
  /**
   * Runs one run of a background job in a span of its own (see `TracedJob`), which ends when
   * `run` settles; `run` calls `span.fail` when the job failed.
   */
  traceJob(job: TracedJob, run: (span: JobSpan) => Promise<void>): Promise<void>;
  /** Ends the SDK: spans not yet exported are sent, within `timeoutMs`. */
  shutdown(timeoutMs: number): Promise<void>;
}

/** One run of a queue's handler, as its span tells it. */
export interface TracedJob {
  queue: string;
  id: string;
  /** 1 for the first run of the job, 2 for its first retry, … */
  attempt: number;
  retryLimit: number;
  /** Where the job was queued (a request's span): parent of the first attempt, linked by retries. */
  traceparent?: string;
  /** The jobs done by the same run (coalesced), beside `id`, with where each was queued. */
  coalesced: { id: string; traceparent?: string }[];
}

export interface JobSpan {
  /** The run failed (the job is retried or failed for good, as its options say). */
  fail(error: unknown): void;
}

/** What the SDK is started with. */
export interface TracingSettings {
  serviceName: string;
  /** Where traces are posted (OTLP over HTTP). */
  endpoint: string;
  protocol: OtlpProtocol;
  logLevel: AppConfig['LOG_LEVEL'];
}
