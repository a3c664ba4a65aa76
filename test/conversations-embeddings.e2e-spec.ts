import { partition, TFIDF_THRESHOLD, tfIdfItems } from '../src/conversations/analysis/clustering';
import { adjustedRandIndex } from '../src/conversations/analysis/partition-quality';
import { termCounts } from '../src/conversations/analysis/text-terms';
import { createTestApp, TestApp } from './helpers/app';
import type { PageOf } from './helpers/bodies';
import { expectConforms } from './helpers/conformance';
import type { TestOrganization } from './helpers/factories';
import { type FakeAiServer, startFakeAiServer, topicOf } from './helpers/fake-ai-server';
import { SUPPORT_CORPUS } from './fixtures/support-conversations';

/**
 * Conversation analysis with an embedding model (AI_EMBEDDING_MODEL) on a fake OpenAI-compatible
 * server whose vectors say each text's topic (test/helpers/fake-ai-server.ts): issues are
 * embedded once, in batches, and clustered by the embeddings' cosine, so issues that mean the
 * same with other words group together where TF-IDF sees nothing in common; the model writes
 * the titles, summaries and labels. When the embeddings endpoint fails, the analysis clusters
 * by TF-IDF and asks again at the next one.
 */

interface IssueItem {
  issue: { id: string; title: string; summary: string; cluster?: string };
  conversation: { id: string; subject?: string; urls: { source?: string } };
}

interface ClusterBody {
  id: string;
  label: string;
  summary: string;
  stats: { issues: number };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const conversation = (id: string, text: string) => ({
  id,
  parts: [
    { type: 'message', role: 'user', body: text },
    { type: 'message', role: 'assistant', body: 'We are looking into it.' },
  ],
  metadata: { url: `https://support.example.com/${id}` },
});

/** Two topics told with different words each time: TF-IDF finds nothing shared within a pair. */
const SYNONYMS = [
  conversation('sso-1', 'Okta rejects the assertion every time we log in.'),
  conversation('sso-2', 'Our identity provider says the SAML response is invalid.'),
  conversation('billing-1', 'We were charged twice this month.'),
  conversation('billing-2', 'The receipt shows the wrong amount.'),
];

async function ingest(o: TestOrganization, conversations: unknown[]) {
  await o.owner.client.post(`/v1/orgs/${o.id}/conversations`, conversations).expect(204);
}

async function analysed(o: TestOrganization): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const res = await o.owner.client.get(`/v1/orgs/${o.id}/conversations?limit=1000`).expect(200);
    const { items } = res.body as PageOf<{ processedAt?: string }>;
    if (items.every((c) => c.processedAt !== undefined)) return;
    if (Date.now() > deadline) throw new Error('Conversations are still being analysed');
    await sleep(200);
  }
}

async function issues(o: TestOrganization): Promise<IssueItem[]> {
  const res = await o.owner.client
    .get(`/v1/orgs/${o.id}/conversations-issues?limit=1000`)
    .expect(200);
  expectConforms(res, 'listConversationsIssues');
  return (res.body as PageOf<IssueItem>).items;
}

async function clusters(o: TestOrganization): Promise<ClusterBody[]> {
  const res = await o.owner.client
    .get(`/v1/orgs/${o.id}/conversations-clusters?limit=100`)
    .expect(200);
  expectConforms(res, 'listConversationsIssuesClusters');
  return (res.body as PageOf<ClusterBody>).items;
}

/** The clusters as sorted groups of conversation source URLs. */
function groupsOf(items: IssueItem[]): string[][] {
  const byCluster = new Map<string, string[]>();
  for (const item of items) {
    if (!item.issue.cluster) continue;
    byCluster.set(item.issue.cluster, [
      ...(byCluster.get(item.issue.cluster) ?? []),
      item.conversation.urls.source!,
    ]);
  }
  return [...byCluster.values()].map((g) => g.sort()).sort((a, b) => (a[0] < b[0] ? -1 : 1));
}

/** The partition TF-IDF makes of these issues, computed here as the analysis would. */
function tfIdfGroups(items: IssueItem[]): string[][] {
  const sourceOf = new Map(items.map((item) => [item.issue.id, item.conversation.urls.source!]));
  return partition(
    tfIdfItems(
      items.map((item) => ({
        id: item.issue.id,
        key: item.conversation.urls.source!,
        terms: termCounts(
          `${item.issue.title} ${item.issue.summary} ${item.conversation.subject ?? ''}`,
        ),
      })),
    ),
    TFIDF_THRESHOLD,
  )
    .map((group) => group.map((id) => sourceOf.get(id)!).sort())
    .sort((a, b) => (a[0] < b[0] ? -1 : 1));
}

async function embeddingColumns(t: TestApp, organizationId: string) {
  return (await t.dataSource.query(
    `SELECT embedding, embedding_model FROM conversation_issues WHERE organization_id = $1`,
    [organizationId],
  )) as { embedding: unknown; embedding_model: string | null }[];
}

const embeddingInputs = (ai: FakeAiServer) =>
  ai.requests.filter((r) => r.path === '/embeddings').flatMap((r) => r.body.input as string[]);

describe('Conversation analysis with embeddings', () => {
  let t: TestApp;
  let ai: FakeAiServer;

  beforeAll(async () => {
    ai = await startFakeAiServer();
    t = await createTestApp({
      AI_API_URL: ai.url,
      AI_MODEL: 'fake-model',
      AI_EMBEDDING_MODEL: 'fake-embedding',
    });
  });
  afterAll(async () => {
    await t.close();
    await ai.close();
  });

  it('clusters the labelled corpus by the embeddings, with the model writing the words', async () => {
    const o = await t.factories.organization();
    const before = ai.requests.length;
    await ingest(
      o,
      SUPPORT_CORPUS.conversations.map((c) => c.conversation),
    );
    await analysed(o);

    const requests = ai.requests.slice(before).filter((r) => r.path === '/embeddings');
    expect(requests.length).toBeGreaterThanOrEqual(2);
    for (const request of requests) {
      expect(request.body.model).toBe('fake-embedding');
      const input = request.body.input as string[];
      expect(Array.isArray(input)).toBe(true);
      expect(input.length).toBeGreaterThan(0);
      expect(input.length).toBeLessThanOrEqual(64);
      for (const text of input) expect(typeof text).toBe('string');
    }

    const items = await issues(o);
    expect(items.length).toBeGreaterThanOrEqual(SUPPORT_CORPUS.conversations.length * 0.9);
    // Each issue embedded once (the second batch's analysis reuses the first's vectors).
    expect(requests.flatMap((r) => r.body.input as string[])).toHaveLength(items.length);
    const stored = await embeddingColumns(t, o.id);
    expect(stored).toHaveLength(items.length);
    for (const row of stored) {
      expect(row.embedding_model).toBe('fake-embedding');
      expect(row.embedding).not.toBeNull();
    }
    // The model wrote the issues.
    for (const item of items) expect(item.issue.summary).toMatch(/^Model summary: /);

    const topicOfSource = new Map(
      SUPPORT_CORPUS.conversations.map((c) => [c.conversation.metadata.url, c.topic]),
    );
    const truth = items.map((item) => topicOfSource.get(item.conversation.urls.source!)!);
    const ari = adjustedRandIndex(
      truth,
      items.map((item) => item.issue.cluster ?? `single:${item.issue.id}`),
    );
    console.log(`ARI with embeddings on the labelled corpus: ${ari.toFixed(3)}`);
    expect(ari).toBeGreaterThanOrEqual(0.95);

    // And the model labelled the clusters, each after its issues' main topic.
    const found = await clusters(o);
    expect(found.length).toBeGreaterThanOrEqual(8);
    expect(found.length).toBeLessThanOrEqual(12);
    for (const cluster of found) {
      const members = items.filter((item) => item.issue.cluster === cluster.id);
      const counts = new Map<string, number>();
      for (const m of members) {
        const topic = topicOf(m.issue.title) ?? 'other';
        counts.set(topic, (counts.get(topic) ?? 0) + 1);
      }
      const main = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0][0];
      expect(cluster.label).toBe(`Model label: ${main}`);
      expect(cluster.summary).toMatch(/^Model summary of \d+ issues about /);
    }
  }, 300_000);

  it('groups issues that mean the same with other words, where TF-IDF does not', async () => {
    const o = await t.factories.organization();
    await ingest(o, SYNONYMS);
    await analysed(o);
    const items = await issues(o);
    expect(items).toHaveLength(4);
    const expected = [
      ['https://support.example.com/billing-1', 'https://support.example.com/billing-2'],
      ['https://support.example.com/sso-1', 'https://support.example.com/sso-2'],
    ];
    expect(groupsOf(items)).toEqual(expected);
    expect(tfIdfGroups(items)).not.toEqual(expected);
    const [sso] = (await clusters(o)).filter((c) => c.label === 'Model label: sso');
    expect(sso).toBeDefined();

    // A later issue is embedded alone and joins its cluster, which keeps its id.
    const asked = embeddingInputs(ai).length;
    await ingest(o, [conversation('sso-3', 'Single sign-on stopped working after the update.')]);
    await analysed(o);
    expect(embeddingInputs(ai).slice(asked)).toEqual([
      expect.stringContaining('Single sign-on stopped working'),
    ]);
    const after = await issues(o);
    const joined = after.find((item) => item.conversation.urls.source?.endsWith('/sso-3'));
    expect(joined?.issue.cluster).toBe(sso.id);
  }, 120_000);
});

describe('Conversation analysis when the embeddings endpoint fails', () => {
  let t: TestApp;
  let ai: FakeAiServer;

  beforeAll(async () => {
    ai = await startFakeAiServer({ embeddingsStatus: 503 });
    t = await createTestApp({
      AI_API_URL: ai.url,
      AI_MODEL: 'fake-model',
      AI_EMBEDDING_MODEL: 'fake-embedding',
    });
  });
  afterAll(async () => {
    await t.close();
    await ai.close();
  });

  it('clusters by TF-IDF meanwhile, then by the embeddings once they answer', async () => {
    const o = await t.factories.organization();
    const passwords = [
      conversation('pw-1', 'The password reset email never arrives.'),
      conversation('pw-2', 'No password reset email arrives after I ask.'),
    ];
    await ingest(o, [...SYNONYMS, ...passwords]);
    await analysed(o);
    // Asked, retried, given up.
    expect(ai.requests.filter((r) => r.path === '/embeddings').length).toBeGreaterThanOrEqual(2);
    const items = await issues(o);
    expect(items).toHaveLength(6);
    const tfIdf = tfIdfGroups(items);
    expect(tfIdf).toContainEqual([
      'https://support.example.com/pw-1',
      'https://support.example.com/pw-2',
    ]);
    expect(groupsOf(items)).toEqual(tfIdf);
    for (const row of await embeddingColumns(t, o.id)) expect(row.embedding).toBeNull();
    // The model still wrote the titles and labels.
    for (const item of items) expect(item.issue.summary).toMatch(/^Model summary: /);
    expect((await clusters(o)).map((c) => c.label)).toContain('Model label: password-reset');

    // The endpoint is back: the next analysis embeds every issue still without a vector.
    ai.options.embeddingsStatus = undefined;
    const asked = embeddingInputs(ai).length;
    await ingest(o, [conversation('pw-3', 'Where is my password reset email?')]);
    await analysed(o);
    expect(embeddingInputs(ai).length - asked).toBe(7);
    const after = await issues(o);
    expect(groupsOf(after)).toEqual([
      ['https://support.example.com/billing-1', 'https://support.example.com/billing-2'],
      [
        'https://support.example.com/pw-1',
        'https://support.example.com/pw-2',
        'https://support.example.com/pw-3',
      ],
      ['https://support.example.com/sso-1', 'https://support.example.com/sso-2'],
    ]);
    for (const row of await embeddingColumns(t, o.id)) {
      expect(row.embedding_model).toBe('fake-embedding');
    }
  }, 120_000);
});
