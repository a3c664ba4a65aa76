import {
  courtesyConversations,
  PROBLEMS,
  problemConversations,
  type SyntheticConversation,
} from './fixtures/conversations';
import { ConversationAnalysis } from '../src/conversations/analysis/conversation-analysis';
import { createTestApp, TEST_PUBLIC_URL, TestApp } from './helpers/app';
import type { PageOf } from './helpers/bodies';
import type { Client } from './helpers/client';
import { expectConforms } from './helpers/conformance';
import type { TestOrganization } from './helpers/factories';

/**
 * Conversations: ingestion (one or a batch, validated as a whole, idempotent per id), the
 * background analysis into issues and clusters (60 conversations about 5 problems → 5
 * clusters labelled by their problem; new issues join existing clusters), the weekly pulse
 * against a moved clock, the lists and lookups, who may do what, and change requests that
 * address a cluster.
 */

interface ConversationBody {
  object: 'conversation';
  id: string;
  subject?: string;
  createdAt: string;
  processedAt?: string;
  source: string;
  urls: { location: string; source?: string };
}

interface IssueBody {
  object: 'conversation-issue';
  id: string;
  title: string;
  summary: string;
  createdAt: string;
  ingestedAt: string;
  conversation: string;
  cluster?: string;
  urls: { location: string };
}

interface ClusterBody {
  object: 'issues-cluster';
  id: string;
  label: string;
  summary: string;
  icon: string;
  weeklyPulse: number[];
  sources: Record<string, number>;
  stats: { issues: number; conversations: number; tasksTotal: number };
  createdAt: string;
  updatedAt: string;
  urls: { location: string; app: string };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `?limit=<max>` then `query` (which may set its own limit). */
const listQuery = (max: number, query: string) =>
  query.includes('limit=') ? `?${query.replace(/^&/, '')}` : `?limit=${max}${query}`;

describe('Conversations', () => {
  let t: TestApp;
  let org: TestOrganization;

  beforeAll(async () => {
    t = await createTestApp();
    org = await t.factories.organization();
  });
  afterAll(() => t.close());

  const base = (o: TestOrganization = org) => `/v1/orgs/${o.id}`;

  async function ingest(body: unknown, o: TestOrganization = org, client?: Client) {
    const res = await (client ?? o.owner.client).post(`${base(o)}/conversations`, body as object);
    expect(res.status).toBe(204);
    expectConforms(res, 'ingestConversation');
  }

  async function conversations(
    o: TestOrganization = org,
    query = '',
  ): Promise<PageOf<ConversationBody>> {
    const res = await o.owner.client
      .get(`${base(o)}/conversations${listQuery(1000, query)}`)
      .expect(200);
    expectConforms(res, 'listConversations');
    return res.body as PageOf<ConversationBody>;
  }

  /** Waits until every conversation of the organization is analysed. */
  async function analysed(o: TestOrganization = org): Promise<ConversationBody[]> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const { items } = await conversations(o);
      if (items.every((c) => c.processedAt !== undefined)) return items;
      if (Date.now() > deadline) throw new Error('Conversations are still being analysed');
      await sleep(200);
    }
  }

  async function clusters(o: TestOrganization = org, query = ''): Promise<PageOf<ClusterBody>> {
    const res = await o.owner.client
      .get(`${base(o)}/conversations-clusters${listQuery(100, query)}`)
      .expect(200);
    expectConforms(res, 'listConversationsIssuesClusters');
    return res.body as PageOf<ClusterBody>;
  }

  async function issues(
    o: TestOrganization = org,
    query = '',
  ): Promise<PageOf<{ issue: IssueBody; conversation: ConversationBody }>> {
    const res = await o.owner.client
      .get(`${base(o)}/conversations-issues${listQuery(1000, query)}`)
      .expect(200);
    expectConforms(res, 'listConversationsIssues');
    return res.body as PageOf<{ issue: IssueBody; conversation: ConversationBody }>;
  }

  describe('analysis of 60 conversations about 5 problems', () => {
    let analysedOrg: TestOrganization;
    const synthetic = problemConversations('a');
    const problemOf = new Map(
      synthetic.map(({ problem, conversation }) => [conversation.id, problem]),
    );

    beforeAll(async () => {
      analysedOrg = await t.factories.organization();
      await ingest(
        [...synthetic.map(({ conversation }) => conversation), ...courtesyConversations()],
        analysedOrg,
      );
      await analysed(analysedOrg);
    });

    /** Conversation id (Bindery's) → problem key, through the subject-independent URL. */
    async function problemsById(): Promise<Map<string, string>> {
      const res = await conversations(analysedOrg);
      const map = new Map<string, string>();
      for (const conversation of res.items) {
        const detail = await analysedOrg.owner.client
          .get(`${base(analysedOrg)}/conversations/${conversation.id}`)
          .expect(200);
        const problem = (detail.body as { metadata: { attributes?: Record<string, string> } })
          .metadata.attributes?.problem;
        if (problem) map.set(conversation.id, problem);
      }
      return map;
    }

    it('makes 5 clusters (±1), each of one problem and labelled by it', async () => {
      const { items, count } = await clusters(analysedOrg);
      expect(count).toBeGreaterThanOrEqual(4);
      expect(count).toBeLessThanOrEqual(6);
      const problems = await problemsById();
      const seen = new Set<string>();
      for (const cluster of items) {
        const members = await issues(analysedOrg, `&cluster=${cluster.id}`);
        expect(members.count).toBe(cluster.stats.issues);
        const kinds = new Set(members.items.map((m) => problems.get(m.conversation.id)));
        expect(kinds.size).toBe(1);
        const [kind] = [...kinds];
        seen.add(kind!);
        const words = PROBLEMS.find((p) => p.key === kind)!.labelWords;
        expect(words.some((word) => cluster.label.toLowerCase().includes(word))).toBe(true);
        expect(cluster.weeklyPulse).toHaveLength(13);
        // Everything was ingested now: this week holds every issue of the cluster.
        expect(cluster.weeklyPulse[12]).toBe(cluster.stats.issues);
        expect(cluster.stats.conversations).toBe(
          new Set(members.items.map((m) => m.conversation.id)).size,
        );
        expect(Object.values(cluster.sources).reduce((a, b) => a + b, 0)).toBe(
          cluster.stats.issues,
        );
        expect(cluster.sources).toEqual({
          [`integration:api:${analysedOrg.owner.id}`]: cluster.stats.issues,
        });
        expect(cluster.stats.tasksTotal).toBe(0);
        expect(cluster.urls.location).toBe(
          `${TEST_PUBLIC_URL}/v1/orgs/${analysedOrg.id}/conversations-clusters/${cluster.id}`,
        );
      }
      expect(seen.size).toBeGreaterThanOrEqual(4);
      // Nearly every problem conversation is in a cluster.
      const clustered = items.reduce((sum, c) => sum + c.stats.issues, 0);
      expect(clustered).toBeGreaterThanOrEqual(55);
    });

    it('gives the same clusters for the same conversations (another organization)', async () => {
      const twin = await t.factories.organization();
      // Same conversations, in another order and in two batches.
      const all = [...synthetic.map(({ conversation }) => conversation)].reverse();
      await ingest(all.slice(0, 30), twin);
      await ingest(all.slice(30), twin);
      await analysed(twin);
      const describe = async (o: TestOrganization) =>
        (await clusters(o)).items.map((c) => `${c.label} (${c.stats.issues})`).sort();
      const ours = await describe(analysedOrg);
      expect(await describe(twin)).toEqual(ours);
    });

    it('finds issues in problem conversations and none in thanks', async () => {
      const all = await issues(analysedOrg);
      expect(all.count).toBeGreaterThanOrEqual(58);
      const thanks = (await conversations(analysedOrg)).items.filter(
        (c) => c.subject === 'Thank you',
      );
      expect(thanks).toHaveLength(1);
      expect((await issues(analysedOrg, `&conversation=${thanks[0].id}`)).count).toBe(0);
      expect(
        all.items.every(({ issue, conversation }) => issue.conversation === conversation.id),
      ).toBe(true);
    });

    it('gets a conversation, an issue and a cluster', async () => {
      const { items } = await issues(analysedOrg, '&limit=1');
      const { issue, conversation } = items[0];

      const one = await analysedOrg.owner.client
        .get(`${base(analysedOrg)}/conversations-issues/${issue.id}`)
        .expect(200);
      expectConforms(one, 'getConversationIssueById');
      expect(one.body).toEqual({ issue, conversation });
      expect(issue.urls.location).toBe(
        `${TEST_PUBLIC_URL}/v1/orgs/${analysedOrg.id}/conversations-issues/${issue.id}`,
      );

      const detail = await analysedOrg.owner.client
        .get(`${base(analysedOrg)}/conversations/${conversation.id}`)
        .expect(200);
      expectConforms(detail, 'getConversationById');
      const body = detail.body as {
        conversation: ConversationBody;
        parts: SyntheticConversation['parts'];
        metadata: NonNullable<SyntheticConversation['metadata']>;
      };
      const source = synthetic.find(
        ({ conversation: c }) => c.metadata?.url === body.metadata.url,
      )!.conversation;
      expect(body.parts).toEqual(source.parts);
      expect(body.metadata).toEqual(source.metadata);
      expect(body.conversation).toEqual({ ...conversation });
      expect(body.conversation.urls.source).toBe(source.metadata!.url);
      expect(body.conversation.source).toBe(`integration:api:${analysedOrg.owner.id}`);

      const cluster = await analysedOrg.owner.client
        .get(`${base(analysedOrg)}/conversations-clusters/${issue.cluster}`)
        .expect(200);
      expectConforms(cluster, 'getConversationsIssuesCluster');
      expect((cluster.body as ClusterBody).id).toBe(issue.cluster);
    });

    it('orders and pages clusters', async () => {
      const all = (await clusters(analysedOrg, '&orderBy=issues&order=desc')).items;
      const counts = all.map((c) => c.stats.issues);
      expect(counts).toEqual([...counts].sort((a, b) => b - a));
      const asc = (await clusters(analysedOrg, '&orderBy=conversations&order=asc')).items;
      const ascCounts = asc.map((c) => c.stats.conversations);
      expect(ascCounts).toEqual([...ascCounts].sort((a, b) => a - b));

      const first = await clusters(analysedOrg, '&limit=2&orderBy=issues');
      expect(first.items).toHaveLength(2);
      const second = await analysedOrg.owner.client
        .get(
          `${base(analysedOrg)}/conversations-clusters?limit=100&orderBy=issues&page=${first.next!.page}`,
        )
        .expect(200);
      expectConforms(second, 'listConversationsIssuesClusters');
      expect(
        [...first.items, ...(second.body as PageOf<ClusterBody>).items].map((c) => c.id),
      ).toEqual(all.map((c) => c.id));
      for (const orderBy of ['updatedAt', 'tasksTotal', 'tasksBacklog', 'tasksStarted']) {
        expect((await clusters(analysedOrg, `&orderBy=${orderBy}`)).count).toBe(all.length);
      }
      // No cluster is ever pending or being analysed: written once analysed.
      expect((await clusters(analysedOrg, '&status=pending')).items).toEqual([]);
    });

    it('pages conversations and issues, and filters conversations by source', async () => {
      const first = await analysedOrg.owner.client
        .get(`${base(analysedOrg)}/conversations?limit=25`)
        .expect(200);
      const page1 = first.body as PageOf<ConversationBody>;
      expect(page1.count).toBe(62);
      expect(page1.items).toHaveLength(25);
      const ids = new Set(page1.items.map((c) => c.id));
      let next = page1.next;
      while (next) {
        const res = await analysedOrg.owner.client
          .get(`${base(analysedOrg)}/conversations?limit=25&page=${next.page}`)
          .expect(200);
        expectConforms(res, 'listConversations');
        const page = res.body as PageOf<ConversationBody>;
        page.items.forEach((c) => ids.add(c.id));
        next = page.next;
      }
      expect(ids.size).toBe(62);

      const source = encodeURIComponent(`integration:api:${analysedOrg.owner.id}`);
      expect((await conversations(analysedOrg, `&source=${source}`)).count).toBe(62);
      expect((await conversations(analysedOrg, '&source=email')).count).toBe(0);

      const issuePage = await issues(analysedOrg, '&limit=10');
      expect(issuePage.items).toHaveLength(10);
      expect(issuePage.next).toBeDefined();
    });

    it('is idempotent: ingesting the same conversations again changes nothing', async () => {
      const before = await conversations(analysedOrg);
      const clustersBefore = await clusters(analysedOrg);
      await ingest(
        synthetic.slice(0, 10).map(({ conversation }) => conversation),
        analysedOrg,
      );
      const after = await conversations(analysedOrg);
      expect(after.count).toBe(before.count);
      // Same content: not analysed again (processedAt kept).
      expect(after.items).toEqual(before.items);
      await sleep(500);
      expect((await clusters(analysedOrg)).items.map((c) => [c.id, c.stats.issues])).toEqual(
        clustersBefore.items.map((c) => [c.id, c.stats.issues]),
      );
    });

    it('re-analyses a conversation whose content changed, without duplicating it', async () => {
      const { conversation } = synthetic[0];
      const changed = {
        ...conversation,
        parts: [
          ...conversation.parts,
          { type: 'message', role: 'user', body: 'The password reset email still never arrives.' },
        ],
      };
      const before = await conversations(analysedOrg);
      await ingest(changed, analysedOrg);
      const items = await analysed(analysedOrg);
      expect(items).toHaveLength(before.count);
      const updated = items.find((c) => c.urls.source === conversation.metadata!.url)!;
      const detail = await analysedOrg.owner.client
        .get(`${base(analysedOrg)}/conversations/${updated.id}`)
        .expect(200);
      expect((detail.body as { parts: unknown[] }).parts).toHaveLength(changed.parts.length);
      expect((await issues(analysedOrg, `&conversation=${updated.id}`)).count).toBe(1);
    });

    it('adds new issues to the existing clusters instead of reshuffling them', async () => {
      const before = await clusters(analysedOrg);
      const more = problemConversations('b')
        .filter((_, i) => i % 6 === 0)
        .map(({ conversation }) => conversation);
      await ingest(more, analysedOrg);
      await analysed(analysedOrg);
      const after = await clusters(analysedOrg);
      expect(after.items.map((c) => c.id).sort()).toEqual(before.items.map((c) => c.id).sort());
      const total = (page: PageOf<ClusterBody>) =>
        page.items.reduce((sum, c) => sum + c.stats.issues, 0);
      expect(total(after)).toBe(total(before) + more.length);
      expect(problemOf.size).toBe(60);
    });
  });

  describe('weekly pulse', () => {
    it('counts issues per week (Monday to Sunday) over 13 weeks, ending this week', async () => {
      const o = await t.factories.organization();
      const problem = PROBLEMS[0];
      // Wednesday 2026-03-18; its week starts Monday 2026-03-16.
      const start = new Date('2026-03-18T10:00:00Z').getTime();
      const week = 7 * 24 * 3600 * 1000;
      const plan = [
        { weeksAgo: 0, count: 3 },
        { weeksAgo: 1, count: 1 },
        { weeksAgo: 4, count: 2 },
        { weeksAgo: 12, count: 2 },
        { weeksAgo: 13, count: 1 }, // before the window
      ];
      let n = 0;
      for (const { weeksAgo, count } of [...plan].reverse()) {
        t.clock.set(new Date(start - weeksAgo * week));
        const batch = Array.from({ length: count }, () => ({
          id: `pulse-${n}`,
          parts: [{ type: 'message', role: 'user', body: problem.messages[n++ % 12] }],
        }));
        await ingest(batch, o);
        await analysed(o);
      }
      // One conversation dated by its metadata, in the window's oldest week, ingested now.
      t.clock.set(new Date(start));
      await ingest(
        {
          id: 'pulse-dated',
          metadata: { createdAt: new Date(start - 12 * week).toISOString() },
          parts: [{ type: 'message', role: 'user', body: problem.messages[5] }],
        },
        o,
      );
      await analysed(o);
      const { items } = await clusters(o);
      expect(items).toHaveLength(1);
      const [cluster] = items;
      expect(cluster.stats.issues).toBe(10);
      expect(cluster.weeklyPulse).toEqual([3, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 1, 3]);

      // A week later, everything moves one week to the left; the oldest falls out.
      t.clock.set(new Date(start + week));
      const res = await o.owner.client
        .get(`${base(o)}/conversations-clusters/${cluster.id}`)
        .expect(200);
      expectConforms(res, 'getConversationsIssuesCluster');
      expect((res.body as ClusterBody).weeklyPulse).toEqual([
        0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 1, 3, 0,
      ]);
      t.clock.set(new Date());
    });
  });

  describe('lost analyses', () => {
    it('are found by the sweep and queued again', async () => {
      const o = await t.factories.organization();
      await ingest(
        { id: 'lost', parts: [{ type: 'message', role: 'user', body: 'The PDF export fails.' }] },
        o,
      );
      await analysed(o);
      // As if its analysis had been lost: unprocessed, last ingested half an hour ago.
      await t.dataSource.query(
        `UPDATE conversations SET processed_at = NULL, updated_at = $2 WHERE organization_id = $1`,
        [o.id, new Date(Date.now() - 30 * 60 * 1000)],
      );
      expect((await conversations(o)).items[0].processedAt).toBeUndefined();
      const swept = await t.bindery.app.get(ConversationAnalysis).sweep();
      expect(swept).toContain(o.id);
      expect((await analysed(o))[0].processedAt).toEqual(expect.any(String));
    });
  });

  describe('ingestion input', () => {
    it('answers 400 naming the item and field, and stores nothing of a bad batch', async () => {
      const o = await t.factories.organization();
      const good = (id: string) => ({
        id,
        parts: [{ type: 'message', role: 'user', body: 'How do I export to PDF?' }],
      });
      const cases: [unknown, RegExp][] = [
        [
          [good('a'), good('b'), { id: 'c', parts: [{ type: 'message', role: 'bot', body: 'x' }] }],
          /\[2\]\.parts\.0\.role/,
        ],
        [
          [good('a'), { id: 'c', parts: [{ type: 'message', role: 'user', body: '  ' }] }],
          /\[1\]\.parts\.0\.body/,
        ],
        [[good('a'), { parts: [] }], /\[1\]\.id/],
        [[good('a'), good('a')], /\[1\].*\[0\]/],
        [[good('a'), { ...good('b'), subject: 'x'.repeat(513) }], /\[1\]\.subject/],
        [
          [good('a'), { ...good('b'), metadata: { attributes: { a: 1 } } }],
          /\[1\]\.metadata\.attributes/,
        ],
        [
          [good('a'), { ...good('b'), metadata: { createdAt: 'yesterday' } }],
          /\[1\]\.metadata\.createdAt/,
        ],
        [[good('a'), { ...good('b'), extra: true }], /\[1\]\.extra/],
        [[good('a'), 'text'], /\[1\]/],
        [{ id: 'x'.repeat(256), parts: [] }, /id/],
        [{ id: 'x' }, /parts/],
        [[], /no conversation/],
      ];
      for (const [body, message] of cases) {
        const res = await o.owner.client.post(`${base(o)}/conversations`, body as object);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: { code: 400, message: expect.stringMatching(message) } });
      }
      expect((await conversations(o)).count).toBe(0);
    });

    it('answers 400 to bad list queries', async () => {
      for (const path of [
        'conversations-clusters?orderBy=label',
        'conversations-clusters?order=up',
        'conversations-clusters?status=done',
        'conversations-clusters?page=not-a-cursor',
        'conversations?limit=0',
        'conversations?page=not-a-cursor',
        'conversations-issues?limit=abc',
        'conversations-issues?cluster=a&cluster=b',
      ]) {
        const res = await org.owner.client.get(`${base()}/${path}`);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: { code: 400, message: expect.any(String) } });
      }
    });

    it('answers the stored ids in the order sent, with Prefer: return=representation', async () => {
      const o = await t.factories.organization();
      const item = (id: string, subject: string) => ({
        id,
        subject,
        parts: [{ type: 'message', role: 'user', body: `About ${subject}` }],
      });
      const ingestWithIds = async (body: unknown) => {
        const res = await o.owner.client
          .post(`${base(o)}/conversations`, body as object)
          .set('Prefer', 'return=representation');
        expect(res.status).toBe(200);
        expect(res.headers['preference-applied']).toBe('return=representation');
        return res.body as { items: ConversationBody[] };
      };

      // Known and new ones mixed, in an order that is neither sorted nor the first batch's.
      const first = await ingestWithIds([item('zeta', 'Zeta'), item('alpha', 'Alpha')]);
      expect(first.items.map((c) => c.subject)).toEqual(['Zeta', 'Alpha']);
      const [zeta, alpha] = first.items.map((c) => c.id);
      expect(zeta).not.toBe(alpha);

      const second = await ingestWithIds([
        item('mu', 'Mu'),
        item('alpha', 'Alpha again'),
        item('beta', 'Beta'),
        item('zeta', 'Zeta'),
      ]);
      expect(second.items.map((c) => c.subject)).toEqual(['Mu', 'Alpha again', 'Beta', 'Zeta']);
      // A conversation ingested again keeps its id.
      expect(second.items[1].id).toBe(alpha);
      expect(second.items[3].id).toBe(zeta);
      expect(new Set(second.items.map((c) => c.id)).size).toBe(4);
      for (const conversation of second.items) {
        expect(conversation).toMatchObject({ object: 'conversation', source: expect.any(String) });
        // Each id is the conversation's: it reads back with its own subject.
        const read = await o.owner.client
          .get(`${base(o)}/conversations/${conversation.id}`)
          .expect(200);
        expectConforms(read, 'getConversationById');
        expect(read.body.conversation.subject).toBe(conversation.subject);
      }

      // A single object gives one; GitBook's 204 stays the answer without the preference.
      const single = await ingestWithIds(item('solo', 'Solo'));
      expect(single.items).toHaveLength(1);
      expect(single.items[0].subject).toBe('Solo');
      await ingest(item('solo', 'Solo'), o);
      expect((await conversations(o)).count).toBe(5);
    });

    it('takes a single conversation object', async () => {
      const o = await t.factories.organization();
      await ingest({ id: 'single', subject: 'Hello', parts: [] }, o);
      const { items } = await conversations(o);
      expect(items).toEqual([
        expect.objectContaining({ object: 'conversation', subject: 'Hello' }),
      ]);
      expect(items[0].urls).toEqual({
        location: `${TEST_PUBLIC_URL}/v1/orgs/${o.id}/conversations/${items[0].id}`,
      });
    });
  });

  describe('access', () => {
    it('needs ingestConversations (admin) to ingest, and a role to read', async () => {
      const creator = await t.factories.asMember(org, 'create');
      const res = await creator.post(`${base()}/conversations`, { id: 'x', parts: [] });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe(403);
      const reader = await t.factories.asMember(org, 'read');
      await reader.get(`${base()}/conversations`).expect(200);
      await reader.get(`${base()}/conversations-issues`).expect(200);
      await reader.get(`${base()}/conversations-clusters`).expect(200);
      const guest = await t.factories.asMember(org, null);
      expect((await guest.get(`${base()}/conversations`)).status).toBe(403);
      expect((await t.anonymous.get(`${base()}/conversations`)).status).toBe(401);
    });

    it('answers 404 for unknown ids and for another organization', async () => {
      await ingest(
        [
          {
            id: 'mine',
            parts: [
              {
                type: 'message',
                role: 'user',
                body: "I can't reset my password, the reset email never arrives.",
              },
            ],
          },
          {
            id: 'mine-2',
            parts: [
              {
                type: 'message',
                role: 'user',
                body: 'The password reset email never arrives in my inbox.',
              },
            ],
          },
        ],
        org,
      );
      await analysed(org);
      const { items } = await issues(org);
      const { issue, conversation } = items[0];
      expect(issue.cluster).toBeDefined();
      for (const path of [
        `conversations/unknown`,
        `conversations-issues/unknown`,
        `conversations-clusters/unknown`,
      ]) {
        const res = await org.owner.client.get(`${base()}/${path}`).expect(404);
        expect(res.body.error.code).toBe(404);
      }
      const other = await t.factories.organization();
      for (const path of [
        `conversations/${conversation.id}`,
        `conversations-issues/${issue.id}`,
        `conversations-clusters/${issue.cluster}`,
      ]) {
        // Through the other organization: not found there.
        await other.owner.client.get(`${base(other)}/${path}`).expect(404);
        // And the other organization's owner cannot see this one at all.
        await other.owner.client.get(`${base()}/${path}`).expect(404);
      }
      await other.owner.client.get(`${base()}/conversations`).expect(404);
      await other.owner.client.post(`${base()}/conversations`, { id: 'x', parts: [] }).expect(404);
      expect((await issues(other, `&cluster=${issue.cluster}`)).count).toBe(0);
    });
  });

  describe('change requests addressing a cluster', () => {
    it('carry conversationsIssuesCluster and are found by it', async () => {
      const o = await t.factories.organization();
      await ingest(
        PROBLEMS[4].messages.slice(0, 3).map((body, i) => ({
          id: `cr-${i}`,
          parts: [{ type: 'message', role: 'user', body }],
        })),
        o,
      );
      await analysed(o);
      const { items } = await clusters(o);
      expect(items).toHaveLength(1);
      const cluster = items[0];
      const { id: spaceId } = await t.factories.space(o, { title: 'Docs' });
      const created = await o.owner.client
        .post(`/v1/spaces/${spaceId}/change-requests`, {
          subject: 'Fix the reset docs',
          conversationsIssuesCluster: cluster.id,
        })
        .expect(201);
      expectConforms(created, 'createChangeRequest');
      expect(created.body.conversationsIssuesCluster).toBe(cluster.id);
      await t.factories.changeRequest(o, spaceId, { subject: 'Unrelated' });

      const listed = await o.owner.client
        .get(`/v1/spaces/${spaceId}/change-requests?conversationsIssuesCluster=${cluster.id}`)
        .expect(200);
      expectConforms(listed, 'listChangeRequestsForSpace');
      expect((listed.body as PageOf<{ id: string }>).items.map((cr) => cr.id)).toEqual([
        created.body.id,
      ]);
      const orgWide = await o.owner.client
        .get(`${base(o)}/change-requests?conversationsIssuesCluster=${cluster.id}`)
        .expect(200);
      expect((orgWide.body as PageOf<{ id: string }>).items.map((cr) => cr.id)).toEqual([
        created.body.id,
      ]);
      const none = await o.owner.client
        .get(`/v1/spaces/${spaceId}/change-requests?conversationsIssuesCluster=unknown`)
        .expect(200);
      expect((none.body as PageOf<unknown>).items).toEqual([]);

      const unknown = await o.owner.client.post(`/v1/spaces/${spaceId}/change-requests`, {
        conversationsIssuesCluster: 'unknown',
      });
      expect(unknown.status).toBe(400);
      expect(unknown.body.error.message).toMatch(/conversationsIssuesCluster/);

      // A cluster of another organization is unknown here.
      const other = await t.factories.organization();
      const otherSpace = await t.factories.space(other, { title: 'Other' });
      await other.owner.client
        .post(`/v1/spaces/${otherSpace.id}/change-requests`, {
          conversationsIssuesCluster: cluster.id,
        })
        .expect(400);
    });
  });
});
