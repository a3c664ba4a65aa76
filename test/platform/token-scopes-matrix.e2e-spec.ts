import { createTestApp, TestApp } from '../helpers/app';
import type { Client } from '../helpers/client';
import { type FuzzOperation, listOperations } from '../helpers/fuzz';
import { buildFixture, type Fixture, pathOf } from '../helpers/operation-fixture';

/**
 * Scoped tokens against every operation of the API document a user token may call, on an
 * organization holding one of everything (test/helpers/operation-fixture.ts), with a token of
 * its owner (an admin: the scope is all that stops them):
 *
 * - read-only: every write is refused (403, read-only) but the POSTs that only read; every
 *   read answers as it does to the unscoped token;
 * - limited to another organization of the same user, to another space of the organization,
 *   to another site of it: every operation is refused (403 or 404; a delete that answers 204
 *   when its resource is unseen does so, and deletes nothing), but the caller's own profile
 *   and the list of organizations (narrowed to the token's);
 * - limited to the fixture's organization, space or site: the reads inside that reach answer
 *   as they do to the unscoped token (the scope does not refuse what it names).
 *
 * The scope is decided by the access guard before a body is read, so the plausible bodies of
 * the writes never change the fixture.
 */

const OPERATIONS = listOperations().filter(
  (op) => op.access !== 'public' && op.access !== 'instance administrator',
);
/** POSTs that only read (a search, a question): read-only tokens may call them. */
const READS = new Set([
  'searchSiteContent',
  'aggregateSiteEvents',
  'streamAskInSite',
  'streamAIResponseInSite',
  'askInOrganization',
  'renderIntegrationUIWithPost',
  'getComputedDocument',
  'getComputedRevision',
]);
/**
 * Routes a token limited to one organization (or less) may call: they answer it as the
 * unscoped token (an embed without its `url` query: 400 to both).
 */
const FOR_LIMITED_TOKENS = new Set([
  'getApiInformation',
  'getAuthenticatedUser',
  'listOrganizationsForAuthenticatedUser',
  'getEmbedByUrl',
]);

type Answer = { status: number; body: { error?: { code: number; message: string } } };

async function send(client: Client, op: FuzzOperation, fixture: Fixture): Promise<Answer> {
  const path = pathOf(op, fixture);
  const method = op.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
  const res = await (method === 'get' || method === 'delete'
    ? client[method](path)
    : client[method](path, op.body ?? {}));
  return { status: res.status, body: res.body as Answer['body'] };
}

const label = (op: FuzzOperation) => `${op.method} ${op.template} (${op.operationId})`;

describe('scoped tokens on every operation', () => {
  let t: TestApp;
  let fixture: Fixture;
  let owner: Client;
  /** The unscoped token's answer to each read, for comparison. */
  const readStatus = new Map<string, number>();

  beforeAll(async () => {
    t = await createTestApp({
      TRANSLATION_PROVIDER: 'libretranslate',
      TRANSLATION_API_URL: 'http://127.0.0.1:9',
      JOBS_IN_PROCESS: 'false',
    });
    fixture = await buildFixture(t);
    owner = fixture.owner.client;
    for (const op of OPERATIONS.filter((op) => op.method === 'GET')) {
      readStatus.set(op.operationId, (await send(owner, op, fixture)).status);
    }
  }, 180_000);
  afterAll(() => t.close());

  async function token(scopes: Record<string, unknown>): Promise<Client> {
    const res = await owner.post('/v1/user/tokens', { label: 'matrix', scopes }).expect(201);
    return t.as(res.body.token as string);
  }

  /** What is wrong with the answer of a token that should be refused; undefined if nothing. */
  function notRefused(op: FuzzOperation, answer: Answer): string | undefined {
    const shaped =
      answer.body.error?.code === answer.status && typeof answer.body.error.message === 'string';
    if ((answer.status === 403 || answer.status === 404) && shaped) return undefined;
    if (answer.status === 204 && op.access.includes('(absent: proceeds)')) return undefined;
    return `${label(op)}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 160)}`;
  }

  /** Every operation outside the token's reach is refused; the few for limited tokens are not. */
  async function expectRefusedEverywhere(client: Client, organizationId: string) {
    const problems: string[] = [];
    const ordered = [
      ...OPERATIONS.filter((op) => op.method !== 'DELETE'),
      ...OPERATIONS.filter((op) => op.method === 'DELETE'),
    ];
    for (const op of ordered) {
      const answer = await send(client, op, fixture);
      if (FOR_LIMITED_TOKENS.has(op.operationId)) {
        const unscoped = readStatus.get(op.operationId);
        if (answer.status !== unscoped) {
          problems.push(`${label(op)}: ${answer.status}, unscoped ${String(unscoped)}`);
        }
        continue;
      }
      const problem = notRefused(op, answer);
      if (problem) problems.push(problem);
    }
    expect(problems).toEqual([]);
    const orgs = await client.get('/v1/orgs').expect(200);
    expect(orgs.body.items.map((o: { id: string }) => o.id)).toEqual([organizationId]);
    // Nothing was deleted: the fixture's space, site and comment are where they were.
    for (const path of [
      `/v1/spaces/${fixture.values.spaceId}`,
      `/v1/orgs/${fixture.org.id}/sites/${fixture.values.siteId}`,
      `/v1/spaces/${fixture.values.spaceId}/comments/${fixture.values.commentId}`,
      `/v1/orgs/${fixture.org.id}/teams/${fixture.values.teamId}`,
    ]) {
      await owner.get(path).expect(200);
    }
  }

  /** The reads whose path starts with `prefix` answer the scoped token as the unscoped one. */
  async function expectReadsAsOwner(client: Client, within: (op: FuzzOperation) => boolean) {
    const reads = OPERATIONS.filter((op) => op.method === 'GET' && within(op));
    expect(reads.length).toBeGreaterThan(5);
    const problems: string[] = [];
    for (const op of reads) {
      const answer = await send(client, op, fixture);
      const expected = readStatus.get(op.operationId);
      if (answer.status !== expected) {
        problems.push(`${label(op)}: ${answer.status}, unscoped ${String(expected)}`);
      }
    }
    expect(problems).toEqual([]);
  }

  it('covers the operations', () => {
    expect(OPERATIONS.length).toBeGreaterThanOrEqual(200);
    for (const id of [...READS, ...FOR_LIMITED_TOKENS]) {
      expect(OPERATIONS.map((op) => op.operationId)).toContain(id);
    }
  });

  it('read-only: refuses every write but the reads by POST; reads as the unscoped token', async () => {
    const client = await token({ access: 'read-only' });
    const problems: string[] = [];
    for (const op of OPERATIONS.filter((op) => op.method !== 'GET')) {
      const answer = await send(client, op, fixture);
      if (READS.has(op.operationId)) {
        const unscoped = (await send(owner, op, fixture)).status;
        if (answer.status !== unscoped) {
          problems.push(`${label(op)}: ${answer.status}, unscoped ${unscoped}`);
        }
      } else if (answer.status !== 403 || !/read-only/.test(answer.body.error?.message ?? '')) {
        problems.push(`${label(op)}: ${answer.status} ${JSON.stringify(answer.body)}`);
      }
    }
    expect(problems).toEqual([]);
    await expectReadsAsOwner(client, () => true);
  }, 120_000);

  it('limited to another organization: refuses every operation', async () => {
    const other = await t.factories.organization({ owner: fixture.owner });
    await expectRefusedEverywhere(await token({ organization: other.id }), other.id);
  }, 120_000);

  it('limited to another space of the organization: refuses every operation', async () => {
    const space = await t.factories.space(fixture.org, { title: 'Elsewhere' });
    const client = await token({ organization: fixture.org.id, spaces: [space.id] });
    await expectRefusedEverywhere(client, fixture.org.id);
  }, 120_000);

  it('limited to another site of the organization: refuses every operation', async () => {
    const site = await t.factories.site(fixture.org, { title: 'Elsewhere' });
    const client = await token({ organization: fixture.org.id, sites: [site.id] });
    await expectRefusedEverywhere(client, fixture.org.id);
  }, 120_000);

  it('limited to the organization, its space or its site: reads inside answer as unscoped', async () => {
    // Routes for any user (the account's, an invite's) are out of a limited token's reach.
    const accountWide = (op: FuzzOperation) =>
      op.access.startsWith('any user') && !FOR_LIMITED_TOKENS.has(op.operationId);
    await expectReadsAsOwner(
      await token({ organization: fixture.org.id }),
      (op) => !accountWide(op) && !op.template.startsWith('/v1/users/'),
    );
    await expectReadsAsOwner(
      await token({ organization: fixture.org.id, spaces: [fixture.values.spaceId] }),
      (op) => op.template.startsWith('/v1/spaces/{spaceId}'),
    );
    await expectReadsAsOwner(
      await token({ organization: fixture.org.id, sites: [fixture.values.siteId] }),
      (op) => op.template.startsWith('/v1/orgs/{organizationId}/sites/{siteId}'),
    );
  }, 120_000);
});
