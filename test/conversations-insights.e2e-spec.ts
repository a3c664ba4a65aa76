import { adjustedRandIndex } from '../src/conversations/analysis/partition-quality';
import { createTestApp, TestApp } from './helpers/app';
import type { PageOf } from './helpers/bodies';
import { expectConforms } from './helpers/conformance';
import type { TestOrganization } from './helpers/factories';
import {
  HELD_OUT_CORPUS,
  type LabelledConversation,
  type LabelledCorpus,
  shuffled,
  SUPPORT_CORPUS,
} from './fixtures/support-conversations';

/**
 * Conversation insights on the labelled support corpus (240 conversations over 8 topics, with
 * greetings, signatures, follow-ups and quoted replies; test/fixtures/support-conversations):
 * the same conversations give the same clusters however they arrive (in order, reversed,
 * shuffled, in batches of 7 analysed one after the other), the clusters match the topics (ARI ≥
 * 0.8, at most 1.5 clusters per topic, on the tuning corpus and on a held-out one), and labels
 * and summaries are whole words of the issues.
 */

interface IssueItem {
  issue: { id: string; title: string; summary: string; cluster?: string };
  conversation: { id: string; urls: { source?: string } };
}

interface ClusterBody {
  id: string;
  label: string;
  summary: string;
  stats: { issues: number };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Conversation insights on a labelled corpus', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  async function ingest(o: TestOrganization, conversations: LabelledConversation[]) {
    const res = await o.owner.client.post(
      `/v1/orgs/${o.id}/conversations`,
      conversations.map(({ conversation }) => conversation),
    );
    expect(res.status).toBe(204);
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

  async function issues(o: TestOrganization, query = ''): Promise<IssueItem[]> {
    const res = await o.owner.client
      .get(`/v1/orgs/${o.id}/conversations-issues?limit=1000${query}`)
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

  /** An issue as the source knows it: its conversation's URL and its title. */
  const sourceId = (item: IssueItem) => `${item.conversation.urls.source}#${item.issue.title}`;

  /** The partition, as sorted groups of source ids (unclustered issues left out). */
  async function partitionOf(o: TestOrganization): Promise<string[][]> {
    const byCluster = new Map<string, string[]>();
    for (const item of await issues(o)) {
      if (!item.issue.cluster) continue;
      byCluster.set(item.issue.cluster, [
        ...(byCluster.get(item.issue.cluster) ?? []),
        sourceId(item),
      ]);
    }
    return [...byCluster.values()]
      .map((group) => group.sort())
      .sort((a, b) => (a[0] < b[0] ? -1 : 1));
  }

  async function quality(o: TestOrganization, corpus: LabelledCorpus) {
    const topicOf = new Map(
      corpus.conversations.map((c) => [c.conversation.metadata.url, c.topic]),
    );
    const items = await issues(o);
    const ari = adjustedRandIndex(
      items.map((item) => topicOf.get(item.conversation.urls.source!)!),
      items.map((item) => item.issue.cluster ?? `single:${item.issue.id}`),
    );
    const found = await clusters(o);
    return { ari, clustersPerTopic: found.length / corpus.topics.length, issues: items.length };
  }

  const arrivals: [string, (o: TestOrganization) => Promise<void>][] = [
    ['in order', (o) => ingest(o, SUPPORT_CORPUS.conversations)],
    ['reversed', (o) => ingest(o, [...SUPPORT_CORPUS.conversations].reverse())],
    ['shuffled', (o) => ingest(o, shuffled(SUPPORT_CORPUS.conversations, 42))],
    [
      'in batches of 7, each analysed before the next',
      async (o) => {
        const all = shuffled(SUPPORT_CORPUS.conversations, 7);
        for (let i = 0; i < all.length; i += 7) {
          await ingest(o, all.slice(i, i + 7));
          await analysed(o);
        }
      },
    ],
  ];

  const organizations = new Map<string, TestOrganization>();

  it.each(arrivals)(
    'finds the 8 topics when the corpus arrives %s',
    async (name, send) => {
      const o = await t.factories.organization();
      organizations.set(name, o);
      await send(o);
      await analysed(o);
      const { ari, clustersPerTopic, issues: count } = await quality(o, SUPPORT_CORPUS);
      expect(count).toBeGreaterThanOrEqual(SUPPORT_CORPUS.conversations.length);
      expect(ari).toBeGreaterThanOrEqual(0.8);
      expect(clustersPerTopic).toBeLessThanOrEqual(1.5);
    },
    300_000,
  );

  it('gives the same partition whatever the order and batches', async () => {
    const [first, ...others] = arrivals.map(([name]) => organizations.get(name)!);
    const expected = await partitionOf(first);
    expect(expected.length).toBeGreaterThanOrEqual(8);
    for (const o of others) expect(await partitionOf(o)).toEqual(expected);
    // Labels and summaries depend on the issues only: the same too.
    const described = async (o: TestOrganization) =>
      (await clusters(o)).map((c) => `${c.label} | ${c.summary}`).sort();
    for (const o of others) expect(await described(o)).toEqual(await described(first));
  });

  it('labels and summarises clusters with whole words of their issues', async () => {
    const o = organizations.get('in order')!;
    for (const cluster of await clusters(o)) {
      const members = await issues(o, `&cluster=${cluster.id}`);
      expect(members).toHaveLength(cluster.stats.issues);
      const vocabulary = new Set(
        members
          .map((m) => `${m.issue.title} ${m.issue.summary}`)
          .join(' ')
          .toLowerCase()
          .match(/\p{L}[\p{L}'-]*/gu),
      );
      for (const word of cluster.label.toLowerCase().match(/\p{L}[\p{L}'-]*/gu)!) {
        expect(vocabulary).toContain(word);
      }
      const about = /mostly about (.*?)\. For example/.exec(cluster.summary)![1];
      for (const word of about.toLowerCase().match(/\p{L}[\p{L}'-]*/gu)!) {
        expect(vocabulary).toContain(word);
      }
      expect(`${cluster.label} ${cluster.summary}`).not.toMatch(/\p{L}…|…\p{L}/u);
    }
  });

  it('finds the topics of the held-out corpus (another seed) with the same threshold', async () => {
    const o = await t.factories.organization();
    await ingest(o, HELD_OUT_CORPUS.conversations);
    await analysed(o);
    const { ari, clustersPerTopic } = await quality(o, HELD_OUT_CORPUS);
    expect(ari).toBeGreaterThanOrEqual(0.8);
    expect(clustersPerTopic).toBeLessThanOrEqual(1.5);
  });
});
