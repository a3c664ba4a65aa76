import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_ADMIN_TOKEN, TEST_SECRET_KEY } from '../helpers/app';
import { sharedDatabase } from '../helpers/database';
import { freePort, spawnBindery } from '../helpers/processes';
import { WebhookReceiver } from '../helpers/webhook-receiver';

const ROOT = join(__dirname, '..', '..');
const MAIN = join(ROOT, 'dist', 'src', 'main.js');
const VERSION = (
  JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }
).version;

/** OTLP/JSON: an attribute's value is one of these. */
interface AnyValue {
  stringValue?: string;
  intValue?: number | string;
  boolValue?: boolean;
  doubleValue?: number;
}
interface KeyValue {
  key: string;
  value: AnyValue;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: KeyValue[];
}
interface ExportRequest {
  resourceSpans: { resource: { attributes: KeyValue[] }; scopeSpans: { spans: OtlpSpan[] }[] }[];
}

const SERVER = 2;
const CONSUMER = 5;

/** A span's attributes as a plain object. */
function attributesOf(attributes: KeyValue[] = []): Record<string, unknown> {
  return Object.fromEntries(
    attributes.map(({ key, value }) => [
      key,
      value.stringValue ??
        (value.intValue === undefined ? undefined : Number(value.intValue)) ??
        value.boolValue ??
        value.doubleValue,
    ]),
  );
}

/** A loopback OTLP/HTTP receiver (JSON encoding) keeping every export request. */
class OtlpReceiver {
  readonly bodies: string[] = [];
  /** Method, path and `x-api-key` header of each export request. */
  readonly requests: string[] = [];
  private constructor(private readonly server: Server) {}

  static async start(): Promise<OtlpReceiver> {
    const receiver: OtlpReceiver = new OtlpReceiver(
      createServer((request, response) => {
        const chunks: Buffer[] = [];
        request.on('data', (chunk: Buffer) => chunks.push(chunk));
        request.on('end', () => {
          receiver.requests.push(
            `${request.method} ${request.url} ${String(request.headers['x-api-key'])}`,
          );
          receiver.bodies.push(Buffer.concat(chunks).toString('utf8'));
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end('{}');
        });
      }),
    );
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Every span received, with its resource's attributes. */
  spans(): (OtlpSpan & { resource: Record<string, unknown> })[] {
    return this.bodies.flatMap((body) =>
      (JSON.parse(body) as ExportRequest).resourceSpans.flatMap(({ resource, scopeSpans }) =>
        scopeSpans.flatMap(({ spans }) =>
          spans.map((span) => ({ ...span, resource: attributesOf(resource.attributes) })),
        ),
      ),
    );
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

interface Started {
  child: ChildProcess;
  port: number;
  output: () => string;
  exited: Promise<number | null>;
}

/** `node [execArgv] dist/src/main.js` on a port of its own; resolves once it is ready. */
async function startBindery(
  env: Record<string, string>,
  execArgv: string[] = [],
): Promise<Started> {
  const port = await freePort();
  const started = spawnBindery(
    'api',
    'bindery',
    {
      ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '0',
      DATABASE_POOL_SIZE: '4',
      SECRET_KEY: TEST_SECRET_KEY,
      ...env,
    },
    { port, readyWithinMs: 60_000, execArgv },
  );
  await started.ready;
  return { child: started.child, port, output: started.output, exited: started.exited };
}

/** A JSON request to the process; the answer's status and body. */
async function call(
  port: number,
  method: string,
  path: string,
  token: string,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
  };
}

/**
 * OpenTelemetry tracing of the server process (`node dist/src/main.js`, from `npm run build`).
 * With the OTLP settings, spans reach a loopback receiver: a request's server span named by its
 * route, its `pg` queries in its trace, the jobs it queued in that trace too, and no token in
 * anything sent; spans are batched for a minute here, so that all of them arrive through the
 * flush at SIGTERM. Without the settings, the process never loads the SDK.
 */
describe('tracing (OpenTelemetry)', () => {
  let database: Awaited<ReturnType<typeof sharedDatabase>> | undefined;
  const children: ChildProcess[] = [];
  let collector: OtlpReceiver;
  let hooks: WebhookReceiver;
  let probeDir: string;
  let traced: Started;
  let untraced: Started;

  beforeAll(async () => {
    if (!existsSync(MAIN)) {
      throw new Error(`${MAIN} is missing: run \`npm run build\` before this test.`);
    }
    // One database for both (a fresh one on DATABASE_URL's server, else a PGlite served here).
    [collector, hooks, database] = await Promise.all([
      OtlpReceiver.start(),
      WebhookReceiver.start(),
      sharedDatabase(),
    ]);
    const shared = { DATABASE_URL: database.url, ...database.settings };
    // Written at exit: every module the untraced process loaded.
    probeDir = mkdtempSync(join(tmpdir(), 'bindery-tracing-'));
    writeFileSync(
      join(probeDir, 'probe.js'),
      `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(
        join(probeDir, 'modules.json'),
      )}, JSON.stringify(Object.keys(require.cache))));\n`,
    );
    // The two processes start side by side.
    [traced, untraced] = await Promise.all([
      startBindery({
        ...shared,
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_EXPORTER_OTLP_HEADERS: 'x-api-key=collector-key',
        // Nothing leaves before SIGTERM: the shutdown's flush sends it all.
        OTEL_BSP_SCHEDULE_DELAY: '60000',
        // The webhook receiver listens on loopback.
        OUTBOUND_ALLOW_PRIVATE: 'true',
      }),
      // Its jobs left to the traced process: theirs are the spans the first test looks for.
      startBindery({ ...shared, JOBS_IN_PROCESS: 'false' }, [
        '--require',
        join(probeDir, 'probe.js'),
      ]),
    ]);
    children.push(traced.child, untraced.child);
  }, 90_000);

  afterAll(async () => {
    for (const child of children) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    await Promise.all([collector?.close(), hooks?.close()]);
    await database?.close();
    if (probeDir) rmSync(probeDir, { recursive: true, force: true });
  });

  it('exports the spans of requests and of the jobs they queue, without any token', async () => {
    const { port } = traced;
    const created = await call(port, 'POST', '/v1/admin/users', TEST_ADMIN_TOKEN, {
      email: 'traced@example.com',
      displayName: 'Traced',
    });
    expect(created.status).toBe(201);
    const token = created.body.token as string;
    const org = await call(port, 'POST', '/v1/orgs', token, { title: 'Traced' });
    expect(org.status).toBe(201);
    const orgId = org.body.id as string;
    // The token in the query too: it must not reach a span from there either.
    const read = await call(port, 'GET', `/v1/orgs/${orgId}?token=${token}`, token);
    expect(read.status).toBe(200);
    // An active webhook gets a ping at once: a dispatch job, then a delivery job.
    const webhook = await call(port, 'POST', `/v1/orgs/${orgId}/webhooks`, token, {
      url: `${hooks.url}/hook`,
      events: ['*'],
    });
    expect(webhook.status).toBe(201);
    await hooks.waitFor((requests) => requests.length > 0, 20_000);

    expect(collector.bodies).toEqual([]);
    traced.child.kill('SIGTERM');
    expect(await traced.exited).toBe(0);
    expect(new Set(collector.requests)).toEqual(new Set(['POST /v1/traces collector-key']));
    const spans = collector.spans();
    expect(spans.length).toBeGreaterThan(0);

    // The process and its version.
    expect(spans[0].resource).toEqual(
      expect.objectContaining({ 'service.name': 'bindery', 'service.version': VERSION }),
    );

    // The read: a server span named by its route, with its queries in its trace.
    const serverSpans = spans.filter((span) => span.kind === SERVER);
    const readSpan = serverSpans.find((span) => span.name === 'GET /v1/orgs/:organizationId');
    expect(readSpan).toBeDefined();
    expect(attributesOf(readSpan!.attributes)).toEqual(
      expect.objectContaining({
        'http.route': '/v1/orgs/:organizationId',
        'http.request.method': 'GET',
        'http.response.status_code': 200,
      }),
    );
    const inRead = spans.filter((span) => span.traceId === readSpan!.traceId);
    expect(
      inRead.some((span) => attributesOf(span.attributes)['db.system.name'] === 'postgresql'),
    ).toBe(true);

    // The webhook's creation queues its ping's dispatch job, which queues the delivery job.
    const createSpan = serverSpans.find(
      (span) => span.name === 'POST /v1/orgs/:organizationId/webhooks',
    );
    expect(createSpan).toBeDefined();
    const inCreate = spans.filter((span) => span.traceId === createSpan!.traceId);
    const dispatch = inCreate.find((span) => span.name === 'job webhooks-dispatch');
    expect(dispatch).toBeDefined();
    expect(dispatch!.kind).toBe(CONSUMER);
    expect(inCreate.map((span) => span.spanId)).toContain(dispatch!.parentSpanId);
    expect(attributesOf(dispatch!.attributes)).toEqual(
      expect.objectContaining({
        'messaging.destination.name': 'webhooks-dispatch',
        'messaging.message.id': expect.any(String),
        'bindery.job.attempt': 1,
        'bindery.job.outcome': 'completed',
      }),
    );
    // The delivery job, a child of the job that queued it: that dispatch, or the minute's
    // sweep when it happens to dispatch the ping first.
    const deliver = spans.find((span) => span.name === 'job webhooks-deliver');
    expect(deliver).toBeDefined();
    const queuedBy = spans.find((span) => span.spanId === deliver!.parentSpanId);
    expect(queuedBy?.name).toMatch(/^job webhooks-(dispatch|sweep)$/);
    expect(deliver!.traceId).toBe(queuedBy!.traceId);
    expect(attributesOf(deliver!.attributes)).toEqual(
      expect.objectContaining({
        'messaging.destination.name': 'webhooks-deliver',
        'bindery.job.outcome': 'completed',
      }),
    );
    // The job's queries are its children.
    expect(
      inCreate.some(
        (span) =>
          span.parentSpanId === dispatch!.spanId &&
          attributesOf(span.attributes)['db.system.name'] === 'postgresql',
      ),
    ).toBe(true);

    // No token anywhere: not in an attribute, a name or a resource (the raw requests).
    for (const body of collector.bodies) {
      expect(body).not.toContain(token);
      expect(body).not.toContain(TEST_ADMIN_TOKEN);
    }
    // The query's token redacted, as in the logs.
    expect(attributesOf(readSpan!.attributes)['url.query']).toBe('token=[REDACTED]');
  }, 60_000);

  it('loads nothing of the OpenTelemetry SDK without the settings', async () => {
    const response = await call(untraced.port, 'GET', '/v1/admin/users', TEST_ADMIN_TOKEN);
    expect(response.status).toBe(200);
    untraced.child.kill('SIGTERM');
    expect(await untraced.exited).toBe(0);
    const modules = JSON.parse(readFileSync(join(probeDir, 'modules.json'), 'utf8')) as string[];
    // The probe saw the application: its HTTP and database stacks were loaded.
    expect(modules.some((path) => path.includes('/node_modules/express/'))).toBe(true);
    expect(modules.some((path) => path.includes('/node_modules/pg/'))).toBe(true);
    expect(modules.some((path) => path.endsWith('/dist/src/platform/tracing/tracing.js'))).toBe(
      true,
    );
    // Only the API (prom-client loads it for exemplars; without an SDK it does nothing).
    const openTelemetry = modules.filter((path) => path.includes('/node_modules/@opentelemetry/'));
    expect(openTelemetry.filter((path) => !path.includes('/@opentelemetry/api/'))).toEqual([]);
    expect(modules.some((path) => path.endsWith('/dist/src/platform/tracing/sdk.js'))).toBe(false);
  }, 30_000);
});
