import { randomBytes } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OpenAPISpecs } from '../src/openapi/openapi-specs';
import { OpenAPIProcessing } from '../src/openapi/processing/openapi-processing';
import { createTestApp, TestApp } from './helpers/app';
import type { OpenAPISpecBody } from './helpers/bodies';
import { expectConforms } from './helpers/conformance';
import type { TestOrganization } from './helpers/factories';

/**
 * OpenAPI specifications given by URL, served by a test server on 127.0.0.1: fetch, YAML,
 * relative `$ref`s resolved into the filesystem (same origin only), fetch failures (HTTP
 * errors, timeouts, private addresses when not allowed), invalid documents, and re-processing
 * on PUT and on the refresh schedule.
 */

interface Route {
  status?: number;
  body?: string;
  contentType?: string;
  /** Never answer (until the server closes). */
  hang?: boolean;
}

interface TestServer {
  origin: string;
  port: number;
  routes: Map<string, Route>;
  hits: string[];
  close(): Promise<void>;
}

async function startServer(): Promise<TestServer> {
  const routes = new Map<string, Route>();
  const hits: string[] = [];
  const server = http.createServer((req: IncomingMessage, res: ServerResponse) => {
    hits.push(req.url!);
    const route = routes.get(req.url!);
    if (route?.hang) return;
    res.statusCode = route ? (route.status ?? 200) : 404;
    res.setHeader('content-type', route?.contentType ?? 'application/json');
    res.end(route?.body ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    routes,
    hits,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const unique = () => randomBytes(4).toString('hex');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function petstore(title = 'Petstore'): Record<string, unknown> {
  return {
    openapi: '3.0.3',
    info: { title, version: '1.0.0' },
    paths: {
      '/pets': {
        get: { operationId: 'listPets', responses: { '200': { description: 'The pets' } } },
      },
    },
  };
}

const ROOT_YAML = `openapi: 3.0.3
info:
  title: Split petstore
  version: "1"
paths:
  /pets:
    get:
      operationId: listPets
      responses:
        "200":
          description: The pets
          content:
            application/json:
              schema:
                $ref: schemas/pet.yaml
        default:
          $ref: "../common/errors.yaml#/components/responses/Error"
`;

const PET_YAML = `type: object
properties:
  id:
    type: integer
  owner:
    $ref: "./owner.yaml"
`;

const OWNER_YAML = `type: object
properties:
  name:
    type: string
`;

const ERRORS_YAML = `components:
  responses:
    Error:
      description: An error
`;

/** An application with an organization and a test server, and what the tests do with them. */
class Harness {
  private constructor(
    readonly t: TestApp,
    readonly org: TestOrganization,
    readonly server: TestServer,
  ) {}

  static async start(settings: Record<string, string> = {}): Promise<Harness> {
    const server = await startServer();
    const t = await createTestApp(settings);
    return new Harness(t, await t.factories.organization(), server);
  }

  async close(): Promise<void> {
    await this.server.close();
    await this.t.close();
  }

  specPath(slug = ''): string {
    return `/v1/orgs/${this.org.id}/openapi${slug ? `/${slug}` : ''}`;
  }

  async createFromUrl(path: string): Promise<OpenAPISpecBody> {
    const url = `${this.server.origin}${path}`;
    const created = await this.t.factories.later.openAPISpec(this.org, {
      slug: `url-${unique()}`,
      url,
    });
    expect(created.sourceURL).toBe(url);
    return created;
  }

  /** Waits until the processing that the last write asked for is complete. */
  async processed(slug: string): Promise<OpenAPISpecBody> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const res = await this.org.owner.client.get(this.specPath(slug)).expect(200);
      if (res.body.processingState === 'complete') {
        expectConforms(res, 'getOpenAPISpecBySlug');
        return res.body as OpenAPISpecBody;
      }
      if (Date.now() > deadline) throw new Error(`${slug} is still ${res.body.processingState}`);
      await sleep(100);
    }
  }

  async latestContent(slug: string): Promise<{ filesystem: Record<string, unknown>; url: string }> {
    const res = await this.org.owner.client
      .get(`${this.specPath(slug)}/versions/latest/content`)
      .expect(200);
    expectConforms(res, 'getLatestOpenAPISpecVersionContent');
    return res.body as { filesystem: Record<string, unknown>; url: string };
  }
}

describe('OpenAPI specifications from URLs', () => {
  let h: Harness;
  // Local servers answer in milliseconds; a short timeout keeps the timeout test short.
  beforeAll(async () => {
    h = await Harness.start({ OUTBOUND_TIMEOUT_MS: '1500' });
  });
  afterAll(() => h.close());

  it('fetches a JSON specification; its version points at the URL', async () => {
    const path = `/${unique()}/openapi.json`;
    h.server.routes.set(path, { body: JSON.stringify(petstore()) });
    const created = await h.createFromUrl(path);
    const done = await h.processed(created.slug);
    expect(done).toMatchObject({ sourceURL: `${h.server.origin}${path}` });
    expect(done).not.toHaveProperty('lastProcessErrorCode');
    expect(await h.latestContent(created.slug)).toEqual({
      filesystem: { 'openapi.json': petstore() },
      url: `${h.server.origin}${path}`,
    });
    const version = await h.org.owner.client
      .get(`${h.specPath(created.slug)}/versions/latest`)
      .expect(200);
    expectConforms(version, 'getLatestOpenAPISpecVersion');
    expect(version.body.url).toBe(`${h.server.origin}${path}`);
  });

  it('resolves relative $refs of the same origin into the filesystem (YAML)', async () => {
    const base = `/${unique()}`;
    h.server.routes.set(`${base}/specs/v1/openapi.yaml`, {
      body: ROOT_YAML,
      contentType: 'application/yaml',
    });
    h.server.routes.set(`${base}/specs/v1/schemas/pet.yaml`, { body: PET_YAML });
    h.server.routes.set(`${base}/specs/v1/schemas/owner.yaml`, { body: OWNER_YAML });
    h.server.routes.set(`${base}/specs/common/errors.yaml`, { body: ERRORS_YAML });
    const created = await h.createFromUrl(`${base}/specs/v1/openapi.yaml`);
    const done = await h.processed(created.slug);
    expect(done).not.toHaveProperty('lastProcessErrorCode');

    const content = await h.latestContent(created.slug);
    expect(Object.keys(content.filesystem)).toEqual([
      'openapi.yaml',
      '../common/errors.yaml',
      'schemas/owner.yaml',
      'schemas/pet.yaml',
    ]);
    expect(content.filesystem['schemas/pet.yaml']).toEqual({
      type: 'object',
      properties: { id: { type: 'integer' }, owner: { $ref: './owner.yaml' } },
    });
    expect(content.filesystem['../common/errors.yaml']).toEqual({
      components: { responses: { Error: { description: 'An error' } } },
    });

    // Dereferenced for other modules, from the stored files only.
    const latest = await h.t.bindery.app.get(OpenAPISpecs).latestContent(h.org.id, created.slug);
    const responses = (
      latest!.document as { paths: Record<string, { get: { responses: Record<string, unknown> } }> }
    ).paths['/pets'].get.responses;
    expect(responses).toEqual({
      '200': {
        description: 'The pets',
        content: {
          'application/json': {
            schema: {
              type: 'object',
              properties: {
                id: { type: 'integer' },
                owner: { type: 'object', properties: { name: { type: 'string' } } },
              },
            },
          },
        },
      },
      default: { description: 'An error' },
    });

    // Published as one document, the other files' parts moved in.
    await h.org.owner.client.patch(h.specPath(created.slug), { visibility: 'public' }).expect(200);
    const published = await h.t.anonymous
      .get(`/v1/openapi/${h.org.id}/${created.slug}`)
      .expect(200);
    expect(JSON.stringify(published.body)).not.toMatch(/\.yaml/);
    expect(published.body.info).toEqual({ title: 'Split petstore', version: '1' });
  });

  it('refuses references to another origin', async () => {
    const path = `/${unique()}/openapi.json`;
    const elsewhere = `http://localhost:${h.server.port}/schemas/pet.json`;
    h.server.routes.set(path, {
      body: JSON.stringify({
        ...petstore(),
        components: { schemas: { Pet: { $ref: elsewhere } } },
      }),
    });
    const created = await h.createFromUrl(path);
    const failed = await h.processed(created.slug);
    expect(failed.lastProcessErrorCode).toBe('PARSE_ERROR');
    expect(failed.lastProcessedErrors).toEqual([
      {
        code: 'INVALID_REFERENCE',
        message: `${elsewhere}: only files of the specification's own origin (${h.server.origin}) are read (referenced at openapi.json#/components/schemas/Pet).`,
      },
    ]);
    expect(h.server.hits).not.toContain('/schemas/pet.json');
  });

  it('answers FETCH_ERROR when the server answers 404, for the root or a referenced file', async () => {
    const missing = await h.createFromUrl(`/${unique()}/missing.json`);
    const failed = await h.processed(missing.slug);
    expect(failed.lastProcessErrorCode).toBe('FETCH_ERROR');
    expect(failed.lastProcessedErrors).toEqual([
      { code: 'FETCH_ERROR', message: `${missing.sourceURL} answered HTTP 404.` },
    ]);
    expect(failed).not.toHaveProperty('lastVersion');
    await h.org.owner.client.get(`${h.specPath(missing.slug)}/versions/latest`).expect(404);

    const path = `/${unique()}/openapi.json`;
    h.server.routes.set(path, {
      body: JSON.stringify({
        ...petstore(),
        components: { schemas: { Pet: { $ref: 'pet.json' } } },
      }),
    });
    const refFailed = await h.processed((await h.createFromUrl(path)).slug);
    expect(refFailed.lastProcessErrorCode).toBe('FETCH_ERROR');
    expect(refFailed.lastProcessedErrors).toEqual([
      {
        code: 'FETCH_ERROR',
        message: `pet.json: ${h.server.origin}${path.replace('openapi.json', 'pet.json')} answered HTTP 404 (referenced at openapi.json#/components/schemas/Pet).`,
      },
    ]);
  });

  it('answers FETCH_TIMEOUT when the server does not answer in time', async () => {
    const path = `/${unique()}/slow.json`;
    h.server.routes.set(path, { hang: true });
    const created = await h.createFromUrl(path);
    const failed = await h.processed(created.slug);
    expect(failed.lastProcessErrorCode).toBe('FETCH_TIMEOUT');
    expect(failed.lastProcessedErrors).toEqual([
      {
        code: 'FETCH_TIMEOUT',
        message: `127.0.0.1:${h.server.port} did not respond within 1500 ms.`,
      },
    ]);
  });

  it('lists the validation errors of an invalid document with their location', async () => {
    const path = `/${unique()}/openapi.yaml`;
    h.server.routes.set(path, {
      body: 'openapi: 3.0.3\ninfo:\n  title: Broken\npaths:\n  /pets:\n    get:\n      parameters:\n        - name: limit\n          in: somewhere\n      responses: {}\n',
    });
    const created = await h.createFromUrl(path);
    const failed = await h.processed(created.slug);
    expect(failed.lastProcessErrorCode).toBe('PARSE_ERROR');
    const messages = failed.lastProcessedErrors!.map((e) => e.message);
    expect(messages).toEqual(
      expect.arrayContaining([
        "openapi.yaml#/info: must have required property 'version'",
        expect.stringMatching(/^openapi\.yaml#\/paths\/~1pets\/get\/parameters\/0: /),
      ]),
    );
    expect(messages.length).toBeLessThanOrEqual(50);
  });

  it('fetches again on PUT, and makes a version only when the content changed', async () => {
    const path = `/${unique()}/openapi.json`;
    h.server.routes.set(path, { body: JSON.stringify(petstore('One')) });
    const created = await h.createFromUrl(path);
    const first = await h.processed(created.slug);
    const source = { url: `${h.server.origin}${path}` };

    h.t.clock.advance(1000);
    await h.org.owner.client.put(h.specPath(created.slug), { source }).expect(200);
    const same = await h.processed(created.slug);
    expect(same.lastVersion).toBe(first.lastVersion);
    expect(h.server.hits.filter((hit) => hit === path)).toHaveLength(2);

    h.server.routes.set(path, { body: JSON.stringify(petstore('Two')) });
    h.t.clock.advance(1000);
    const res = await h.org.owner.client.put(h.specPath(created.slug), { source }).expect(200);
    expectConforms(res, 'createOrUpdateOpenAPISpecBySlug');
    const changed = await h.processed(created.slug);
    expect(changed.lastVersion).not.toBe(first.lastVersion);
    expect((await h.latestContent(created.slug)).filesystem['openapi.json']).toEqual(
      petstore('Two'),
    );
  });
});

// A database of its own: a refresh round takes every due specification of the instance.
describe('OpenAPI specifications on the refresh schedule', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await Harness.start();
  });
  afterAll(() => h.close());

  it('re-fetches on the refresh schedule; a failure keeps the previous version', async () => {
    const processing = h.t.bindery.app.get(OpenAPIProcessing);
    const path = `/${unique()}/openapi.json`;
    h.server.routes.set(path, { body: JSON.stringify(petstore('Before')) });
    const created = await h.createFromUrl(path);
    const first = await h.processed(created.slug);
    const hits = () => h.server.hits.filter((hit) => hit === path).length;

    // Not due yet: nothing queued.
    h.t.clock.advance(30 * 60_000);
    expect(await processing.refresh()).toBe(0);
    expect((await h.processed(created.slug)).lastVersion).toBe(first.lastVersion);

    // Due (OPENAPI_REFRESH_MINUTES, 60 by default): fetched again, a new version.
    h.server.routes.set(path, { body: JSON.stringify(petstore('After')) });
    h.t.clock.advance(31 * 60_000);
    expect(await processing.refresh()).toBe(1);
    const refreshed = await h.processed(created.slug);
    expect(hits()).toBe(2);
    expect(refreshed.lastVersion).not.toBe(first.lastVersion);

    // The source breaks: the error is recorded, the last good version stays.
    h.server.routes.set(path, { status: 500, body: 'oops' });
    h.t.clock.advance(61 * 60_000);
    expect(await processing.refresh()).toBe(1);
    const broken = await h.processed(created.slug);
    expect(hits()).toBe(3);
    expect(broken).toMatchObject({
      lastVersion: refreshed.lastVersion,
      lastProcessErrorCode: 'FETCH_ERROR',
      lastProcessedErrors: [
        { code: 'FETCH_ERROR', message: `${h.server.origin}${path} answered HTTP 500.` },
      ],
    });
    expect((await h.latestContent(created.slug)).filesystem['openapi.json']).toEqual(
      petstore('After'),
    );
  });

  it('queues again a processing that was lost', async () => {
    const processing = h.t.bindery.app.get(OpenAPIProcessing);
    const path = `/${unique()}/openapi.json`;
    h.server.routes.set(path, { body: JSON.stringify(petstore()) });
    const created = await h.createFromUrl(path);
    const first = await h.processed(created.slug);
    // As if its job had failed for good an hour ago.
    const now = h.t.clock.now();
    await h.t.dataSource.query(
      `UPDATE openapi_specs SET processing_state = 'progress', queued_at = $2 WHERE id = $1`,
      [created.id, new Date(now.getTime() - 61 * 60_000)],
    );
    expect(await processing.refresh()).toBe(1);
    const done = await h.processed(created.slug);
    expect(new Date(done.lastProcessedAt!).getTime()).toBeGreaterThanOrEqual(
      new Date(first.lastProcessedAt!).getTime(),
    );
    expect(h.server.hits.filter((hit) => hit === path)).toHaveLength(2);
  });
});

describe('OpenAPI specifications from private addresses', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await Harness.start({ OUTBOUND_ALLOW_PRIVATE: 'false' });
  });
  afterAll(() => h.close());

  it('refuses to fetch them unless OUTBOUND_ALLOW_PRIVATE is set', async () => {
    h.server.routes.set('/openapi.json', { body: JSON.stringify(petstore()) });
    const created = await h.createFromUrl('/openapi.json');
    const failed = await h.processed(created.slug);
    expect(failed).toMatchObject({
      lastProcessErrorCode: 'FETCH_ERROR',
      lastProcessedErrors: [
        {
          code: 'FETCH_ERROR',
          message:
            'Refusing to connect to 127.0.0.1: only public internet addresses may be fetched.',
        },
      ],
    });
    expect(failed).not.toHaveProperty('lastVersion');
    expect(h.server.hits).toEqual([]);
  });
});
