import type { OpenAPIObject } from '@nestjs/swagger';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { generateOpenApiDocument } from './api-document';
import { isErrorBody, operationsOf } from './platform/swagger/api-document';
import { OPERATION_TAGS } from './platform/swagger/operation-tags';
import { API_TAGS } from './platform/swagger/tags';
import { TAG_ALIASES, UNTAGGED } from './api-coverage';

/**
 * What the Swagger UI shows of every operation (tags, texts, examples), checked on the document
 * the code generates, against GitBook's specs for the tags.
 */

type Json = Record<string, unknown>;
interface GitbookSpec {
  tags: { name: string }[];
  paths: Record<string, Record<string, { operationId?: string; tags?: string[] }>>;
}
const gitbook = (name: string) =>
  JSON.parse(readFileSync(require.resolve(`${name}/spec/openapi.json`), 'utf8')) as GitbookSpec;
const SPECS = [
  gitbook('@gitbook/api'),
  gitbook('@gitbook/api-0.201'),
  gitbook('@gitbook/api-0.202'),
];

/** GitBook's group of each of its operations: its first tag other than `critical`. */
function gitbookTags(): Map<string, string> {
  const tags = new Map<string, string>(Object.entries(UNTAGGED));
  for (const spec of [...SPECS].reverse()) {
    for (const item of Object.values(spec.paths)) {
      for (const operation of Object.values(item)) {
        const tag = operation.tags?.find((name) => name !== 'critical');
        if (operation.operationId && tag) tags.set(operation.operationId, TAG_ALIASES[tag] ?? tag);
      }
    }
  }
  return tags;
}

/** The OpenAPI 3.0 `nullable` of `{ $ref, nullable }` made JSON Schema (as the conformance tests do). */
function normaliseNullable(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(normaliseNullable);
  if (node === null || typeof node !== 'object') return node;
  const result: Json = {};
  for (const [key, value] of Object.entries(node)) {
    result[key] = ['example', 'examples', 'enum', 'const', 'default'].includes(key)
      ? value
      : normaliseNullable(value);
  }
  if (typeof result.nullable !== 'boolean' || 'type' in result) return result;
  const { nullable, ...schema } = result;
  return nullable === true ? { anyOf: [schema, { type: 'null' }] } : schema;
}

describe('the API document as the Swagger UI shows it', () => {
  let document: OpenAPIObject;
  let operations: ReturnType<typeof operationsOf>;

  beforeAll(async () => {
    document = await generateOpenApiDocument();
    operations = operationsOf(document);
  }, 60_000);

  it("puts each operation in one group: GitBook's for GitBook's operations, Bindery's for its own", () => {
    const fromGitbook = gitbookTags();
    const bindery = new Set(API_TAGS.filter((tag) => tag.binderyOnly).map((tag) => tag.name));
    const wrong: string[] = [];
    for (const { operation } of operations) {
      const id = operation.operationId as string;
      const marked = (operation as unknown as Json)['x-bindery-only'] === true;
      const expected = fromGitbook.get(id);
      const tags = operation.tags ?? [];
      if (tags.length !== 1) wrong.push(`${id}: tags ${tags.join(', ') || 'none'}`);
      else if (expected && (tags[0] !== expected || marked))
        wrong.push(
          `${id}: ${tags[0]}${marked ? ' (marked Bindery only)' : ''}, GitBook's ${expected}`,
        );
      else if (!expected && !(bindery.has(tags[0]) && marked))
        wrong.push(`${id}: not in GitBook's API, yet in ${tags[0]}${marked ? '' : ', unmarked'}`);
      if (!expected && !operation.description?.startsWith('Bindery only: '))
        wrong.push(`${id}: description does not start "Bindery only: "`);
    }
    expect(wrong).toEqual([]);
    const ids = new Set(operations.map(({ operation }) => operation.operationId as string));
    expect(Object.keys(OPERATION_TAGS).filter((id) => !ids.has(id))).toEqual([]);
  });

  it("lists every group used, described, in GitBook's order then Bindery's", () => {
    const used = new Set(operations.flatMap(({ operation }) => operation.tags ?? []));
    const listed = (document.tags ?? []).map((tag) => tag.name);
    expect([...listed].sort()).toEqual([...used].sort());
    for (const tag of document.tags ?? []) expect(tag.description?.length).toBeGreaterThan(20);
    const order = SPECS[0].tags.map((tag) => tag.name);
    const gitbookListed = listed.filter((name) => order.includes(name));
    expect(gitbookListed).toEqual(
      [...gitbookListed].sort((a, b) => order.indexOf(a) - order.indexOf(b)),
    );
    const firstBindery = listed.findIndex((name) =>
      API_TAGS.some((tag) => tag.name === name && tag.binderyOnly),
    );
    expect(listed.slice(firstBindery).every((name) => !order.includes(name))).toBe(true);
  });

  it('gives every operation a summary and a description', () => {
    const missing = operations
      .filter(({ operation }) => !operation.summary?.trim() || !operation.description?.trim())
      .map(({ operation }) => operation.operationId);
    expect(missing).toEqual([]);
  });

  it("has a request example for every body, valid against the operation's schema", () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ ...(normaliseNullable(structuredClone(document)) as Json), $id: 'bindery' });
    const failures: string[] = [];
    for (const { path, method, operation } of operations) {
      const body = operation.requestBody;
      if (!body || !('content' in body)) continue;
      for (const [media, content] of Object.entries(body.content)) {
        const id = operation.operationId as string;
        if (content.example === undefined) {
          failures.push(`${id}: no example`);
          continue;
        }
        const pointer = ['paths', path, method, 'requestBody', 'content', media, 'schema']
          .map((segment) => encodeURIComponent(segment.replace(/~/g, '~0').replace(/\//g, '~1')))
          .join('/');
        const validate = ajv.compile({ $ref: `bindery#/${pointer}` });
        if (!validate(content.example)) {
          failures.push(`${id}: ${ajv.errorsText(validate.errors)}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('has an example body for every error status, with that status and a message', () => {
    const messages = new Map<string, Set<string>>();
    const failures: string[] = [];
    for (const { operation } of operations) {
      for (const [status, response] of Object.entries(operation.responses)) {
        if (Number(status) < 400 || !response || !('content' in response) || !response.content)
          continue;
        const media = Object.values(response.content).find((m) => isErrorBody(m.schema));
        if (!media) continue;
        const example = media.example as
          { error?: { code?: number; message?: string } } | undefined;
        if (example?.error?.code !== Number(status) || !example.error.message) {
          failures.push(`${operation.operationId} ${status}: ${JSON.stringify(example)}`);
          continue;
        }
        const seen = messages.get(status) ?? new Set<string>();
        messages.set(status, seen.add(example.error.message));
      }
    }
    expect(failures).toEqual([]);
    // The messages depend on the operation: each resource is named in its own 404.
    expect(messages.get('404')?.size).toBeGreaterThan(20);
    expect(messages.get('400')?.size).toBeGreaterThan(20);
    expect(messages.get('403')?.size).toBeGreaterThan(5);
  });
});
