import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/**
 * Validates HTTP responses against the schemas of GitBook's public OpenAPI document, so wire
 * compatibility is checked by tests, not by eye. The seed's operations are checked against
 * `@gitbook/api` 0.146.0 (`@gitbook/api/spec/openapi.json`), the default; operations from
 * GitBook's newer API (the published-content side) against 0.201.0 (`GITBOOK_0201`).
 */

type JsonObject = Record<string, unknown>;

interface OpenApiResponse {
  $ref?: string;
  description?: string;
  content?: Record<string, { schema?: JsonObject }>;
}

interface OpenApiOperation {
  operationId?: string;
  responses?: Record<string, OpenApiResponse>;
}

interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation | unknown>>;
  components: JsonObject;
}

interface LocatedOperation {
  operation: OpenApiOperation;
  /** JSON pointer segments of the operation inside the document. */
  pointer: string[];
}

interface LocatedResponse {
  /** The key under `responses` that matched: `"200"`, `"2XX"` or `"default"`. */
  key: string;
  /** JSON pointer segments of the JSON body schema, or null when no JSON body is declared. */
  schemaPointer: string[] | null;
}

/** The spec an operation is checked against: the package that ships it. */
export type GitbookSpec = '@gitbook/api' | '@gitbook/api-0.201' | '@gitbook/api-0.202' | 'bindery';
export const GITBOOK_0146: GitbookSpec = '@gitbook/api';
export const GITBOOK_0201: GitbookSpec = '@gitbook/api-0.201';
/** GitBook's 0.202.0 operations Bindery has (the translation glossary). */
export const GITBOOK_0202: GitbookSpec = '@gitbook/api-0.202';
/**
 * Bindery's own API document (openapi/bindery.openapi.json), for Bindery's own operations
 * (API tokens, webhooks), which GitBook's spec does not have.
 */
export const BINDERY_DOCUMENT: GitbookSpec = 'bindery';

const SPEC_ID = 'gitbook-openapi';
const JSON_MEDIA_TYPE = 'application/json';
const MAX_LISTED_ERRORS = 20;
const MAX_BODY_CHARS = 1500;
// Formats GitBook uses without defining a syntax; registered as "anything goes" so Ajv stays quiet.
const OPAQUE_FORMATS = ['emoji', 'icon'];
// Values of these keys are data, not schemas, so normalisation must not rewrite them.
const DATA_KEYWORDS = new Set(['example', 'examples', 'enum', 'const', 'default']);

/** One spec, loaded and compiled on first use. */
interface LoadedSpec {
  document: OpenApiDocument;
  operations: Map<string, LocatedOperation>;
  ajv?: Ajv2020;
  validators: Map<string, ValidateFunction>;
}
const loaded = new Map<GitbookSpec, LoadedSpec>();

export function expectConforms(
  response: { status: number; body: unknown },
  operationId: string,
  spec: GitbookSpec = GITBOOK_0146,
): void {
  const located = locateResponse(spec, operationId, response.status);
  if (located.schemaPointer === null) {
    assertEmptyBody(response, operationId, located.key);
    return;
  }
  const validate = validatorFor(spec, operationId, located.key, located.schemaPointer);
  if (!validate(response.body)) {
    throw new Error(
      describeFailure(spec, operationId, response, located.key, validate.errors ?? []),
    );
  }
}

/**
 * A value against one of GitBook's component schemas by name (`SpaceContentUpdatedEvent`), for
 * what no operation answers: the bodies of events.
 */
export function expectMatchesSchema(
  value: unknown,
  schemaName: string,
  spec: GitbookSpec = GITBOOK_0201,
): void {
  const pointer = ['components', 'schemas', schemaName];
  if (valueAt(loadSpec(spec).document, pointer) === undefined) {
    throw new Error(`GitBook's spec (${spec}) has no schema ${schemaName}`);
  }
  const validate = validatorFor(spec, `schema ${schemaName}`, 'schema', pointer);
  if (!validate(value)) {
    const errors = (validate.errors ?? []).slice(0, MAX_LISTED_ERRORS).map(describeError);
    throw new Error(
      [
        `Not a ${schemaName} (${spec}):`,
        ...errors.map((e) => `  - ${e}`),
        truncatedJson(value),
      ].join('\n'),
    );
  }
}

export function gitbookSchemaFor(
  operationId: string,
  status: number,
  spec: GitbookSpec = GITBOOK_0146,
): object {
  const located = locateResponse(spec, operationId, status);
  if (located.schemaPointer === null) {
    throw new Error(
      `GitBook's spec declares no JSON body for ${operationId} → ${status} (responses["${located.key}"])`,
    );
  }
  const document = loadSpec(spec).document;
  const schema = valueAt(document, located.schemaPointer) as JsonObject;
  const target =
    typeof schema.$ref === 'string' ? valueAt(document, refToPointer(schema.$ref)) : schema;
  return structuredClone(target) as object;
}

export function listGitbookOperationIds(spec: GitbookSpec = GITBOOK_0146): string[] {
  return [...loadSpec(spec).operations.keys()].sort();
}

// ---------------------------------------------------------------------------------------------
// Spec lookup

function loadSpec(spec: GitbookSpec): LoadedSpec {
  const cached = loaded.get(spec);
  if (cached) return cached;
  if (spec === BINDERY_DOCUMENT) {
    const file = join(__dirname, '..', '..', 'openapi', 'bindery.openapi.json');
    const own = JSON.parse(readFileSync(file, 'utf8')) as OpenApiDocument;
    const result = { document: own, operations: locateOperations(own), validators: new Map() };
    loaded.set(spec, result);
    return result;
  }
  const document = JSON.parse(
    readFileSync(require.resolve(`${spec}/spec/openapi.json`), 'utf8'),
  ) as OpenApiDocument;
  relaxEmptyDocument(document);
  relaxPageEditedAttributes(document);
  relaxComputedPageDocument(document);
  relaxPlainObject(document);
  relaxUIRenderEvent(document);
  applySeedRenames(document);
  const result = { document, operations: locateOperations(document), validators: new Map() };
  loaded.set(spec, result);
  return result;
}

/**
 * Bindery's specification renames one field GitBook's requires: a revision's Git commit
 * (`GitSyncCommit`) says `createdByDocs` where GitBook says `createdByGitBook`. The seed wins,
 * so responses are checked against the renamed field.
 */
function applySeedRenames(spec: OpenApiDocument): void {
  const schemas = spec.components.schemas as Record<
    string,
    { properties?: JsonObject; required?: string[] }
  >;
  const commit = schemas.GitSyncCommit;
  if (!commit?.properties?.createdByGitBook || !commit.required?.includes('createdByGitBook')) {
    throw new Error("GitBook's GitSyncCommit schema changed: revisit applySeedRenames()");
  }
  const { createdByGitBook, ...others } = commit.properties;
  commit.properties = { ...others, createdByDocs: createdByGitBook };
  commit.required = commit.required.map((name) =>
    name === 'createdByGitBook' ? 'createdByDocs' : name,
  );
}

/**
 * Spec defect: `Document` (mixed into every document page with `allOf`) is
 * `oneOf: [{markdown}, {document}, Empty]`, where Empty is `{ properties: {},
 * additionalProperties: false }`. Read literally, Empty forbids the page's own properties
 * (`id`, `title`, …), so no page without a body (every page of a listing, an empty page)
 * can conform, although GitBook sends exactly such pages. The one thing relaxed: the Empty
 * variant is read as "has neither `markdown` nor `document`". Pages with a body are still
 * checked against the first two variants, unchanged.
 */
function relaxEmptyDocument(spec: OpenApiDocument): void {
  const schemas = spec.components.schemas as Record<string, { oneOf?: JsonObject[] }>;
  const variants = schemas.Document?.oneOf;
  const index = variants?.findIndex((variant) => variant.title === 'Empty') ?? -1;
  if (!variants || index < 0 || variants[index].additionalProperties !== false) {
    // Fail loudly when a new spec version fixes or reshapes Document: drop or revisit this patch.
    throw new Error("GitBook's Document schema changed: revisit relaxEmptyDocument()");
  }
  variants[index] = {
    type: 'object',
    title: 'Empty',
    not: { anyOf: [{ required: ['markdown'] }, { required: ['document'] }] },
  };
}

/**
 * Spec defect: `PlainObject` (a ContentKit component's `props`) declares its values `oneOf` a
 * PlainObject, a string, a boolean, a number or an array, but PlainObject itself has no
 * `type: object`, so a string matches both the first and the second variant: read literally, no
 * props with a plain value conform. PlainObject is read as an object; the variants are unchanged.
 */
function relaxPlainObject(spec: OpenApiDocument): void {
  const schemas = spec.components.schemas as Record<string, JsonObject>;
  const plain = schemas.PlainObject;
  if (!plain) return;
  if (plain.type !== undefined) {
    throw new Error("GitBook's PlainObject changed: revisit relaxPlainObject()");
  }
  plain.type = 'object';
}

/**
 * Spec defect: `UIRenderEvent` is `oneOf` SpaceEvent, SiteEvent and InstallationEvent, but a
 * SpaceEvent and a SiteEvent are each an InstallationEvent with one more property, so a render
 * in a space or a site matches two variants: read literally, only a render of neither conforms.
 * The variants are read as `anyOf`; each is still checked as written.
 */
function relaxUIRenderEvent(spec: OpenApiDocument): void {
  const schemas = spec.components.schemas as Record<string, { allOf?: JsonObject[] }>;
  const render = schemas.UIRenderEvent?.allOf?.[0];
  if (!render) return;
  if (!Array.isArray(render.oneOf) || render.oneOf.length !== 3) {
    throw new Error("GitBook's UIRenderEvent changed: revisit relaxUIRenderEvent()");
  }
  render.anyOf = render.oneOf;
  delete render.oneOf;
}

/**
 * Spec defect (0.146 and 0.201): `RevisionPageDocument` ends with `oneOf: [{computed,
 * computedSeed} (required), {documentId} (optional)]`; the second variant matches any page, so
 * read literally a computed page (GitBook's `builtin:openapi` pages) never conforms. The second
 * variant is read as "not computed"; the first is checked as written.
 */
function relaxComputedPageDocument(spec: OpenApiDocument): void {
  const schemas = spec.components.schemas as Record<string, { allOf?: JsonObject[] }>;
  const parts = schemas.RevisionPageDocument?.allOf;
  const last = parts?.[parts.length - 1] as { oneOf?: JsonObject[] } | undefined;
  const plain = last?.oneOf?.[1] as { properties?: JsonObject; required?: unknown } | undefined;
  if (last?.oneOf?.length !== 2 || !plain?.properties?.documentId || plain.required) {
    throw new Error("GitBook's RevisionPageDocument changed: revisit relaxComputedPageDocument()");
  }
  last.oneOf[1] = { ...plain, not: { required: ['computed'] } };
}

/**
 * Spec defect (0.146 and 0.201): a `page_edited` change's `attributes` are `oneOf` the
 * document, group and link attribute sets, which all allow `title` and `emoji` and none of which
 * forbids other properties, so every set of attributes matches two or three of them: read
 * literally, no `page_edited` conforms. The variants are read as `anyOf`; each is still checked as written.
 */
function relaxPageEditedAttributes(spec: OpenApiDocument): void {
  const schemas = spec.components.schemas as Record<
    string,
    { properties?: Record<string, { oneOf?: JsonObject[]; anyOf?: JsonObject[] }> }
  >;
  const edited = schemas.RevisionSemanticChangePageEdited;
  if (!edited) return;
  const attributes = edited.properties?.attributes;
  if (!attributes?.oneOf || attributes.oneOf.length !== 3) {
    throw new Error(
      "GitBook's page_edited attributes changed: revisit relaxPageEditedAttributes()",
    );
  }
  attributes.anyOf = attributes.oneOf;
  delete attributes.oneOf;
}

function locateOperations(document: OpenApiDocument): Map<string, LocatedOperation> {
  const operations = new Map<string, LocatedOperation>();
  for (const [path, pathItem] of Object.entries(document.paths)) {
    for (const [method, candidate] of Object.entries(pathItem)) {
      const operation = candidate as OpenApiOperation;
      if (typeof operation?.operationId !== 'string') continue;
      operations.set(operation.operationId, { operation, pointer: ['paths', path, method] });
    }
  }
  return operations;
}

function findOperation(spec: GitbookSpec, operationId: string): LocatedOperation {
  const found = loadSpec(spec).operations.get(operationId);
  if (!found) {
    throw new Error(`Unknown GitBook operationId "${operationId}" (not in ${spec}'s spec)`);
  }
  return found;
}

function locateResponse(spec: GitbookSpec, operationId: string, status: number): LocatedResponse {
  const { operation, pointer } = findOperation(spec, operationId);
  const responses = operation.responses ?? {};
  const key = pickResponseKey(Object.keys(responses), status);
  if (key === undefined) {
    const declared = Object.keys(responses).join(', ') || 'none';
    throw new Error(
      `GitBook's spec declares no ${status} response for ${operationId} (declared: ${declared})`,
    );
  }

  let response = responses[key];
  let responsePointer = [...pointer, 'responses', key];
  if (typeof response.$ref === 'string') {
    responsePointer = refToPointer(response.$ref);
    response = valueAt(loadSpec(spec).document, responsePointer) as OpenApiResponse;
  }
  const hasJsonBody = response.content?.[JSON_MEDIA_TYPE]?.schema !== undefined;
  return {
    key,
    schemaPointer: hasJsonBody ? [...responsePointer, 'content', JSON_MEDIA_TYPE, 'schema'] : null,
  };
}

/** OpenAPI precedence: the exact code, then its range (`2XX`), then `default`. */
function pickResponseKey(keys: string[], status: number): string | undefined {
  const range = `${Math.floor(status / 100)}XX`;
  return (
    keys.find((key) => key === String(status)) ??
    keys.find((key) => key.toUpperCase() === range) ??
    keys.find((key) => key === 'default')
  );
}

// ---------------------------------------------------------------------------------------------
// JSON pointers

function refToPointer(ref: string): string[] {
  if (!ref.startsWith('#/')) throw new Error(`Only local $refs are supported, got "${ref}"`);
  return ref
    .slice(2)
    .split('/')
    .map((segment) => decodeURIComponent(segment).replace(/~1/g, '/').replace(/~0/g, '~'));
}

function pointerToFragment(pointer: string[]): string {
  const escaped = pointer.map((segment) =>
    encodeURIComponent(segment.replace(/~/g, '~0').replace(/\//g, '~1')),
  );
  return `#/${escaped.join('/')}`;
}

function valueAt(root: unknown, pointer: string[]): unknown {
  let node = root;
  for (const segment of pointer) {
    if (node === null || typeof node !== 'object' || !(segment in node)) {
      throw new Error(`Nothing at ${pointerToFragment(pointer)} in GitBook's spec`);
    }
    node = (node as JsonObject)[segment];
  }
  return node;
}

// ---------------------------------------------------------------------------------------------
// Validation

function validatorFor(
  spec: GitbookSpec,
  operationId: string,
  key: string,
  schemaPointer: string[],
): ValidateFunction {
  const { validators } = loadSpec(spec);
  const cacheKey = `${operationId} ${key}`;
  let validate = validators.get(cacheKey);
  if (!validate) {
    validate = loadAjv(spec).compile({ $ref: `${SPEC_ID}${pointerToFragment(schemaPointer)}` });
    validators.set(cacheKey, validate);
  }
  return validate;
}

function loadAjv(spec: GitbookSpec): Ajv2020 {
  const state = loadSpec(spec);
  if (state.ajv) return state.ajv;
  // strict: false lets OpenAPI-only keywords (discriminator, example, x-*) through as annotations.
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  for (const format of OPAQUE_FORMATS) ajv.addFormat(format, true);
  const document = normaliseNullable(structuredClone(state.document)) as JsonObject;
  ajv.addSchema({ ...document, $id: SPEC_ID });
  state.ajv = ajv;
  return ajv;
}

/**
 * The spec is OpenAPI 3.0 (despite being validated as 2020-12 here). Ajv understands `nullable`
 * only next to `type`, and GitBook also writes `{ $ref, nullable: true }`, which would make Ajv
 * refuse to compile; such schemas become `anyOf: [schema, null]`.
 */
function normaliseNullable(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(normaliseNullable);
  if (node === null || typeof node !== 'object') return node;

  const result: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    result[key] = DATA_KEYWORDS.has(key) ? value : normaliseNullable(value);
  }
  if (typeof result.nullable !== 'boolean' || 'type' in result) return result;

  const { nullable, ...schema } = result;
  return nullable === true ? { anyOf: [schema, { type: 'null' }] } : schema;
}

// ---------------------------------------------------------------------------------------------
// Reporting

/** supertest yields `{}` (JSON parser) or `''` / undefined when there is no body. */
function assertEmptyBody(
  response: { status: number; body: unknown },
  operationId: string,
  key: string,
): void {
  const { body } = response;
  const isEmpty =
    body === undefined ||
    body === '' ||
    (typeof body === 'object' &&
      body !== null &&
      !Array.isArray(body) &&
      !Object.keys(body).length);
  if (!isEmpty) {
    throw new Error(
      `${operationId} → HTTP ${response.status}: GitBook's spec declares no JSON body ` +
        `(responses["${key}"]), but the response has one.\nBody: ${truncatedJson(body)}`,
    );
  }
}

function describeFailure(
  spec: GitbookSpec,
  operationId: string,
  response: { status: number; body: unknown },
  key: string,
  errors: ErrorObject[],
): string {
  const listed = errors.slice(0, MAX_LISTED_ERRORS).map((error) => `  - ${describeError(error)}`);
  if (errors.length > MAX_LISTED_ERRORS) {
    listed.push(`  … and ${errors.length - MAX_LISTED_ERRORS} more`);
  }
  return [
    `${operationId} → HTTP ${response.status} does not conform to GitBook's schema (${spec}) ` +
      `(responses["${key}"]), ${errors.length} error(s):`,
    ...listed,
    `Body: ${truncatedJson(response.body)}`,
  ].join('\n');
}

function describeError(error: ErrorObject): string {
  const allowed = error.keyword === 'enum' ? ` ${JSON.stringify(error.params.allowedValues)}` : '';
  return `${error.instancePath || '/'} ${error.message ?? error.keyword}${allowed} (${error.schemaPath})`;
}

function truncatedJson(body: unknown): string {
  const json = JSON.stringify(body) ?? String(body);
  return json.length > MAX_BODY_CHARS ? `${json.slice(0, MAX_BODY_CHARS)}… (truncated)` : json;
}
