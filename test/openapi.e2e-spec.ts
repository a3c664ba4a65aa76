import { randomBytes } from 'node:crypto';
import { OpenAPISpecs } from '../src/openapi/openapi-specs';
import { createTestApp, TEST_PUBLIC_URL, TestApp } from './helpers/app';
import type { OpenAPISpecBody, PageOf } from './helpers/bodies';
import { expectConforms } from './helpers/conformance';
import type { TestOrganization } from './helpers/factories';

/**
 * OpenAPI specifications from text sources: create, PUT, PATCH, DELETE, list, get; processing
 * into versions (new only when the content changed), failures that keep the previous version;
 * versions, latest and content; slug and source rules; visibility and the published document;
 * who may do what; the content of the latest version for other modules.
 */

interface VersionBody {
  object: 'openapi-spec-version';
  id: string;
  createdAt?: string;
  url: string;
  urls: { location: string };
}

interface ContentBody {
  filesystem: Record<string, unknown>;
  url: string;
}

const unique = () => randomBytes(4).toString('hex');

function petstore(title = 'Petstore'): Record<string, unknown> {
  return {
    openapi: '3.0.3',
    info: { title, version: '1.0.0' },
    paths: {
      '/pets': {
        get: {
          operationId: 'listPets',
          tags: ['pets'],
          responses: {
            '200': {
              description: 'The pets',
              content: {
                'application/json': { schema: { $ref: '#/components/schemas/Pets' } },
              },
            },
          },
        },
      },
    },
    components: {
      schemas: {
        Pet: {
          type: 'object',
          required: ['id'],
          properties: { id: { type: 'integer' }, name: { type: 'string' } },
        },
        Pets: { type: 'array', items: { $ref: '#/components/schemas/Pet' } },
      },
    },
  };
}

const PETSTORE_YAML = `openapi: 3.1.0
info:
  title: Petstore (YAML)
  version: "2.0"
paths:
  /pets/{petId}:
    get:
      operationId: getPet
      parameters:
        - name: petId
          in: path
          required: true
          schema: { type: string }
      responses:
        "200":
          description: A pet
`;

const SWAGGER_2 = JSON.stringify({
  swagger: '2.0',
  info: { title: 'Legacy', version: '1' },
  basePath: '/v1',
  paths: {
    '/items': {
      get: {
        operationId: 'listItems',
        produces: ['application/json'],
        responses: { '200': { description: 'Items', schema: { type: 'array', items: {} } } },
      },
    },
  },
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('OpenAPI specifications', () => {
  let t: TestApp;
  let org: TestOrganization;
  beforeAll(async () => {
    t = await createTestApp();
    org = await t.factories.organization();
  });
  afterAll(() => t.close());

  const specsPath = (o: TestOrganization = org) => `/v1/orgs/${o.id}/openapi`;
  const specPath = (slug: string, o: TestOrganization = org) => `${specsPath(o)}/${slug}`;

  /** Waits until the processing that the last write asked for is complete. */
  async function processed(slug: string, o: TestOrganization = org): Promise<OpenAPISpecBody> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const res = await o.owner.client.get(specPath(slug, o)).expect(200);
      const spec = res.body as OpenAPISpecBody;
      if (spec.processingState === 'complete') {
        expectConforms(res, 'getOpenAPISpecBySlug');
        return spec;
      }
      if (Date.now() > deadline) throw new Error(`${slug} is still ${spec.processingState}`);
      await sleep(100);
    }
  }

  async function put(slug: string, text: string, expected = 200): Promise<OpenAPISpecBody> {
    t.clock.advance(1000);
    const res = await org.owner.client.put(specPath(slug), { source: { text } }).expect(expected);
    expectConforms(res, 'createOrUpdateOpenAPISpecBySlug');
    return res.body as OpenAPISpecBody;
  }

  async function versions(slug: string): Promise<PageOf<VersionBody>> {
    const res = await org.owner.client.get(`${specPath(slug)}/versions`).expect(200);
    expectConforms(res, 'listOpenAPISpecVersions');
    return res.body as PageOf<VersionBody>;
  }

  describe('processing of a text source', () => {
    it('goes pending → complete with one version, and the same text again makes none', async () => {
      const created = await t.factories.later.openAPISpec(org, {
        text: JSON.stringify(petstore()),
      });
      expect(created).toMatchObject({
        object: 'openapi-spec',
        processingState: 'pending',
        visibility: 'private',
        permissions: { view: true, edit: true },
        urls: {
          location: `${TEST_PUBLIC_URL}/v1/orgs/${org.id}/openapi/${created.slug}`,
          app: `${TEST_PUBLIC_URL}/o/${org.id}/openapi/${created.slug}`,
        },
      });
      expect(created).not.toHaveProperty('sourceURL');
      expect(created).not.toHaveProperty('lastVersion');
      expect(created.urls).not.toHaveProperty('published');

      const done = await processed(created.slug);
      expect(done.lastVersion).toEqual(expect.any(String));
      expect(done.lastProcessedAt).toEqual(expect.any(String));
      expect(done).not.toHaveProperty('lastProcessErrorCode');
      expect(done).not.toHaveProperty('lastProcessedErrors');
      expect((await versions(created.slug)).items.map((v) => v.id)).toEqual([done.lastVersion]);

      // Whitespace and formatting do not make a new version: the parsed content is the same.
      const again = await put(created.slug, JSON.stringify(petstore(), null, 2));
      expect(again.processingState).toBe('pending');
      const redone = await processed(created.slug);
      expect(redone.lastVersion).toBe(done.lastVersion);
      expect(new Date(redone.lastProcessedAt!).getTime()).toBeGreaterThan(
        new Date(done.lastProcessedAt!).getTime(),
      );
      expect((await versions(created.slug)).count).toBe(1);
    });

    it('makes a second version when the text changes; versions, latest and content', async () => {
      const created = await t.factories.later.openAPISpec(org, {
        text: JSON.stringify(petstore('First')),
      });
      const first = await processed(created.slug);
      await put(created.slug, JSON.stringify(petstore('Second')));
      const second = await processed(created.slug);
      expect(second.lastVersion).not.toBe(first.lastVersion);

      const listed = await versions(created.slug);
      expect(listed.count).toBe(2);
      // Newest first.
      expect(listed.items.map((v) => v.id)).toEqual([second.lastVersion, first.lastVersion]);
      const location = (id: string) =>
        `${TEST_PUBLIC_URL}/v1/orgs/${org.id}/openapi/${created.slug}/versions/${id}`;
      expect(listed.items[1]).toEqual({
        object: 'openapi-spec-version',
        id: first.lastVersion,
        createdAt: expect.any(String),
        url: `${location(first.lastVersion!)}/content`,
        urls: { location: location(first.lastVersion!) },
      });

      const latest = await org.owner.client.get(`${specPath(created.slug)}/versions/latest`);
      expect(latest.status).toBe(200);
      expectConforms(latest, 'getLatestOpenAPISpecVersion');
      expect((latest.body as VersionBody).id).toBe(second.lastVersion);

      const old = await org.owner.client
        .get(`${specPath(created.slug)}/versions/${first.lastVersion}`)
        .expect(200);
      expectConforms(old, 'getOpenAPISpecVersionById');
      expect((old.body as VersionBody).id).toBe(first.lastVersion);

      const oldContent = await org.owner.client
        .get(`${specPath(created.slug)}/versions/${first.lastVersion}/content`)
        .expect(200);
      expectConforms(oldContent, 'getOpenAPISpecVersionContentById');
      expect(oldContent.body).toEqual({
        filesystem: { 'openapi.json': petstore('First') },
        url: `${location(first.lastVersion!)}/content`,
      });

      const latestContent = await org.owner.client
        .get(`${specPath(created.slug)}/versions/latest/content`)
        .expect(200);
      expectConforms(latestContent, 'getLatestOpenAPISpecVersionContent');
      expect((latestContent.body as ContentBody).filesystem).toEqual({
        'openapi.json': petstore('Second'),
      });
    });

    it('pages through versions', async () => {
      const created = await t.factories.later.openAPISpec(org, {
        text: JSON.stringify(petstore('v1')),
      });
      await processed(created.slug);
      for (const title of ['v2', 'v3']) {
        await put(created.slug, JSON.stringify(petstore(title)));
        await processed(created.slug);
      }
      const first = await org.owner.client
        .get(`${specPath(created.slug)}/versions?limit=2`)
        .expect(200);
      expectConforms(first, 'listOpenAPISpecVersions');
      const page1 = first.body as PageOf<VersionBody>;
      expect(page1).toMatchObject({ count: 3, next: { page: expect.any(String) } });
      const second = await org.owner.client
        .get(`${specPath(created.slug)}/versions?limit=2&page=${page1.next!.page}`)
        .expect(200);
      const page2 = second.body as PageOf<VersionBody>;
      expect(page2.next).toBeUndefined();
      const ids = [...page1.items, ...page2.items].map((v) => v.id);
      expect(new Set(ids).size).toBe(3);
    });

    it('reads YAML (OpenAPI 3.1) and Swagger 2.0', async () => {
      const yaml = await t.factories.later.openAPISpec(org, { text: PETSTORE_YAML });
      const yamlDone = await processed(yaml.slug);
      expect(yamlDone.lastVersion).toBeDefined();
      const yamlContent = await org.owner.client
        .get(`${specPath(yaml.slug)}/versions/latest/content`)
        .expect(200);
      const filesystem = (yamlContent.body as ContentBody).filesystem;
      expect(Object.keys(filesystem)).toEqual(['openapi.yaml']);
      expect(filesystem['openapi.yaml']).toMatchObject({
        openapi: '3.1.0',
        info: { version: '2.0' },
        paths: { '/pets/{petId}': { get: { operationId: 'getPet' } } },
      });

      const swagger = await t.factories.later.openAPISpec(org, { text: SWAGGER_2 });
      const swaggerDone = await processed(swagger.slug);
      expect(swaggerDone.lastVersion).toBeDefined();
      expect(swaggerDone).not.toHaveProperty('lastProcessErrorCode');
    });

    it('lists the problems of an invalid document with their location, and keeps the previous version', async () => {
      const created = await t.factories.later.openAPISpec(org, {
        text: JSON.stringify(petstore()),
      });
      const good = await processed(created.slug);

      const broken = petstore();
      const pets = (broken.paths as Record<string, Record<string, Record<string, unknown>>>)[
        '/pets'
      ];
      delete pets.get.responses;
      pets.get.summary = 42;
      await put(created.slug, JSON.stringify(broken));
      const failed = await processed(created.slug);
      expect(failed.lastProcessErrorCode).toBe('PARSE_ERROR');
      expect(failed.lastVersion).toBe(good.lastVersion);
      const messages = failed.lastProcessedErrors!.map((e) => e.message);
      expect(messages).toEqual(
        expect.arrayContaining([
          "openapi.json#/paths/~1pets/get: must have required property 'responses'",
          'openapi.json#/paths/~1pets/get/summary: must be string',
        ]),
      );
      expect(failed.lastProcessedErrors!.every((e) => e.code === 'INVALID_DOCUMENT')).toBe(true);
      // The previous version still serves.
      const latest = await org.owner.client
        .get(`${specPath(created.slug)}/versions/latest/content`)
        .expect(200);
      expect((latest.body as ContentBody).filesystem).toEqual({ 'openapi.json': petstore() });

      // A valid source again clears the errors.
      await put(created.slug, JSON.stringify(petstore('Fixed')));
      const fixed = await processed(created.slug);
      expect(fixed).not.toHaveProperty('lastProcessErrorCode');
      expect(fixed).not.toHaveProperty('lastProcessedErrors');
      expect(fixed.lastVersion).not.toBe(good.lastVersion);
    });

    it.each([
      [
        'invalid YAML',
        'openapi: 3.0.0\ninfo: [unclosed\n',
        'SYNTAX_ERROR',
        /^the specification: invalid JSON or YAML at line \d+, column \d+: /,
      ],
      [
        'a scalar',
        'just some words',
        'SYNTAX_ERROR',
        /^the specification: not a JSON or YAML object/,
      ],
      [
        'an unsupported version',
        JSON.stringify({ ...petstore(), openapi: '4.0.0' }),
        'UNSUPPORTED_DOCUMENT',
        /^openapi\.json: not an OpenAPI 3\.0, 3\.1 or Swagger 2\.0 document \(openapi: "4\.0\.0"\)\.$/,
      ],
      [
        'a document of something else',
        JSON.stringify({ name: 'package', version: '1.0.0' }),
        'UNSUPPORTED_DOCUMENT',
        /neither an openapi nor a swagger field/,
      ],
      [
        'a missing internal reference',
        JSON.stringify({
          ...petstore(),
          components: { schemas: { Pets: { $ref: '#/components/schemas/Nope' } } },
        }),
        'INVALID_REFERENCE',
        /Missing \$ref pointer "#\/components\/schemas\/Nope".* \(at openapi\.json#\/components\/schemas\/Pets\)\.$/,
      ],
      [
        'a relative reference to another file',
        JSON.stringify({
          ...petstore(),
          components: { schemas: { Pets: { $ref: 'schemas/pets.yaml' } } },
        }),
        'INVALID_REFERENCE',
        /^schemas\/pets\.yaml: a specification given as text can only use references inside itself/,
      ],
    ])('fails with PARSE_ERROR on %s', async (_label, text, code, message) => {
      const created = await t.factories.later.openAPISpec(org, { text });
      const failed = await processed(created.slug);
      expect(failed.lastProcessErrorCode).toBe('PARSE_ERROR');
      expect(failed).not.toHaveProperty('lastVersion');
      expect(failed.lastProcessedErrors).toEqual([
        { code, message: expect.stringMatching(message) },
      ]);
      // No version yet: `latest` says so.
      const latest = await org.owner.client
        .get(`${specPath(created.slug)}/versions/latest`)
        .expect(404);
      expectConforms(latest, 'getLatestOpenAPISpecVersion');
      expect(latest.body.error.message).toBe(
        'OpenAPI specification version not found: the specification has no version yet.',
      );
    });
  });

  describe('create and PUT', () => {
    it('PUT creates (201), then updates (200)', async () => {
      const slug = `put-${unique()}`;
      const created = await put(slug, JSON.stringify(petstore()), 201);
      expect(created).toMatchObject({ slug, processingState: 'pending', visibility: 'private' });
      await processed(slug);
      const updated = await put(slug, JSON.stringify(petstore('Updated')), 200);
      expect(updated.id).toBe(created.id);
      expect(updated.processingState).toBe('pending');
      const done = await processed(slug);
      expect((await versions(slug)).count).toBe(2);
      expect(done.updatedAt >= updated.updatedAt).toBe(true);
    });

    it.each([
      ['an empty slug', ''],
      ['a leading hyphen', '-api'],
      ['a trailing hyphen', 'api-'],
      ['a double hyphen', 'pet--store'],
      ['an underscore', 'pet_store'],
      ['a dot', 'pet.store'],
      ['a space', 'pet store'],
      ['101 characters', 'a'.repeat(101)],
    ])('refuses a slug with %s (400)', async (_label, slug) => {
      const res = await org.owner.client
        .post(specsPath(), { slug, source: { text: '{}' } })
        .expect(400);
      expectConforms(res, 'createOpenAPISpec');
      expect(res.body.error.message).toMatch(/^slug /);
    });

    it('refuses an invalid slug in the path of a PUT (400)', async () => {
      const res = await org.owner.client
        .put(specPath('pet--store'), { source: { text: '{}' } })
        .expect(400);
      expectConforms(res, 'createOrUpdateOpenAPISpecBySlug');
      expect(res.body.error.message).toMatch(/^specSlug must be letters and digits/);
      await org.owner.client.put(specPath('a'.repeat(101)), { source: { text: '{}' } }).expect(400);
    });

    it('accepts 100 characters, digits and upper case (as the seed does)', async () => {
      const long = 'a'.repeat(100);
      await org.owner.client.post(specsPath(), { slug: long, source: { text: '{}' } }).expect(201);
      const upper = await org.owner.client
        .post(specsPath(), { slug: 'PetStore-V2', source: { text: '{}' } })
        .expect(201);
      expect(upper.body.slug).toBe('PetStore-V2');
      await org.owner.client.get(specPath('PetStore-V2')).expect(200);
      // Slugs are compared exactly.
      await org.owner.client.get(specPath('petstore-v2')).expect(404);
    });

    it('answers 409 for a slug taken in the organization, not in another one', async () => {
      const slug = `taken-${unique()}`;
      await t.factories.later.openAPISpec(org, { slug, text: '{}' });
      const res = await org.owner.client
        .post(specsPath(), { slug, source: { text: '{}' } })
        .expect(409);
      expect(res.body.error.message).toBe(
        `An OpenAPI specification with slug "${slug}" already exists in this organization.`,
      );
      const other = await t.factories.organization();
      await t.factories.later.openAPISpec(other, { slug, text: '{}' });
    });

    it.each([
      ['both url and text', { url: 'https://example.com/openapi.json', text: '{}' }, /source/],
      ['neither', {}, /source must be an object with either url or text/],
      ['an empty text', { text: '' }, /^source\.text must be longer than or equal to 1/],
      ['a text that is not a string', { text: 12 }, /source\.text must be a string/],
      [
        'a URL of 2049 characters',
        { url: `https://example.com/${'a'.repeat(2029)}` },
        /source\.url must be shorter than or equal to 2048/,
      ],
      [
        'a URL that is not http(s)',
        { url: 'ftp://example.com/openapi.json' },
        /source\.url must be an http\(s\) URL/,
      ],
      ['a URL that is no URL', { url: 'not a url' }, /source\.url must be an http\(s\) URL/],
      [
        'an unknown field',
        { url: 'https://example.com/a.json', branch: 'main' },
        /property source\.branch should not exist/,
      ],
    ])('refuses a source with %s (400)', async (_label, source, message) => {
      const res = await org.owner.client
        .post(specsPath(), { slug: `s-${unique()}`, source })
        .expect(400);
      expectConforms(res, 'createOpenAPISpec');
      expect(res.body.error.message).toMatch(message);
      await org.owner.client.put(specPath(`s-${unique()}`), { source }).expect(400);
    });

    it('refuses a missing source or unknown fields (400)', async () => {
      await org.owner.client.post(specsPath(), { slug: `s-${unique()}` }).expect(400);
      await org.owner.client
        .post(specsPath(), { slug: `s-${unique()}`, source: { text: '{}' }, title: 'x' })
        .expect(400);
      await org.owner.client.put(specPath(`s-${unique()}`), {}).expect(400);
    });

    it('takes a URL of 2048 characters', async () => {
      const url = `http://127.0.0.1:9/${'a'.repeat(2029)}`;
      expect(url).toHaveLength(2048);
      const res = await org.owner.client
        .post(specsPath(), { slug: `long-url-${unique()}`, source: { url } })
        .expect(201);
      expect(res.body.sourceURL).toBe(url);
    });
  });

  describe('list, visibility, delete', () => {
    it('lists the organization’s specifications oldest first, in pages', async () => {
      const other = await t.factories.organization();
      const made: string[] = [];
      for (let i = 0; i < 3; i++)
        made.push((await t.factories.later.openAPISpec(other, { text: '{}' })).id);
      const first = await other.owner.client.get(`${specsPath(other)}?limit=2`).expect(200);
      expectConforms(first, 'listOpenAPISpecs');
      const page1 = first.body as PageOf<OpenAPISpecBody>;
      expect(page1.count).toBe(3);
      const second = await other.owner.client
        .get(`${specsPath(other)}?limit=2&page=${page1.next!.page}`)
        .expect(200);
      expectConforms(second, 'listOpenAPISpecs');
      const page2 = second.body as PageOf<OpenAPISpecBody>;
      expect(page2.next).toBeUndefined();
      expect([...page1.items, ...page2.items].map((s) => s.id)).toEqual(made);
      await other.owner.client.get(`${specsPath(other)}?limit=0`).expect(400);
      await other.owner.client.get(`${specsPath(other)}?page=garbage`).expect(400);
    });

    it('PATCH sets the visibility; a public specification is published under PUBLIC_URL', async () => {
      const created = await t.factories.later.openAPISpec(org, {
        text: JSON.stringify(petstore('Public')),
      });
      await processed(created.slug);
      const published = `${TEST_PUBLIC_URL}/v1/openapi/${org.id}/${created.slug}`;
      await t.anonymous.get(`/v1/openapi/${org.id}/${created.slug}`).expect(404);

      const patched = await org.owner.client
        .patch(specPath(created.slug), { visibility: 'public' })
        .expect(200);
      expectConforms(patched, 'updateOpenAPISpecBySlug');
      expect(patched.body).toMatchObject({ visibility: 'public', urls: { published } });
      expect((await org.owner.client.get(specPath(created.slug))).body.urls.published).toBe(
        published,
      );
      const document = await t.anonymous.get(`/v1/openapi/${org.id}/${created.slug}`).expect(200);
      expect(document.body).toEqual(petstore('Public'));

      const hidden = await org.owner.client
        .patch(specPath(created.slug), { visibility: 'private' })
        .expect(200);
      expect(hidden.body.urls).not.toHaveProperty('published');
      await t.anonymous.get(`/v1/openapi/${org.id}/${created.slug}`).expect(404);
    });

    it('takes visibility on create and PUT; refuses an invalid one (400)', async () => {
      const res = await org.owner.client
        .post(specsPath(), { slug: `v-${unique()}`, source: { text: '{}' }, visibility: 'public' })
        .expect(201);
      expect(res.body.visibility).toBe('public');
      const bad = await org.owner.client
        .patch(specPath(res.body.slug), { visibility: 'unlisted' })
        .expect(400);
      expectConforms(bad, 'updateOpenAPISpecBySlug');
      await org.owner.client.patch(specPath(res.body.slug), {}).expect(400);
      const kept = await org.owner.client
        .put(specPath(res.body.slug), { source: { text: '{}' } })
        .expect(200);
      expect(kept.body.visibility).toBe('public');
    });

    it('DELETE removes the specification and its versions; 204 also when absent', async () => {
      const created = await t.factories.later.openAPISpec(org, {
        text: JSON.stringify(petstore()),
      });
      const done = await processed(created.slug);
      const res = await org.owner.client.delete(specPath(created.slug)).expect(204);
      expectConforms(res, 'deleteOpenAPISpecBySlug');
      await org.owner.client.get(specPath(created.slug)).expect(404);
      await org.owner.client.get(`${specPath(created.slug)}/versions`).expect(404);
      const rows = await t.dataSource.query('SELECT id FROM openapi_spec_versions WHERE id = $1', [
        done.lastVersion,
      ]);
      expect(rows).toEqual([]);
      await org.owner.client.delete(specPath(created.slug)).expect(204);
    });
  });

  describe('not found', () => {
    it('distinguishes no specification from no version', async () => {
      const noSpec = 'OpenAPI specification not found.';
      const noVersion = 'OpenAPI specification version not found.';
      const missing = specPath(`missing-${unique()}`);
      for (const [path, operationId] of [
        [missing, 'getOpenAPISpecBySlug'],
        [`${missing}/versions`, 'listOpenAPISpecVersions'],
        [`${missing}/versions/latest`, 'getLatestOpenAPISpecVersion'],
        [`${missing}/versions/latest/content`, 'getLatestOpenAPISpecVersionContent'],
        [`${missing}/versions/abc`, 'getOpenAPISpecVersionById'],
        [`${missing}/versions/abc/content`, 'getOpenAPISpecVersionContentById'],
      ]) {
        const res = await org.owner.client.get(path).expect(404);
        expectConforms(res, operationId);
        expect(res.body.error.message).toBe(noSpec);
      }
      await org.owner.client.patch(missing, { visibility: 'public' }).expect(404);

      const created = await t.factories.later.openAPISpec(org, {
        text: JSON.stringify(petstore()),
      });
      await processed(created.slug);
      for (const [path, operationId] of [
        [`${specPath(created.slug)}/versions/nope`, 'getOpenAPISpecVersionById'],
        [`${specPath(created.slug)}/versions/nope/content`, 'getOpenAPISpecVersionContentById'],
      ]) {
        const res = await org.owner.client.get(path).expect(404);
        expectConforms(res, operationId);
        expect(res.body.error.message).toBe(noVersion);
      }
    });

    it('does not show another organization’s specifications or versions', async () => {
      const other = await t.factories.organization();
      const theirs = await t.factories.later.openAPISpec(other, {
        text: JSON.stringify(petstore()),
      });
      const done = await processed(theirs.slug, other);
      // Through their organization: not a member.
      const res = await org.owner.client.get(specPath(theirs.slug, other)).expect(404);
      expect(res.body.error.message).toBe('Organization not found.');
      await org.owner.client.get(specsPath(other)).expect(404);
      await org.owner.client
        .put(specPath(theirs.slug, other), { source: { text: '{}' } })
        .expect(404);
      await org.owner.client.delete(specPath(theirs.slug, other)).expect(404);
      // Through one's own organization: no such specification, no such version.
      await org.owner.client.get(specPath(theirs.slug)).expect(404);
      const mine = await t.factories.later.openAPISpec(org, { text: JSON.stringify(petstore()) });
      await processed(mine.slug);
      const version = await org.owner.client
        .get(`${specPath(mine.slug)}/versions/${done.lastVersion}`)
        .expect(404);
      expect(version.body.error.message).toBe('OpenAPI specification version not found.');
      await other.owner.client.get(specPath(theirs.slug, other)).expect(200);
    });
  });

  describe('access', () => {
    it('lets a read member read, not write (403); permissions say so', async () => {
      const created = await t.factories.later.openAPISpec(org, {
        text: JSON.stringify(petstore()),
      });
      await processed(created.slug);
      const reader = await t.factories.asMember(org, 'read');
      const res = await reader.get(specPath(created.slug)).expect(200);
      expectConforms(res, 'getOpenAPISpecBySlug');
      expect(res.body.permissions).toEqual({ view: true, edit: false });
      await reader.get(specsPath()).expect(200);
      await reader.get(`${specPath(created.slug)}/versions/latest/content`).expect(200);

      const refused = await reader
        .post(specsPath(), { slug: `r-${unique()}`, source: { text: '{}' } })
        .expect(403);
      expect(refused.body.error.message).toBe('This needs the create role on this organization.');
      await reader.put(specPath(created.slug), { source: { text: '{}' } }).expect(403);
      await reader.patch(specPath(created.slug), { visibility: 'public' }).expect(403);
      await reader.delete(specPath(created.slug)).expect(403);
      await org.owner.client.get(specPath(created.slug)).expect(200);
    });

    it('lets a create member write (createOpenAPISpec), and refuses guests and strangers', async () => {
      const creator = await t.factories.asMember(org, 'create');
      const res = await creator
        .post(specsPath(), { slug: `c-${unique()}`, source: { text: '{}' } })
        .expect(201);
      expect(res.body.permissions).toEqual({ view: true, edit: true });
      const orgBody = await creator.get(`/v1/orgs/${org.id}`).expect(200);
      expect(orgBody.body.permissions.createOpenAPISpec).toBe(true);

      const editor = await t.factories.asMember(org, 'edit');
      await editor.post(specsPath(), { slug: `e-${unique()}`, source: { text: '{}' } }).expect(403);

      const guest = await t.factories.asMember(org, null);
      await guest.get(specsPath()).expect(403);
      const stranger = (await t.factories.user()).client;
      await stranger.get(specsPath()).expect(404);
      await t.anonymous.get(specsPath()).expect(401);
    });
  });

  describe('latest content for other modules (OpenAPISpecs)', () => {
    it('answers the dereferenced root document by slug or id', async () => {
      const specs = t.bindery.app.get(OpenAPISpecs);
      const created = await t.factories.later.openAPISpec(org, {
        text: JSON.stringify(petstore('Deref')),
      });
      const done = await processed(created.slug);
      const bySlug = await specs.latestContent(org.id, created.slug);
      expect(bySlug).toMatchObject({ specId: created.id, versionId: done.lastVersion });
      const document = bySlug!.document as {
        paths: Record<string, { get: { responses: Record<string, unknown> } }>;
      };
      expect(document.paths['/pets'].get.responses['200']).toEqual({
        description: 'The pets',
        content: {
          'application/json': {
            schema: {
              type: 'array',
              items: {
                type: 'object',
                required: ['id'],
                properties: { id: { type: 'integer' }, name: { type: 'string' } },
              },
            },
          },
        },
      });
      expect(await specs.latestContent(org.id, created.id)).toEqual(bySlug);

      expect(await specs.latestContent(org.id, 'no-such-spec')).toBeNull();
      const other = await t.factories.organization();
      expect(await specs.latestContent(other.id, created.slug)).toBeNull();

      const failed = await t.factories.later.openAPISpec(org, { text: 'not: [valid' });
      await processed(failed.slug);
      expect(await specs.latestContent(org.id, failed.slug)).toEqual({
        specId: failed.id,
        versionId: null,
        document: null,
      });
    });
  });
});
