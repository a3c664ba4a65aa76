import { brotliCompressSync, gzipSync } from 'node:zlib';
import request from 'supertest';
import { createTestApp, TestApp } from '../helpers/app';
import {
  FuzzOperation,
  HOSTILE_QUERY,
  HOSTILE_RAW_BODIES,
  HOSTILE_SEGMENTS,
  HOSTILE_TOP_LEVEL_VALUES,
  HOSTILE_VALUES,
  hostileShapes,
  listOperations,
  mutate,
  seededRandom,
} from '../helpers/fuzz';
import { buildFixture, type Fixture, fixtureToken, pathOf } from '../helpers/operation-fixture';

/**
 * Hostile input against every operation of the committed API document (openapi/), in one
 * application process: valid ids from a fixture organization, then NUL characters, lone
 * surrogates, nulls, wrong types, huge and deep values, invalid JSON and bad encodings in the
 * path, the query and the body, with and without a token; and in the body, values of the wrong
 * shape made from the schema of each place (lists of lists or of scalars where a list of
 * objects is declared, a list where an object is). Any answer with status 5xx, any error body
 * that is not `{error:{code,message}}` (a page people see may refuse with an HTML page
 * instead), any request left unanswered, and any 2xx to a body whose shape the schema rules
 * out fails the test, each listed with what was sent; an unhandled promise rejection fails the
 * running test too (Jest's own handler), where it would have ended a server process.
 *
 * Deterministic: the seeded mutations depend on FUZZ_SEED only (default 19). The cases of one
 * operation run one after another, operations in document order with deletions last, so that
 * the fixture stays in place for as long as possible; a case that changes it (a valid update)
 * is harmless to the others.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 19);
/** Random multi-field mutations per operation with a body, on top of the systematic ones. */
const RANDOM_BODIES = 12;

interface Case {
  label: string;
  method: FuzzOperation['method'];
  path: string;
  token?: string;
  body?: string | Buffer;
  headers?: Record<string, string>;
  /** The operation is a page people see: it may refuse with a page (text/html) too. */
  page?: boolean;
  /** The body contradicts the operation's schema: it must be refused (4xx), not taken. */
  refused?: boolean;
}

const ALL = listOperations();
// Deletions last: everything else acts on the fixture while it is whole.
const OPERATIONS = [
  ...ALL.filter((op) => op.method !== 'DELETE'),
  ...ALL.filter((op) => op.method === 'DELETE'),
];

function tokenFor(op: FuzzOperation, fixture: Fixture): string | undefined {
  return fixtureToken(op, fixture);
}

const json = (value: unknown) => JSON.stringify(value);

function pathCases(op: FuzzOperation, fixture: Fixture): Case[] {
  return op.pathParams.flatMap((param) =>
    HOSTILE_SEGMENTS.map(([label, segment]) => ({
      label: `{${param}} ${label}`,
      method: op.method,
      page: op.page,
      path: pathOf(op, fixture, [param, segment]),
      token: tokenFor(op, fixture),
      body: op.body === undefined ? undefined : json(op.body),
    })),
  );
}

function queryCases(op: FuzzOperation, fixture: Fixture): Case[] {
  const path = pathOf(op, fixture);
  const token = tokenFor(op, fixture);
  const body = op.body === undefined ? undefined : json(op.body);
  const declared = op.queryParams.flatMap((param) =>
    HOSTILE_QUERY.map(([label, query]) => ({
      label: `?${param} ${label}`,
      method: op.method,
      page: op.page,
      path: `${path}?${query(param)}`,
      token,
      body,
    })),
  );
  return [
    ...declared,
    {
      label: 'unknown parameter with NUL',
      method: op.method,
      page: op.page,
      path: `${path}?zz%00=1`,
      token,
      body,
    },
  ];
}

function bodyCases(op: FuzzOperation, fixture: Fixture, random: () => number): Case[] {
  const path = pathOf(op, fixture);
  const token = tokenFor(op, fixture);
  const base = { method: op.method, path, token, page: op.page };
  if (op.body === undefined) {
    // A body where none is expected is ignored or refused, never a failure.
    return [{ ...base, label: 'unexpected invalid JSON body', body: '{"a":' }];
  }
  const cases: Case[] = [{ ...base, label: 'plausible body', body: json(op.body) }];
  for (const field of op.fields) {
    const values = [
      ...HOSTILE_VALUES,
      ...(field.path.length === 1 ? HOSTILE_TOP_LEVEL_VALUES : []),
    ];
    for (const [label, value] of values) {
      cases.push({
        ...base,
        label: `${field.path.join('.')} = ${label}`,
        body: json(mutate(op, field.path, value())),
      });
    }
    for (const shape of hostileShapes(field)) {
      cases.push({
        ...base,
        label: `${field.path.join('.')} = ${shape.label}`,
        body: json(mutate(op, field.path, shape.value())),
        refused: shape.refused,
      });
    }
  }
  // The whole body where an object is expected: in a list (unless a batch), in a list of lists.
  cases.push({
    ...base,
    label: 'body in an array',
    body: json([op.body]),
    refused: !op.bodyTakesList,
  });
  cases.push({
    ...base,
    label: 'body in an array of arrays',
    body: json([[op.body]]),
    refused: true,
  });
  for (const [label, text] of HOSTILE_RAW_BODIES) {
    cases.push({ ...base, label: `body ${label}`, body: text });
    cases.push({ ...base, token: undefined, label: `body ${label}, no token`, body: text });
  }
  const cheap = [...HOSTILE_VALUES, ...HOSTILE_TOP_LEVEL_VALUES.slice(0, 5)];
  for (let i = 0; i < RANDOM_BODIES && op.fields.length > 0; i++) {
    let body: unknown = op.body;
    const changed: string[] = [];
    for (let n = 1 + Math.floor(random() * 3); n > 0; n--) {
      const field = op.fields[Math.floor(random() * op.fields.length)];
      const choices: [string, () => unknown][] = [
        ...cheap,
        ...hostileShapes(field).map((s): [string, () => unknown] => [s.label, s.value]),
      ];
      const [label, value] = choices[Math.floor(random() * choices.length)];
      body = mutate({ ...op, body: body as FuzzOperation['body'] }, field.path, value());
      changed.push(`${field.path.join('.')} = ${label}`);
    }
    cases.push({ ...base, label: `random: ${changed.join(', ')}`, body: json(body) });
  }
  return cases;
}

const GZIP_BOMB = gzipSync(Buffer.alloc(64 * 1024 * 1024, 32));
const OVERSIZED = `{"a":"${'x'.repeat(12 * 1024 * 1024)}"}`;

/**
 * Bodies that are not what their headers say, with the operation's token and without one. The
 * heavy ones (a gzip bomb, a body over every limit) go to the routes with a large body limit
 * and to every tenth other route.
 */
function encodingCases(op: FuzzOperation, fixture: Fixture, index: number): Case[] {
  if (op.body === undefined) return [];
  const path = pathOf(op, fixture);
  const plain = json(op.body);
  const junk = Buffer.from('this is not compressed at all');
  const variants: [string, string | Buffer, Record<string, string>][] = [
    ['gzip that is not gzip', junk, { 'content-encoding': 'gzip' }],
    ['deflate that is not deflate', junk, { 'content-encoding': 'deflate' }],
    ['br that is not br', junk, { 'content-encoding': 'br' }],
    ['unknown coding', plain, { 'content-encoding': 'x-unknown' }],
    ['two codings', gzipSync(gzipSync(plain)), { 'content-encoding': 'gzip, gzip' }],
    ['real gzip', gzipSync(plain), { 'content-encoding': 'gzip' }],
    ['real br', brotliCompressSync(plain), { 'content-encoding': 'br' }],
    ['text/plain', plain, { 'content-type': 'text/plain' }],
    ['form', 'a=1&b=2', { 'content-type': 'application/x-www-form-urlencoded' }],
    ['latin1 charset', plain, { 'content-type': 'application/json; charset=latin1' }],
    ['utf-16 charset', plain, { 'content-type': 'application/json; charset=utf-16' }],
    ['no content type', plain, { 'content-type': '' }],
  ];
  if (op.largeBody || index % 10 === 0) {
    variants.push(
      ['gzip bomb', GZIP_BOMB, { 'content-encoding': 'gzip' }],
      ['over every limit', OVERSIZED, {}],
    );
  }
  return variants.flatMap(([label, body, headers]) => [
    { label, method: op.method, path, token: tokenFor(op, fixture), body, headers, page: op.page },
    { label: `${label}, no token`, method: op.method, path, body, headers, page: op.page },
  ]);
}

interface Answer {
  status: number;
  body: unknown;
  /** The answer's Content-Type. */
  type?: string;
  text?: string;
}

async function send(t: TestApp, c: Case): Promise<Answer> {
  let test = request(t.server)[c.method.toLowerCase() as 'get'](c.path);
  if (c.token) test = test.set('Authorization', `Bearer ${c.token}`);
  if (c.body !== undefined) {
    const headers = { 'content-type': 'application/json', ...c.headers };
    for (const [name, value] of Object.entries(headers)) {
      test = value === '' ? test.unset(name) : test.set(name, value);
    }
    // superagent would send a Buffer as JSON ({"type":"Buffer",...}): send its bytes.
    test = test.serialize((raw: unknown) => raw as string).send(c.body);
  }
  try {
    const res = await test.timeout(30_000);
    return { status: res.status, body: res.body, type: res.type, text: res.text };
  } catch (error) {
    return { status: 0, body: String((error as Error).message) };
  }
}

/** Why this answer is a defect, or undefined. */
function defect(answer: Answer, page = false, refused = false): string | undefined {
  if (answer.status === 0) return `no answer (${String(answer.body)})`;
  if (answer.status >= 500) return `${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`;
  if (answer.status < 400) return refused ? `${answer.status}: taken, not refused` : undefined;
  // A page people see refuses with a page that says why.
  if (page && answer.type === 'text/html') {
    return answer.text?.includes('<h1>') ? undefined : `${answer.status} page without a title`;
  }
  const error = (answer.body as { error?: { code?: unknown; message?: unknown } })?.error;
  const shaped =
    error !== undefined &&
    Object.keys(answer.body as object).length === 1 &&
    Object.keys(error).length === 2 &&
    error.code === answer.status &&
    typeof error.message === 'string' &&
    error.message.length > 0;
  return shaped
    ? undefined
    : `${answer.status} not in the error shape: ${JSON.stringify(answer.body).slice(0, 200)}`;
}

describe('hostile input (every operation of the API document)', () => {
  let t: TestApp;
  let fixture: Fixture;
  let sent = 0;

  beforeAll(async () => {
    t = await createTestApp({
      TRANSLATION_PROVIDER: 'libretranslate',
      TRANSLATION_API_URL: 'http://127.0.0.1:9',
      // The fuzz judges answers, not jobs: a job it queued (a Git sync to a hostile URL) could
      // still be at work when the app closes, and pg-boss would poll it after Jest's teardown.
      JOBS_IN_PROCESS: 'false',
    });
    fixture = await buildFixture(t);
  }, 120_000);

  afterAll(async () => {
    process.stdout.write(`hostile input: ${sent} requests sent\n`);
    await t.close();
  });

  async function run(cases: Case[]): Promise<string[]> {
    const found: string[] = [];
    for (const c of cases) {
      sent++;
      const problem = defect(await send(t, c), c.page, c.refused);
      if (problem) found.push(`${c.method} ${c.path.slice(0, 120)} [${c.label}]: ${problem}`);
    }
    return found;
  }

  it('covers every operation of the document', () => {
    expect(OPERATIONS.length).toBeGreaterThanOrEqual(200);
    expect(OPERATIONS.filter((op) => op.body !== undefined).length).toBeGreaterThanOrEqual(60);
  });

  it('answers hostile path segments with 4xx in the error shape', async () => {
    const found = await run(OPERATIONS.flatMap((op) => pathCases(op, fixture)));
    expect(found).toEqual([]);
  }, 600_000);

  it('answers hostile bodies with 4xx in the error shape', async () => {
    const random = seededRandom(SEED);
    const found = await run(
      OPERATIONS.filter((op) => op.method !== 'DELETE').flatMap((op) =>
        bodyCases(op, fixture, random),
      ),
    );
    expect(found).toEqual([]);
  }, 600_000);

  it('answers bodies that are not what their headers say with 4xx, with or without a token', async () => {
    const found = await run(OPERATIONS.flatMap((op, i) => encodingCases(op, fixture, i)));
    expect(found).toEqual([]);
  }, 600_000);

  it('answers hostile query parameters with 4xx in the error shape', async () => {
    const found = await run(OPERATIONS.flatMap((op) => queryCases(op, fixture)));
    expect(found).toEqual([]);
  }, 600_000);

  it('still answers after all of it', async () => {
    await t.anonymous.get('/health').expect(200);
    await fixture.owner.client.get('/v1/user').expect(200);
  });
});
