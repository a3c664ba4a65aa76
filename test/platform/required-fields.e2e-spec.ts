import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { createTestApp, TestApp } from '../helpers/app';
import { type FuzzOperation, listOperations } from '../helpers/fuzz';
import { buildFixture, type Fixture, fixtureToken, pathOf } from '../helpers/operation-fixture';

/**
 * Every operation of the committed API document whose JSON body is an object with required
 * properties, sent `{}`: a 400 whose message says "<field> is required" of one of them (and
 * not what a field's other rules say of no value, as "title must be shorter than…").
 */

type Schema = {
  $ref?: string;
  type?: string;
  required?: string[];
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
};

interface ApiDocument {
  paths: Record<string, Record<string, { operationId?: string; requestBody?: RequestBody }>>;
  components: { schemas: Record<string, Schema> };
}

interface RequestBody {
  content: Record<string, { schema: Schema }>;
}

const document = JSON.parse(
  readFileSync(join(__dirname, '..', '..', 'openapi', 'bindery.openapi.json'), 'utf8'),
) as ApiDocument;

/** The required properties of an object schema ($ref and allOf followed); null for a union. */
function requiredOf(schema: Schema | undefined, depth = 0): string[] | null {
  if (!schema || depth > 20) return [];
  if (schema.$ref) {
    return requiredOf(document.components.schemas[schema.$ref.split('/').pop()!], depth + 1);
  }
  if (schema.oneOf || schema.anyOf) return null;
  const parts = (schema.allOf ?? []).map((part) => requiredOf(part, depth + 1));
  if (parts.includes(null)) return null;
  return [...(schema.required ?? []), ...parts.flat().filter((name): name is string => !!name)];
}

const requiredByOperation = new Map<string, string[]>();
for (const item of Object.values(document.paths)) {
  for (const raw of Object.values(item)) {
    const schema = raw.requestBody?.content['application/json']?.schema;
    const required = raw.operationId && schema ? requiredOf(schema) : null;
    if (raw.operationId && required && required.length > 0) {
      requiredByOperation.set(raw.operationId, [...new Set(required)]);
    }
  }
}

const OPERATIONS = listOperations().filter((op) => requiredByOperation.has(op.operationId));

/** A change request's author may not review it: a review comes from another member. */
const AS_OTHER_MEMBER = new Set(['submitChangeRequestReview']);

function tokenFor(op: FuzzOperation, fixture: Fixture, other: string): string | undefined {
  if (AS_OTHER_MEMBER.has(op.operationId)) return other;
  return fixtureToken(op, fixture);
}

describe('required properties (e2e)', () => {
  let t: TestApp;
  let fixture: Fixture;
  let otherToken: string;

  beforeAll(async () => {
    t = await createTestApp();
    fixture = await buildFixture(t);
    otherToken = (await t.factories.asMember(fixture.org, 'admin')).token!;
  }, 120_000);
  afterAll(() => t.close());

  it('covers the operations with required body properties', () => {
    expect(OPERATIONS.length).toBeGreaterThan(20);
    expect(OPERATIONS.map((op) => op.operationId)).toEqual(
      expect.arrayContaining(['createOrganization', 'adminCreateUser', 'inviteToCollection']),
    );
  });

  it('answers {} with 400 "<field> is required" for every one of them', async () => {
    const failures: string[] = [];
    for (const op of OPERATIONS) {
      const required = requiredByOperation.get(op.operationId)!;
      const token = tokenFor(op, fixture, otherToken);
      let test = request(t.server)
        [op.method.toLowerCase() as 'post'](pathOf(op, fixture))
        .set('Content-Type', 'application/json');
      if (token) test = test.set('Authorization', `Bearer ${token}`);
      const res = await test.send('{}');
      const message: unknown = res.body?.error?.message;
      const named =
        typeof message === 'string' &&
        required.some((field) => message.split('; ').includes(`${field} is required`));
      if (res.status !== 400 || !named) {
        failures.push(
          `${op.operationId} (${op.method} ${op.template}, requires ${required.join(', ')}): ` +
            `${res.status} ${JSON.stringify(message)}`,
        );
      }
    }
    expect(failures).toEqual([]);
  }, 300_000);
});
