import { createTestApp, TestApp } from './helpers/app';
import type { OpenAPISpecBody } from './helpers/bodies';
import { expectConforms, GITBOOK_0202 } from './helpers/conformance';
import type { TestOrganization } from './helpers/factories';

/**
 * getLatestOpenAPISpecVersionContentRaw: the root document of a specification's latest
 * version exactly as it was given, with its format.
 */

/** YAML with comments, flow style and odd spacing: nothing a parse and a dump would keep. */
const YAML_SOURCE = `# Petstore, as written by hand
openapi: 3.1.0
info:   { title: "Petstore", version: "1.0" }   # inline
paths:
  /pets:
    get:
      operationId: listPets
      responses:
        "200":
          description: The pets
`;

/** Another content, as JSON with its own indentation and key order. */
const JSON_SOURCE = `{
    "openapi": "3.0.3",
    "paths": { "/toys": { "get": { "operationId": "listToys",
      "responses": { "200": { "description": "Toys" } } } } },
    "info": { "version": "2", "title": "Toys" }
}
`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function expectError(res: { status: number; body: unknown }, code: number, text: string) {
  expect(res.status).toBe(code);
  expect(res.body).toEqual({ error: { code, message: expect.stringContaining(text) } });
}

describe('getLatestOpenAPISpecVersionContentRaw', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const specPath = (org: TestOrganization, slug: string) => `/v1/orgs/${org.id}/openapi/${slug}`;
  const rawPath = (org: TestOrganization, slug: string) =>
    `${specPath(org, slug)}/versions/latest/content/raw`;

  async function processed(org: TestOrganization, slug: string): Promise<OpenAPISpecBody> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const res = await org.owner.client.get(specPath(org, slug)).expect(200);
      const spec = res.body as OpenAPISpecBody;
      if (spec.processingState === 'complete') return spec;
      if (Date.now() > deadline) throw new Error(`${slug} is still ${spec.processingState}`);
      await sleep(100);
    }
  }

  async function put(org: TestOrganization, slug: string, text: string) {
    t.clock.advance(1000);
    await org.owner.client.put(specPath(org, slug), { source: { text } }).expect(200);
    return processed(org, slug);
  }

  it("answers the latest version's source as it was given, and follows new versions", async () => {
    const org = await t.factories.organization();
    const slug = 'pets';
    await t.factories.openAPISpec(org, { slug, text: YAML_SOURCE });
    const first = await processed(org, slug);
    const reader = await t.factories.asMember(org, 'read');

    const yaml = await reader.get(rawPath(org, slug)).expect(200);
    expectConforms(yaml, 'getLatestOpenAPISpecVersionContentRaw', GITBOOK_0202);
    expect(yaml.body).toEqual({ text: YAML_SOURCE, format: 'yaml' });
    expect(yaml.headers['content-type']).toMatch(/^application\/json/);

    // Another content: a new version, whose source is the new text.
    const second = await put(org, slug, JSON_SOURCE);
    expect(second.lastVersion).not.toBe(first.lastVersion);
    const json = await reader.get(rawPath(org, slug)).expect(200);
    expectConforms(json, 'getLatestOpenAPISpecVersionContentRaw', GITBOOK_0202);
    expect(json.body).toEqual({ text: JSON_SOURCE, format: 'json' });

    // The same content written otherwise makes no version: the latest keeps its source.
    const reformatted = JSON.stringify(JSON.parse(JSON_SOURCE));
    expect((await put(org, slug, reformatted)).lastVersion).toBe(second.lastVersion);
    expect((await reader.get(rawPath(org, slug)).expect(200)).body.text).toBe(JSON_SOURCE);

    // A source that fails to process leaves the latest version, and its source, as they were.
    const failed = await put(org, slug, 'openapi: 3.0.3\ninfo: [');
    expect(failed.lastVersion).toBe(second.lastVersion);
    expect((await reader.get(rawPath(org, slug)).expect(200)).body).toEqual(json.body);
  });

  it('is not found without a version, for a version without a raw source, or a stranger', async () => {
    const org = await t.factories.organization();
    await t.factories.openAPISpec(org, { slug: 'broken', text: 'not: [an, openapi' });
    await processed(org, 'broken');
    expectError(
      await org.owner.client.get(rawPath(org, 'broken')),
      404,
      'the specification has no version yet',
    );
    expectError(
      await org.owner.client.get(rawPath(org, 'nope')),
      404,
      'OpenAPI specification not found',
    );

    // A version made before Bindery kept raw sources.
    await t.factories.openAPISpec(org, { slug: 'legacy', text: YAML_SOURCE });
    const legacy = await processed(org, 'legacy');
    await t.dataSource.query(
      'UPDATE openapi_spec_versions SET raw_text = NULL, raw_format = NULL WHERE id = $1',
      [legacy.lastVersion],
    );
    expectError(await org.owner.client.get(rawPath(org, 'legacy')), 404, 'raw source');

    await t.factories.openAPISpec(org, { slug: 'pets', text: YAML_SOURCE });
    await processed(org, 'pets');
    await org.owner.client.get(rawPath(org, 'pets')).expect(200);
    const other = await t.factories.organization();
    expectError(await other.owner.client.get(rawPath(org, 'pets')), 404, 'Organization not found');
    // A guest of the organization does not read its specifications.
    const guest = await t.factories.asMember(org, null);
    const refused = await guest.get(rawPath(org, 'pets'));
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe(403);
  });
});
