import { brotliCompressSync, gzipSync } from 'node:zlib';
import request from 'supertest';
import { createTestApp, TEST_ADMIN_TOKEN, TestApp } from '../helpers/app';
import { insertPage } from '../helpers/content';
import type { TestOrganization, TestUser } from '../helpers/factories';
import {
  FuzzOperation,
  HOSTILE_QUERY,
  HOSTILE_RAW_BODIES,
  HOSTILE_SEGMENTS,
  HOSTILE_TOP_LEVEL_VALUES,
  HOSTILE_VALUES,
  listOperations,
  seededRandom,
  withValueAt,
} from '../helpers/fuzz';

/**
 * Hostile input against every operation of the committed API document (openapi/), in one
 * application process: valid ids from a fixture organization, then NUL characters, lone
 * surrogates, nulls, wrong types, huge and deep values, invalid JSON and bad encodings in the
 * path, the query and the body, with and without a token. Any answer with status 5xx, any
 * error body that is not `{error:{code,message}}` and any request left unanswered fails the
 * test, each listed with what was sent; an unhandled promise rejection fails the running test
 * too (Jest's own handler), where it would have ended a server process.
 *
 * Deterministic: the seeded mutations depend on FUZZ_SEED only (default 19). The cases of one
 * operation run one after another, operations in document order with deletions last, so that
 * the fixture stays in place for as long as possible; a case that changes it (a valid update)
 * is harmless to the others.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 19);
/** Random multi-field mutations per operation with a body, on top of the systematic ones. */
const RANDOM_BODIES = 12;

interface Fixture {
  org: TestOrganization;
  owner: TestUser;
  values: Record<string, string>;
  /** Values that depend on where the parameter sits (a comment of a change request). */
  changeRequestComment: { commentId: string; commentReplyId: string };
}

interface Case {
  label: string;
  method: FuzzOperation['method'];
  path: string;
  token?: string;
  body?: string | Buffer;
  headers?: Record<string, string>;
}

const ALL = listOperations();
// Deletions last: everything else acts on the fixture while it is whole.
const OPERATIONS = [
  ...ALL.filter((op) => op.method !== 'DELETE'),
  ...ALL.filter((op) => op.method === 'DELETE'),
];

function pathOf(op: FuzzOperation, fixture: Fixture, override?: [string, string]): string {
  const inChangeRequest = op.template.includes('/change-requests/{changeRequestId}/comments');
  return op.template.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (override && override[0] === name) return override[1];
    const value =
      inChangeRequest && name in fixture.changeRequestComment
        ? fixture.changeRequestComment[name as keyof Fixture['changeRequestComment']]
        : fixture.values[name];
    if (value === undefined) throw new Error(`No fixture value for {${name}} (${op.operationId})`);
    return encodeURIComponent(value);
  });
}

function tokenFor(op: FuzzOperation, fixture: Fixture): string | undefined {
  if (op.access === 'public') return undefined;
  return op.access === 'instance administrator' ? TEST_ADMIN_TOKEN : fixture.owner.token;
}

const json = (value: unknown) => JSON.stringify(value);

function pathCases(op: FuzzOperation, fixture: Fixture): Case[] {
  return op.pathParams.flatMap((param) =>
    HOSTILE_SEGMENTS.map(([label, segment]) => ({
      label: `{${param}} ${label}`,
      method: op.method,
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
      path: `${path}?zz%00=1`,
      token,
      body,
    },
  ];
}

function bodyCases(op: FuzzOperation, fixture: Fixture, random: () => number): Case[] {
  const path = pathOf(op, fixture);
  const token = tokenFor(op, fixture);
  const base = { method: op.method, path, token };
  if (op.body === undefined) {
    // A body where none is expected is ignored or refused, never a failure.
    return [{ ...base, label: 'unexpected invalid JSON body', body: '{"a":' }];
  }
  const cases: Case[] = [{ ...base, label: 'plausible body', body: json(op.body) }];
  for (const field of op.fields) {
    const values =
      field.length === 1 ? [...HOSTILE_VALUES, ...HOSTILE_TOP_LEVEL_VALUES] : HOSTILE_VALUES;
    for (const [label, value] of values) {
      cases.push({
        ...base,
        label: `${field.join('.')} = ${label}`,
        body: json(withValueAt(op.body, field, value())),
      });
    }
  }
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
      const [label, value] = cheap[Math.floor(random() * cheap.length)];
      body = withValueAt(body, field, value());
      changed.push(`${field.join('.')} = ${label}`);
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
    { label, method: op.method, path, token: tokenFor(op, fixture), body, headers },
    { label: `${label}, no token`, method: op.method, path, body, headers },
  ]);
}

async function send(t: TestApp, c: Case): Promise<{ status: number; body: unknown }> {
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
    return { status: res.status, body: res.body };
  } catch (error) {
    return { status: 0, body: String((error as Error).message) };
  }
}

/** Why this answer is a defect, or undefined. */
function defect(answer: { status: number; body: unknown }): string | undefined {
  if (answer.status === 0) return `no answer (${String(answer.body)})`;
  if (answer.status >= 500) return `${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`;
  if (answer.status < 400) return undefined;
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

async function buildFixture(t: TestApp): Promise<Fixture> {
  const org = await t.factories.organization();
  const owner = org.owner;
  const client = owner.client;
  const base = `/v1/orgs/${org.id}`;
  const target = await t.factories.member(org, 'edit');

  const team = await client.put(`${base}/teams`, { title: 'Writers' }).expect(201);
  const saml = await client
    .post(`${base}/saml`, { label: 'IdP', ssoURL: 'https://idp.example.com/sso' })
    .expect(201);
  const invite = await client.post(`${base}/link-invites`, { role: 'read' }).expect(201);
  const collection = await t.factories.collection(org, { title: 'Guides' });
  const space = await t.factories.space(org, { title: 'Handbook' });
  const spacePath = `/v1/spaces/${space.id}`;

  // Change request 1 brings a page and a file into the primary; number 2 stays open.
  await t.factories.changeRequest(org, space.id, {
    subject: 'Start',
    changes: [
      insertPage('Guide', '# Guide\n\nHi.'),
      {
        operation: 'insert_files',
        files: [
          {
            name: 'notes.txt',
            contentType: 'text/plain',
            base64: Buffer.from('Notes').toString('base64'),
          },
        ],
      },
    ],
    merge: true,
  });
  await t.factories.changeRequest(org, space.id, {
    subject: 'Open',
    changes: [insertPage('Draft', 'Draft.')],
  });
  const review = await (
    await t.factories.asMember(org, 'review')
  )
    .post(`${spacePath}/change-requests/2/reviews`, { status: 'approved' })
    .expect(201);
  const content = await client.get(`${spacePath}/content`).expect(200);
  const page = (content.body.pages as { id: string; path: string; title: string }[]).find(
    (p) => p.title === 'Guide',
  );
  const files = await client.get(`${spacePath}/content/files`).expect(200);

  const comment = await t.factories.comment(org, space.id, { body: { markdown: 'Hi' } });
  const reply = await client
    .post(`${spacePath}/comments/${comment.id}/replies`, { body: { markdown: 'Hello' } })
    .expect(201);
  const crComment = await t.factories.comment(org, space.id, {
    changeRequest: '2',
    body: { markdown: 'Hi' },
  });
  const crReply = await client
    .post(`${spacePath}/change-requests/2/comments/${crComment.id}/replies`, {
      body: { markdown: 'Hello' },
    })
    .expect(201);

  const reference = await t.factories.space(org, { title: 'Reference' });
  const site = await t.factories.site(org, { title: 'Docs' });
  const section = await t.factories.siteSection(org, site.id, { spaceId: space.id });
  const grouped = await t.factories.siteSection(org, site.id, { spaceId: reference.id });
  const group = await client
    .post(`${base}/sites/${site.id}/section-groups`, { title: 'Group', sections: [grouped.id] })
    .expect(201);
  const shareLink = await t.factories.shareLink(org, site.id, { name: 'Partners' });
  const redirect = await client
    .post(`${base}/sites/${site.id}/redirects`, {
      source: '/old',
      destination: { kind: 'external', url: 'https://example.com/new' },
    })
    .expect(201);

  const apiToken = await client.post('/v1/user/tokens', { label: 'Fuzz' }).expect(201);

  const spec = await t.factories.openAPISpec(org, {
    slug: 'petstore',
    text: JSON.stringify({ openapi: '3.0.3', info: { title: 'P', version: '1' } }),
  });
  const translation = await t.factories.translation(org, { space: space.id });
  await client
    .post(`${base}/conversations`, {
      id: 'conversation-1',
      parts: [{ type: 'message', role: 'user', body: 'The search box finds nothing.' }],
    })
    .expect(204);

  // The newest of the writes above, as the audit log recorded it.
  const auditEvents = await client.get(`${base}/audit-events?limit=1`).expect(200);

  return {
    org,
    owner,
    changeRequestComment: { commentId: crComment.id, commentReplyId: crReply.body.id },
    values: {
      organizationId: org.id,
      userId: target.id,
      collectionId: collection.id,
      teamId: team.body.id,
      emailDomain: 'example.com',
      digest: 'a'.repeat(64),
      specSlug: spec.slug,
      versionId: 'fuzzVersion0000000000',
      clusterId: 'fuzzCluster000000000',
      issueId: 'fuzzIssue00000000000',
      conversationId: 'conversation-1',
      inviteId: invite.body.id,
      samlProviderId: saml.body.id,
      siteId: site.id,
      siteSectionGroupId: group.body.id,
      siteSectionId: section.id,
      shareLinkId: shareLink.id,
      siteRedirectId: redirect.body.id,
      tokenId: apiToken.body.id,
      auditEventId: auditEvents.body.items[0].id,
      reusableContentId: 'fuzzReusable00000000',
      siteSpaceId: section.siteSpaces[0].id,
      translationId: translation.id,
      changeRequestId: '2',
      spaceId: space.id,
      commentId: comment.id,
      commentReplyId: reply.body.id,
      fileId: files.body.items[0].id,
      pageId: page?.id ?? 'fuzzPage000000000000',
      pagePath: page?.path ?? 'guide',
      reviewId: review.body.id,
      revisionId: content.body.id,
    },
  };
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
      const problem = defect(await send(t, c));
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
