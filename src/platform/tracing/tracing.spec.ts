import { ConfigurationError, loadConfig } from '../config/app-config';
import { currentTracing, startTracing, tracingSettings } from './tracing';

const settingsOf = (env: Record<string, string>, name = 'bindery') =>
  tracingSettings(loadConfig(env), name);

describe('tracingSettings', () => {
  it('is off without an OTLP endpoint', () => {
    expect(settingsOf({})).toBeUndefined();
    expect(settingsOf({ OTEL_SERVICE_NAME: 'docs', OTEL_TRACES_SAMPLER: 'always_on' })).toBe(
      undefined,
    );
  });

  it('posts to <OTEL_EXPORTER_OTLP_ENDPOINT>/v1/traces, or to the traces endpoint as given', () => {
    expect(settingsOf({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toEqual({
      serviceName: 'bindery',
      endpoint: 'http://collector:4318/v1/traces',
      protocol: 'http/protobuf',
      logLevel: 'info',
    });
    expect(
      settingsOf({ OTEL_EXPORTER_OTLP_ENDPOINT: 'https://otel.example.com/otlp/' })?.endpoint,
    ).toBe('https://otel.example.com/otlp/v1/traces');
    expect(
      settingsOf({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://traces:9999/ingest',
      })?.endpoint,
    ).toBe('http://traces:9999/ingest');
  });

  it('is off with OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none, endpoint or not', () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };
    expect(settingsOf({ ...endpoint, OTEL_SDK_DISABLED: 'true' })).toBeUndefined();
    expect(settingsOf({ ...endpoint, OTEL_TRACES_EXPORTER: 'none' })).toBeUndefined();
    expect(settingsOf({ ...endpoint, OTEL_SDK_DISABLED: 'false' })).toBeDefined();
    expect(settingsOf({ ...endpoint, OTEL_TRACES_EXPORTER: 'otlp' })).toBeDefined();
  });

  it("names the process by OTEL_SERVICE_NAME, or by the entry point's default", () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };
    expect(settingsOf(endpoint, 'bindery-worker')?.serviceName).toBe('bindery-worker');
    expect(settingsOf({ ...endpoint, OTEL_SERVICE_NAME: 'docs-api' })?.serviceName).toBe(
      'docs-api',
    );
  });

  it('takes the traces protocol over the general one', () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };
    expect(settingsOf({ ...endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })?.protocol).toBe(
      'http/json',
    );
    expect(
      settingsOf({
        ...endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf',
      })?.protocol,
    ).toBe('http/protobuf');
  });
});

describe('OTEL_* settings', () => {
  const problems = (env: Record<string, string>): string[] => {
    try {
      loadConfig(env);
      return [];
    } catch (error) {
      if (error instanceof ConfigurationError) return error.problems;
      throw error;
    }
  };

  it('refuses what the SDK would not understand', () => {
    expect(problems({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toEqual([
      expect.stringContaining('OTEL_EXPORTER_OTLP_ENDPOINT must be an http(s) URL'),
    ]);
    expect(problems({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toHaveLength(1);
    expect(problems({ OTEL_TRACES_EXPORTER: 'zipkin' })).toHaveLength(1);
    expect(problems({ OTEL_TRACES_SAMPLER: 'sometimes' })).toHaveLength(1);
    expect(problems({ OTEL_TRACES_SAMPLER_ARG: '1.5' })).toHaveLength(1);
    expect(problems({ OTEL_TRACES_SAMPLER_ARG: '0.25' })).toEqual([]);
  });

  it('never echoes the export headers, which hold credentials', () => {
    const [problem] = problems({ OTEL_EXPORTER_OTLP_HEADERS: 'api-key-without-a-name' });
    expect(problem).toContain('OTEL_EXPORTER_OTLP_HEADERS must be name=value pairs');
    expect(problem).not.toContain('api-key-without-a-name');
    expect(problems({ OTEL_EXPORTER_OTLP_HEADERS: 'x-api-key=abc,x-team=docs' })).toEqual([]);
  });
});

describe('startTracing', () => {
  it('without an endpoint, starts nothing and loads nothing of OpenTelemetry', () => {
    expect(startTracing(loadConfig({}), 'bindery')).toBeUndefined();
    expect(currentTracing()).toBeUndefined();
    const loaded = Object.keys(require.cache);
    expect(loaded.some((path) => path.endsWith('/tracing/tracing.ts'))).toBe(true);
    expect(loaded.filter((path) => path.includes('@opentelemetry'))).toEqual([]);
  });
});
