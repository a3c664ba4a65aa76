import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The pieces of the hostile-input test (test/platform/fuzz.e2e-spec.ts): the operations of the
 * committed API document, a plausible body for each from its schema, and the hostile values
 * sent in paths, queries and bodies. Everything is deterministic for a given seed.
 */

type Schema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  format?: string;
  minLength?: number;
  minimum?: number;
  minItems?: number;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  example?: unknown;
  default?: unknown;
};

interface ApiDocument {
  paths: Record<string, Record<string, RawOperation>>;
  components: { schemas: Record<string, Schema> };
}

interface RawOperation {
  operationId?: string;
  parameters?: { name: string; in: string; schema?: Schema }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  'x-bindery-access'?: string;
  'x-bindery-body-limit'?: string;
  responses?: Record<string, { content?: Record<string, unknown> }>;
}

/** A place in a body, with what its schema declares there. */
export interface FuzzField {
  /** `['changes']`, `['changes', '0']` (an item), `['changes', '0', 'document']`. */
  path: string[];
  kind: 'array' | 'object' | 'value';
  /** A value of its schema: an array holds one plausible item, an object its required parts. */
  example: unknown;
}

export interface FuzzOperation {
  operationId: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** `/v1/orgs/{organizationId}`, as in the document. */
  template: string;
  pathParams: string[];
  queryParams: string[];
  /** A body built from the operation's request schema; undefined when it takes none. */
  body?: Record<string, unknown> | unknown[];
  /** The properties of the body schema and the items of its arrays, nested ones too. */
  fields: FuzzField[];
  access: string;
  /** The body may be a list of what `body` is (a batch: `oneOf` an object or a list of them). */
  bodyTakesList: boolean;
  /** Marked `x-bindery-body-limit: large` (content and batches). */
  largeBody: boolean;
  /** Answers with a page people see (text/html) too: a sign-in or invitation page. */
  page: boolean;
}

const document = JSON.parse(
  readFileSync(join(__dirname, '..', '..', 'openapi', 'bindery.openapi.json'), 'utf8'),
) as ApiDocument;

function resolve(schema: Schema | undefined, seen = 0): Schema {
  if (!schema) return {};
  if (schema.$ref && seen < 20) {
    const name = schema.$ref.split('/').pop() as string;
    return resolve(document.components.schemas[name], seen + 1);
  }
  if (schema.allOf) {
    return schema.allOf.reduce<Schema>((merged, part) => {
      const resolved = resolve(part, seen + 1);
      return {
        ...merged,
        ...resolved,
        properties: { ...merged.properties, ...resolved.properties },
        required: [...(merged.required ?? []), ...(resolved.required ?? [])],
      };
    }, {});
  }
  const variant = schema.oneOf?.[0] ?? schema.anyOf?.[0];
  return variant ? resolve(variant, seen + 1) : schema;
}

/** A value of the schema, as plausible as a schema alone can make it (required parts only). */
export function exampleOf(input: Schema | undefined, depth = 0): unknown {
  const schema = resolve(input);
  if (schema.example !== undefined && typeof schema.example !== 'object') return schema.example;
  if (schema.enum?.length) return schema.enum.find((value) => value !== null) ?? null;
  if (schema.default !== undefined && typeof schema.default !== 'object') return schema.default;
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type ?? (schema.properties ? 'object' : 'string')) {
    case 'string':
      switch (schema.format) {
        case 'email':
          return 'fuzz@example.com';
        case 'uri':
          return 'https://example.com/fuzz';
        case 'date-time':
          return '2026-01-01T00:00:00.000Z';
        default:
          return 'fuzz'.padEnd(schema.minLength ?? 0, 'z');
      }
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return false;
    case 'array':
      return depth > 6
        ? []
        : Array.from({ length: schema.minItems ?? 0 }, () => exampleOf(schema.items, depth + 1));
    default: {
      if (depth > 6) return {};
      const value: Record<string, unknown> = {};
      for (const name of schema.required ?? []) {
        value[name] = exampleOf(schema.properties?.[name], depth + 1);
      }
      return value;
    }
  }
}

/**
 * The properties of a schema and the items of its arrays (`0`), three levels deep, each with
 * its kind and a plausible value.
 */
function fieldsOf(input: Schema, prefix: string[] = []): FuzzField[] {
  if (prefix.length >= 3) return [];
  const schema = resolve(input);
  if (isArray(schema)) {
    const item = [...prefix, '0'];
    const items = resolve(schema.items);
    return prefix.length === 0
      ? []
      : [{ path: item, kind: kindOf(items), example: plausible(items) }, ...fieldsOf(items, item)];
  }
  return Object.entries(schema.properties ?? {}).flatMap(([name, property]) => {
    const resolved = resolve(property);
    const path = [...prefix, name];
    return [
      { path, kind: kindOf(resolved), example: plausible(resolved) },
      ...fieldsOf(resolved, path),
    ];
  });
}

function isArray(schema: Schema): boolean {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return types.includes('array') || schema.items !== undefined;
}

/** A value of the schema may be a list: it is one, or one of its variants is. */
function mayBeList(schema: Schema | undefined, depth = 0): boolean {
  if (!schema || depth > 20) return false;
  if (schema.$ref) {
    return mayBeList(
      document.components.schemas[schema.$ref.split('/').pop() as string],
      depth + 1,
    );
  }
  const variants = [...(schema.oneOf ?? []), ...(schema.anyOf ?? [])];
  return isArray(schema) || variants.some((variant) => mayBeList(variant, depth + 1));
}

function kindOf(schema: Schema): FuzzField['kind'] {
  if (isArray(schema)) return 'array';
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  return type === 'object' || (type === undefined && schema.properties) ? 'object' : 'value';
}

/** exampleOf, but an array holds one item, so that what is inside it is reached. */
function plausible(schema: Schema): unknown {
  return isArray(schema) ? [exampleOf(schema.items, 1)] : exampleOf(schema);
}

/** A copy of `body` with `value` at `path`, making the containers on the way. */
export function withValueAt(body: unknown, path: string[], value: unknown): unknown {
  const copy = structuredClone(body ?? {}) as Record<string, unknown>;
  let container: Record<string, unknown> = copy;
  path.forEach((key, i) => {
    if (i === path.length - 1) {
      container[key] = value;
      return;
    }
    const child = container[key];
    if (child === null || typeof child !== 'object') {
      container[key] = /^\d+$/.test(path[i + 1]) ? [] : {};
    }
    container = container[key] as Record<string, unknown>;
  });
  return copy;
}

function valueAt(body: unknown, path: string[]): unknown {
  return path.reduce<unknown>(
    (value, key) =>
      value !== null && typeof value === 'object'
        ? (value as Record<string, unknown>)[key]
        : undefined,
    body,
  );
}

/**
 * The operation's body with `value` at `path`; the containers on the way that the plausible
 * body leaves out (an optional list, an optional object) get a plausible value first, so
 * that the hostile value sits among valid siblings and is what the validation must judge.
 */
export function mutate(op: FuzzOperation, path: string[], value: unknown): unknown {
  let body: unknown = op.body;
  for (let i = 1; i < path.length; i++) {
    const prefix = path.slice(0, i);
    const current = valueAt(body, prefix);
    if (current !== null && typeof current === 'object') continue;
    const field = op.fields.find((f) => f.path.join('.') === prefix.join('.'));
    if (field) body = withValueAt(body, prefix, structuredClone(field.example));
  }
  return withValueAt(body, path, value);
}

/** Every operation of the committed API document. */
export function listOperations(): FuzzOperation[] {
  const operations: FuzzOperation[] = [];
  for (const [template, item] of Object.entries(document.paths)) {
    for (const [method, raw] of Object.entries(item)) {
      if (!raw.operationId) continue;
      const parameters = raw.parameters ?? [];
      const bodySchema = raw.requestBody?.content['application/json']?.schema;
      operations.push({
        operationId: raw.operationId,
        method: method.toUpperCase() as FuzzOperation['method'],
        template,
        pathParams: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        queryParams: parameters.filter((p) => p.in === 'query').map((p) => p.name),
        body: bodySchema ? (exampleOf(bodySchema) as FuzzOperation['body']) : undefined,
        fields: bodySchema ? fieldsOf(bodySchema) : [],
        bodyTakesList: mayBeList(bodySchema),
        access: raw['x-bindery-access'] ?? 'unknown',
        largeBody: raw['x-bindery-body-limit'] === 'large',
        page: Object.values(raw.responses ?? {}).some(
          (response) => response.content?.['text/html'] !== undefined,
        ),
      });
    }
  }
  return operations;
}

/** mulberry32: a small, seeded, well-spread generator. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `{a: {b: ...}}`, `levels` deep. */
export function deeplyNested(levels: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < levels; i++) value = i % 2 ? { a: value } : [value];
  return value;
}

/** `[[[…]]]`, `levels` deep. */
export function nestedArrays(levels: number): unknown {
  let value: unknown = [];
  for (let i = 0; i < levels; i++) value = [value];
  return value;
}

export interface HostileShape {
  label: string;
  value: () => unknown;
  /** The schema rules it out whatever else the body says: a 2xx answer is a defect too. */
  refused: boolean;
}

/**
 * Values of the wrong shape for a place of the body, made from what its schema declares there:
 * lists of lists, of scalars and of lists of objects where a list of objects is expected, a
 * valid item wrapped once more, an item or an indexed object instead of the list, a list
 * where an object is expected. (A null item, an empty object and a plain scalar are among
 * HOSTILE_VALUES, for every place.) Where the schema declares objects, none of these may be
 * taken: each is `refused`.
 */
export function hostileShapes(field: FuzzField): HostileShape[] {
  if (field.kind === 'array') {
    const item = (field.example as unknown[])[0];
    const ofObjects = item !== null && typeof item === 'object' && !Array.isArray(item);
    const shape = (label: string, value: () => unknown) => ({ label, value, refused: ofObjects });
    return [
      shape('array of an empty array', () => [[]]),
      shape('array of an array of an empty array', () => [[[]]]),
      shape('array of a number', () => [1]),
      shape('array of a string', () => ['x']),
      shape('array of an array of an empty object', () => [[{}]]),
      shape('its item in an array', () => [[structuredClone(item)]]),
      shape('its item, then an empty array', () => [structuredClone(item), []]),
      shape('an object indexed like the array', () => ({ '0': structuredClone(item) })),
      shape('deeply nested arrays', () => nestedArrays(64)),
      ...(ofObjects ? [shape('its item instead of the array', () => structuredClone(item))] : []),
    ];
  }
  if (field.kind === 'object') {
    const shape = (label: string, value: () => unknown) => ({ label, value, refused: true });
    return [
      shape('in an array', () => [structuredClone(field.example)]),
      shape('in an array of arrays', () => [[structuredClone(field.example)]]),
      shape('array of an empty object', () => [{}]),
      shape('array of an empty array', () => [[]]),
      // `{a: [{a: …}]}`: an object, so it may be taken where any object is.
      { label: 'deeply nested', value: () => deeplyNested(64), refused: false },
    ];
  }
  return [];
}

/** Hostile path segments, already percent-encoded. */
export const HOSTILE_SEGMENTS: [label: string, segment: string][] = [
  ['NUL', '%00'],
  ['NUL inside', 'a%00b'],
  ['lone surrogate as UTF-8', '%ED%A0%80'],
  ['overlong NUL', '%C0%80'],
  ['truncated escape', '%E0%A4%A'],
  ['bad escape', '%zz'],
  ['very long', 'x'.repeat(2000)],
  ['emoji', '%F0%9F%98%80'],
  ['quote', "'%20OR%201=1--"],
  ['dot segments', '..%2F..%2Fetc'],
  ['backslash', '%5C%5C'],
  ['number', '-1'],
  ['huge number', '1e309'],
];

/** Hostile query values, already percent-encoded; `name` is the parameter's name. */
export const HOSTILE_QUERY: [label: string, query: (name: string) => string][] = [
  ['NUL', (n) => `${n}=%00`],
  ['NUL inside', (n) => `${n}=a%00b`],
  ['lone surrogate as UTF-8', (n) => `${n}=%ED%A0%80`],
  ['truncated escape', (n) => `${n}=%E0%A4%A`],
  ['very long', (n) => `${n}=${'x'.repeat(4000)}`],
  ['negative', (n) => `${n}=-1`],
  ['zero', (n) => `${n}=0`],
  ['huge number', (n) => `${n}=1e309`],
  ['fraction', (n) => `${n}=1.5`],
  ['NaN', (n) => `${n}=NaN`],
  ['boolean', (n) => `${n}=true`],
  ['empty', (n) => `${n}=`],
  ['bare', (n) => n],
  ['repeated', (n) => `${n}=1&${n}=2`],
  ['brackets', (n) => `${n}[a]=1`],
  ['array brackets', (n) => `${n}[]=1`],
  ['JSON', (n) => `${n}=%7B%22a%22%3A1%7D`],
  ['emoji', (n) => `${n}=%F0%9F%98%80`],
];

/** Hostile values for every property of a body, nested ones included. */
export const HOSTILE_VALUES: [label: string, value: () => unknown][] = [
  ['null', () => null],
  ['true', () => true],
  ['number', () => 42],
  ['string', () => 'fuzz'],
  ['empty array', () => []],
  ['array of null', () => [null]],
  ['empty object', () => ({})],
  ['object with a NUL key', () => ({ '\u0000': 1 })],
  ['NUL inside', () => 'a\u0000b'],
  ['lone surrogate', () => 'a\ud800b'],
];

/** More hostile values, for the top-level properties of a body. */
export const HOSTILE_TOP_LEVEL_VALUES: [label: string, value: () => unknown][] = [
  ['negative', () => -1],
  ['fraction', () => 1.5],
  ['huge number', () => 1e308],
  ['empty string', () => ''],
  ['array of strings', () => ['fuzz']],
  ['long string', () => 'x'.repeat(100_000)],
  ['deep', () => deeplyNested(1000)],
  ['wide array', () => new Array(20_000).fill(0)],
];

/** Whole bodies, sent as raw JSON text. */
export const HOSTILE_RAW_BODIES: [label: string, text: string][] = [
  ['null', 'null'],
  ['array', '[]'],
  ['string', '"fuzz"'],
  ['number', '1'],
  ['true', 'true'],
  ['truncated', '{"a":'],
  ['unclosed', '['.repeat(5000)],
  ['two values', '{"a":1}{"b":2}'],
  ['empty object', '{}'],
  ['__proto__', '{"__proto__":{"polluted":true}}'],
  ['constructor', '{"constructor":{"prototype":{"polluted":true}}}'],
  ['deep', `${'[{"a":'.repeat(5000)}1${'}]'.repeat(5000)}`],
  ['NUL key', '{"\\u0000":1}'],
  ['raw control character', '{"a":"\u0001"}'],
  ['lone surrogate escape', '{"a":"\\udc00"}'],
  ['BOM', '\ufeff{}'],
];
