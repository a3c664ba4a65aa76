import type { DocumentBlock, JSONDocument } from '../documents/document';
import { apiReferencePages, type ApiReferencePage } from './api-reference-pages';

const REF = { kind: 'openapi', spec: 'pets' } as const;

/** Deterministic keys: k1, k2, … */
function keys(): () => string {
  let n = 0;
  return () => `k${++n}`;
}

function textOf(block: DocumentBlock): string {
  return (block.nodes ?? [])
    .map((node) => (node.object === 'text' ? node.leaves.map((leaf) => leaf.text).join('') : ''))
    .join('');
}

/** A block in short: `## text` for headings, `type method path` for OpenAPI pointers. */
function brief(block: DocumentBlock): string {
  const data = block.data ?? {};
  switch (block.type) {
    case 'heading-2':
      return `## ${textOf(block)}`;
    case 'openapi-operation':
      return `operation ${String(data.method)} ${String(data.path)}`;
    case 'openapi-webhook':
      return `webhook ${String(data.method)} ${String(data.name)}`;
    case 'openapi-schemas':
      return `schemas ${(data.schemas as string[]).join(',')}`;
    default:
      return block.type;
  }
}

interface Outline {
  title: string;
  description?: string;
  icon?: string;
  blocks: string[];
  pages?: Outline[];
}

function outline(pages: ApiReferencePage[]): Outline[] {
  return pages.map((page) => ({
    title: page.title,
    ...(page.description !== undefined ? { description: page.description } : {}),
    ...(page.icon !== undefined ? { icon: page.icon } : {}),
    blocks: page.document.nodes.map(brief),
    ...(page.pages.length > 0 ? { pages: outline(page.pages) } : {}),
  }));
}

const op = (summary?: string, tags?: string[], extra: Record<string, unknown> = {}) => ({
  ...(summary ? { summary } : {}),
  ...(tags ? { tags } : {}),
  responses: { '200': { description: 'OK' } },
  ...extra,
});

/** A small OpenAPI 3.0 document: declared tags, an operation with two tags, untagged ones. */
const PETSTORE_30 = {
  openapi: '3.0.3',
  info: { title: 'Petstore', version: '1.0.0' },
  tags: [
    { name: 'pets', description: 'Everything about your pets' },
    { name: 'store', description: 'Access to the store' },
    { name: 'unused', description: 'A tag no operation uses' },
  ],
  paths: {
    '/pets': {
      // Written out of OpenAPI's method order: pages follow get, put, post, delete, …
      post: op('Add a pet', ['pets']),
      get: op('List pets', ['pets']),
      parameters: [{ name: 'q', in: 'query', schema: { type: 'string' } }],
    },
    '/pets/{petId}': {
      get: op(undefined, ['pets']),
      delete: op('Delete a pet', ['pets', 'store', 'pets']),
    },
    '/store/inventory': { get: op('Inventory', ['store']) },
    '/health': { get: op('Health check') },
    '/users': { get: op('List users', ['users']) },
    '/version': { head: op(undefined, []) },
  },
  components: {
    schemas: {
      Pet: { type: 'object', properties: { id: { type: 'integer' } } },
      Error: { type: 'object' },
    },
  },
};

describe('apiReferencePages', () => {
  it('one page per tag in the declared order, then undeclared tags, Other and Models (3.0)', () => {
    expect(outline(apiReferencePages(REF, PETSTORE_30))).toEqual([
      {
        title: 'pets',
        description: 'Everything about your pets',
        blocks: [
          '## List pets',
          'operation get /pets',
          '## Add a pet',
          'operation post /pets',
          '## GET /pets/{petId}',
          'operation get /pets/{petId}',
          '## Delete a pet',
          'operation delete /pets/{petId}',
        ],
      },
      {
        title: 'store',
        description: 'Access to the store',
        blocks: [
          '## Delete a pet',
          'operation delete /pets/{petId}',
          '## Inventory',
          'operation get /store/inventory',
        ],
      },
      { title: 'users', blocks: ['## List users', 'operation get /users'] },
      {
        title: 'Other',
        blocks: [
          '## Health check',
          'operation get /health',
          '## HEAD /version',
          'operation head /version',
        ],
      },
      { title: 'Models', blocks: ['schemas Pet,Error'] },
    ]);
  });

  it('builds GitBook blocks that point into the specification', () => {
    const [pets, , , , models] = apiReferencePages(REF, PETSTORE_30, keys());
    const expected: JSONDocument = {
      object: 'document',
      data: {},
      nodes: [
        {
          object: 'block',
          key: 'k1',
          type: 'heading-2',
          data: {},
          nodes: [
            {
              object: 'text',
              key: 'k2',
              leaves: [{ object: 'leaf', text: 'List pets', marks: [] }],
            },
          ],
        },
        {
          object: 'block',
          key: 'k3',
          type: 'openapi-operation',
          data: { ref: { kind: 'openapi', spec: 'pets' }, path: '/pets', method: 'get' },
          isVoid: true,
        },
      ],
    };
    expect({ ...pets.document, nodes: pets.document.nodes.slice(0, 2) }).toEqual(expected);
    expect(models.document.nodes).toEqual([
      {
        object: 'block',
        key: expect.any(String),
        type: 'openapi-schemas',
        data: { ref: { kind: 'openapi', spec: 'pets' }, schemas: ['Pet', 'Error'] },
        isVoid: true,
      },
    ]);
  });

  it('gives every node of a page a distinct key', () => {
    const pages = apiReferencePages(REF, PETSTORE_30);
    for (const page of pages) {
      const all = page.document.nodes.flatMap((block) => [
        block.key,
        ...(block.nodes ?? []).map((node) => node.key),
      ]);
      expect(new Set(all).size).toBe(all.length);
    }
  });

  it('reads OpenAPI 3.1: webhooks, x-page extensions, x-parent nesting, x-internal', () => {
    const document = {
      openapi: '3.1.0',
      info: { title: 'Shop', version: '2' },
      tags: [
        {
          name: 'orders',
          description: 'Long description',
          'x-page-title': 'Orders',
          'x-page-description': 'Place and track orders',
          'x-page-icon': 'cart-shopping',
        },
        { name: 'refunds', 'x-parent': 'orders' },
        // A parent without operations of its own still gets a page for its child.
        { name: 'admin', 'x-page-title': 'Administration' },
        { name: 'keys', 'x-parent': 'admin' },
        { name: 'loop-a', 'x-parent': 'loop-b' },
        { name: 'loop-b', 'x-parent': 'loop-a' },
        { name: 'self', 'x-parent': 'self' },
        { name: 'orphan', 'x-parent': 'nowhere' },
      ],
      paths: {
        '/orders': { get: op('List orders', ['orders']) },
        '/refunds': { post: op('Refund', ['refunds']) },
        '/keys': {
          get: op('Keys', ['keys']),
          delete: op('Hidden', ['keys'], { 'x-internal': true }),
        },
        '/a': { get: op('A', ['loop-a']) },
        '/b': { get: op('B', ['loop-b']) },
        '/self': { get: op('Self', ['self']) },
        '/orphan': { get: op('Orphan', ['orphan']) },
        '/internal': { get: op('Internal', ['secret'], { 'x-internal': true }) },
      },
      webhooks: {
        newOrder: { post: op('New order', ['orders']) },
        orderShipped: { put: op(undefined, []) },
      },
      components: { schemas: { Order: { type: 'object' } } },
    };
    expect(outline(apiReferencePages(REF, document))).toEqual([
      {
        title: 'Orders',
        description: 'Place and track orders',
        icon: 'cart-shopping',
        blocks: ['## List orders', 'operation get /orders'],
        pages: [{ title: 'refunds', blocks: ['## Refund', 'operation post /refunds'] }],
      },
      {
        title: 'Administration',
        blocks: [],
        pages: [{ title: 'keys', blocks: ['## Keys', 'operation get /keys'] }],
      },
      { title: 'loop-a', blocks: ['## A', 'operation get /a'] },
      { title: 'loop-b', blocks: ['## B', 'operation get /b'] },
      { title: 'self', blocks: ['## Self', 'operation get /self'] },
      { title: 'orphan', blocks: ['## Orphan', 'operation get /orphan'] },
      {
        title: 'Webhooks',
        blocks: [
          '## New order',
          'webhook post newOrder',
          '## PUT orderShipped',
          'webhook put orderShipped',
        ],
      },
      { title: 'Models', blocks: ['schemas Order'] },
    ]);
    const webhook = apiReferencePages(REF, document).find((page) => page.title === 'Webhooks')!;
    expect(webhook.document.nodes[1]).toEqual({
      object: 'block',
      key: expect.any(String),
      type: 'openapi-webhook',
      data: { ref: REF, name: 'newOrder', method: 'post' },
      isVoid: true,
    });
  });

  it('reads Swagger 2.0: tags, operations and definitions', () => {
    const document = {
      swagger: '2.0',
      info: { title: 'Legacy', version: '1' },
      basePath: '/v1',
      tags: [{ name: 'user', description: 'Operations about users' }],
      paths: {
        '/user/{id}': {
          get: { summary: 'Get a user', tags: ['user'], responses: { 200: { description: 'OK' } } },
          patch: { tags: ['user', 'admin'], responses: { 200: { description: 'OK' } } },
        },
        '/ping': { options: { responses: { 200: { description: 'OK' } } } },
      },
      definitions: { User: { type: 'object' }, Admin: { type: 'object' } },
    };
    expect(outline(apiReferencePages(REF, document))).toEqual([
      {
        title: 'user',
        description: 'Operations about users',
        blocks: [
          '## Get a user',
          'operation get /user/{id}',
          '## PATCH /user/{id}',
          'operation patch /user/{id}',
        ],
      },
      { title: 'admin', blocks: ['## PATCH /user/{id}', 'operation patch /user/{id}'] },
      { title: 'Other', blocks: ['## OPTIONS /ping', 'operation options /ping'] },
      { title: 'Models', blocks: ['schemas User,Admin'] },
    ]);
  });

  it('has only a Models page for a document of schemas only, and no page for an empty one', () => {
    const schemasOnly = {
      openapi: '3.1.0',
      info: { title: 'Models', version: '1' },
      components: { schemas: { Thing: {} } },
    };
    expect(outline(apiReferencePages(REF, schemasOnly))).toEqual([
      { title: 'Models', blocks: ['schemas Thing'] },
    ]);
    const empty = {
      openapi: '3.0.0',
      info: { title: 'Empty', version: '1' },
      tags: [{ name: 'declared' }],
      paths: {},
      components: { schemas: {} },
    };
    expect(apiReferencePages(REF, empty)).toEqual([]);
    expect(apiReferencePages(REF, { swagger: '2.0', info: {}, paths: {} })).toEqual([]);
  });

  it('skips what is not an operation and survives malformed input', () => {
    const document = {
      openapi: '3.0.0',
      tags: [null, 'x', { name: '' }, { name: 'a' }, { name: 'a', description: 'second' }],
      paths: {
        '/x': {
          summary: 'Path summary',
          parameters: [],
          servers: [],
          $ref: '#/nowhere',
          get: op('  Padded \n summary ', ['a', '', 7 as unknown as string]),
          trace: 'not an operation',
        },
        '/y': null,
      },
      components: { schemas: [] },
      definitions: 'nope',
    };
    expect(outline(apiReferencePages(REF, document))).toEqual([
      { title: 'a', blocks: ['## Padded summary', 'operation get /x'] },
    ]);
    expect(apiReferencePages(REF, null)).toEqual([]);
    expect(apiReferencePages(REF, 'openapi: 3.0.0')).toEqual([]);
    expect(apiReferencePages(REF, { paths: [] })).toEqual([]);
  });
});
