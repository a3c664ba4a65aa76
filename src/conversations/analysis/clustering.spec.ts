import {
  courtesyConversations,
  PROBLEMS,
  problemConversations,
} from '../../../test/fixtures/conversations';
import {
  HELD_OUT_CORPUS,
  type LabelledCorpus,
  shuffled,
  SUPPORT_CORPUS,
} from '../../../test/fixtures/support-conversations';
import { describeCluster } from './cluster-description';
import {
  keepClusterIds,
  partition,
  partitionDense,
  type PartitionItem,
  TFIDF_THRESHOLD,
  tfIdfItems,
} from './clustering';
import { extractIssues } from './issue-extraction';
import { adjustedRandIndex } from './partition-quality';
import { termCounts } from './text-terms';
import { normalize } from './tf-idf';

interface LabelledIssue {
  id: string;
  key: string;
  topic: string;
  title: string;
  summary: string;
  terms: Record<string, number>;
}

/** The issues of conversations as the analysis extracts them, each with its conversation's topic. */
function issuesOf(
  conversations: {
    topic: string;
    conversation: { id: string; subject?: string; parts: never[] };
  }[],
): LabelledIssue[] {
  return conversations.flatMap(({ topic, conversation }) =>
    extractIssues({ subject: conversation.subject ?? null, parts: conversation.parts }).map(
      (issue, i) => ({
        id: `${conversation.id}/${i}`,
        key: `${conversation.id}\u0000${issue.title}\u0000${issue.summary}`,
        topic,
        ...issue,
        terms: termCounts(`${issue.title} ${issue.summary} ${conversation.subject ?? ''}`),
      }),
    ),
  );
}

const corpusIssues = (corpus: LabelledCorpus) =>
  issuesOf(corpus.conversations as unknown as Parameters<typeof issuesOf>[0]);

const cluster = (issues: LabelledIssue[]) => partition(tfIdfItems(issues), TFIDF_THRESHOLD);

/** A partition as a comparable value: sorted groups of sorted ids. */
const canonical = (groups: string[][]) =>
  groups.map((group) => [...group].sort()).sort((a, b) => (a[0] < b[0] ? -1 : 1));

/** ARI (unclustered issues as singletons) and clusters per topic of `groups` over `issues`. */
function quality(issues: LabelledIssue[], groups: string[][]) {
  const clusterOf = new Map<string, string>();
  groups.forEach((group, g) => group.forEach((id) => clusterOf.set(id, `c${g}`)));
  const ari = adjustedRandIndex(
    issues.map((issue) => issue.topic),
    issues.map((issue) => clusterOf.get(issue.id) ?? `single:${issue.id}`),
  );
  const topics = new Set(issues.map((issue) => issue.topic)).size;
  return {
    ari,
    clustersPerTopic: groups.length / topics,
    unclustered: issues.length - clusterOf.size,
  };
}

describe('clustering the labelled support corpus (8 topics)', () => {
  const corpora: [string, LabelledCorpus][] = [
    ['the tuning corpus (seed 1)', SUPPORT_CORPUS],
    ['the held-out corpus (seed 2)', HELD_OUT_CORPUS],
  ];

  it.each(corpora)('has at least 200 conversations over 8 topics in %s', (_, corpus) => {
    expect(corpus.conversations.length).toBeGreaterThanOrEqual(200);
    expect(new Set(corpus.conversations.map((c) => c.topic)).size).toBe(8);
  });

  it.each(corpora)(
    'finds the topics in %s: ARI ≥ 0.8, at most 1.5 clusters per topic',
    (_, corpus) => {
      const issues = corpusIssues(corpus);
      // Greetings, signatures and quoted replies are not issues: about one per conversation.
      expect(issues.length).toBeGreaterThanOrEqual(corpus.conversations.length);
      expect(issues.length).toBeLessThanOrEqual(corpus.conversations.length * 1.1);
      const { ari, clustersPerTopic, unclustered } = quality(issues, cluster(issues));
      expect(ari).toBeGreaterThanOrEqual(0.8);
      expect(clustersPerTopic).toBeLessThanOrEqual(1.5);
      expect(unclustered).toBeLessThanOrEqual(issues.length * 0.05);
    },
  );

  it('keeps no greeting, signature or quoted reply in the issues', () => {
    const issues = corpusIssues(SUPPORT_CORPUS);
    for (const issue of issues) {
      expect(`${issue.title} ${issue.summary}`).not.toMatch(
        /\b(Hi team|Hello|Good morning|Dear|Regards|Cheers|Maria|Acme|Globex|Initech|wrote:|Sent from my|Bindery Support)\b|>/,
      );
    }
  });

  it('gives the same partition in order, reversed, shuffled and in batches of 7', () => {
    const issues = corpusIssues(SUPPORT_CORPUS);
    const expected = canonical(cluster(issues));
    expect(canonical(cluster([...issues].reverse()))).toEqual(expected);
    expect(canonical(cluster(shuffled(issues, 7)))).toEqual(expected);
    // Batches: after each, everything seen so far is clustered again and ids kept by overlap.
    let seen: LabelledIssue[] = [];
    let ids = new Map<string, string | null>();
    let stableIds = 0;
    for (const [b, issue] of shuffled(issues, 11).entries()) {
      seen.push(issue);
      if (seen.length % 7 !== 0 && b !== issues.length - 1) continue;
      const groups = cluster(seen);
      const kept = keepClusterIds(groups, ids);
      const next = new Map<string, string | null>();
      groups.forEach((group, g) => {
        const id = kept[g] ?? `cluster-${b}-${g}`;
        if (kept[g]) stableIds++;
        group.forEach((issueId) => next.set(issueId, id));
      });
      ids = next;
    }
    seen = [...seen];
    const final = new Map<string, string[]>();
    for (const [issueId, clusterId] of ids) {
      final.set(clusterId!, [...(final.get(clusterId!) ?? []), issueId]);
    }
    expect(canonical([...final.values()])).toEqual(expected);
    // Clusters lived on from batch to batch rather than being made anew.
    expect(stableIds).toBeGreaterThan(8 * 20);
  });

  it('labels and summarises clusters with whole words the issues use, never cut', () => {
    const issues = corpusIssues(SUPPORT_CORPUS);
    const byId = new Map(issues.map((issue) => [issue.id, issue]));
    const topicsNamed = new Set<string>();
    for (const group of cluster(issues)) {
      const members = group.map((id) => byId.get(id)!);
      const { label, summary } = describeCluster(members, members.length);
      const text = members.map((issue) => `${issue.title} ${issue.summary}`).join(' ');
      const vocabulary = new Set(text.toLowerCase().match(/[\p{L}][\p{L}'-]*/gu));
      const labelWords = label.toLowerCase().match(/[\p{L}][\p{L}'-]*/gu)!;
      expect(labelWords.length).toBeGreaterThan(0);
      for (const word of labelWords) expect(vocabulary).toContain(word);
      const about = /mostly about (.*?)\. For example/.exec(summary)![1];
      for (const word of about.toLowerCase().match(/[\p{L}][\p{L}'-]*/gu)!) {
        expect(vocabulary).toContain(word);
      }
      expect(`${label} ${summary}`).not.toMatch(/\p{L}…|…\p{L}/u);
      expect(summary).toMatch(/^\d+ issues from \d+ conversations, mostly about /);
      // The label names the cluster's main topic.
      const counts = new Map<string, number>();
      for (const issue of members) counts.set(issue.topic, (counts.get(issue.topic) ?? 0) + 1);
      const topic = [...counts].sort((a, b) => b[1] - a[1])[0][0];
      const words = SUPPORT_CORPUS.topics.find((t) => t.key === topic)!.labelWords;
      if (words.some((word) => labelWords.includes(word))) topicsNamed.add(topic);
    }
    expect(topicsNamed.size).toBe(8);
  });
});

describe('clustering the 60 conversations about 5 problems', () => {
  const issues = () =>
    problemConversations('a').flatMap(({ problem, conversation }, c) =>
      extractIssues({ subject: conversation.subject ?? null, parts: conversation.parts }).map(
        (issue, i) => ({
          id: `a-${String(c).padStart(2, '0')}-${i}`,
          key: `a-${String(c).padStart(2, '0')}-${i}`,
          topic: problem,
          ...issue,
          terms: termCounts(`${issue.title} ${issue.summary} ${conversation.subject ?? ''}`),
        }),
      ),
    );

  it('finds one issue per problem conversation and none in thanks', () => {
    expect(issues()).toHaveLength(60);
    for (const conversation of courtesyConversations()) {
      expect(
        extractIssues({ subject: conversation.subject ?? null, parts: conversation.parts }),
      ).toEqual([]);
    }
  });

  it('makes 5 clusters labelled by their problem', () => {
    const all = issues();
    const byId = new Map(all.map((issue) => [issue.id, issue]));
    const groups = cluster(all);
    expect(groups.map((group) => `${byId.get(group[0])!.topic}×${group.length}`).sort()).toEqual([
      'billing×12',
      'custom-domain×12',
      'password-reset×12',
      'pdf-export×12',
      'sso×12',
    ]);
    for (const group of groups) {
      const members = group.map((id) => byId.get(id)!);
      expect(new Set(members.map((issue) => issue.topic)).size).toBe(1);
      const { label, icon } = describeCluster(members, members.length);
      const words = PROBLEMS.find((p) => p.key === members[0].topic)!.labelWords;
      expect(words.some((word) => label.toLowerCase().includes(word))).toBe(true);
      expect(icon).toMatch(/^[a-z-]{1,50}$/);
    }
  });

  it('leaves an issue unlike any other unclustered', () => {
    const all = issues().slice(0, 12);
    const odd = {
      id: 'odd',
      key: 'odd',
      terms: termCounts('The dark mode colours look strange on tablets'),
    };
    const groups = partition(tfIdfItems([...all, odd]), TFIDF_THRESHOLD);
    expect(groups).toHaveLength(1);
    expect(groups.flat()).not.toContain('odd');
  });
});

describe('partition', () => {
  const item = (id: string, entries: Record<string, number>): PartitionItem => ({
    id,
    key: id,
    vector: normalize(new Map(Object.entries(entries))),
  });

  it('merges by average similarity down to the threshold and drops singletons', () => {
    const groups = partition(
      [
        item('a', { x: 1 }),
        item('b', { x: 1, y: 0.2 }),
        item('c', { z: 1 }),
        item('d', { z: 1, w: 0.1 }),
        item('e', { q: 1 }),
      ],
      0.5,
    );
    expect(groups).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
  });

  it('uses the mean of all pairs (average linkage), not the closest pair', () => {
    // a–b 0.8, b–c 0.6, a–c 0: single linkage would chain them; the mean a∪b–c is 0.3.
    const a = item('a', { x: 1 });
    const b = item('b', { x: 0.8, y: 0.6 });
    const c = item('c', { y: 1 });
    expect(partition([c, b, a], 0.5)).toEqual([['a', 'b']]);
    expect(partition([a, b, c], 0.25)).toEqual([['a', 'b', 'c']]);
  });

  it('breaks ties by key, whatever the order of the items', () => {
    // Three identical issues and a threshold only a pair can meet with a fourth one.
    const items = [item('k1', { x: 1 }), item('k2', { x: 1 }), item('k3', { x: 1 })];
    const expected = partition(items, 0.9);
    expect(partition([...items].reverse(), 0.9)).toEqual(expected);
    expect(expected).toEqual([['k1', 'k2', 'k3']]);
  });
});

describe('keepClusterIds', () => {
  it('keeps the id of the cluster that shares most issues with a group', () => {
    const previous = new Map<string, string | null>([
      ['i1', 'A'],
      ['i2', 'A'],
      ['i3', 'A'],
      ['i4', 'B'],
      ['i5', null],
    ]);
    // A split: its larger part keeps A; B's issue went to that larger part too; i5 joins a new one.
    expect(
      keepClusterIds(
        [
          ['i1', 'i2', 'i4'],
          ['i3', 'i5'],
          ['i6', 'i7'],
        ],
        previous,
      ),
    ).toEqual(['A', undefined, undefined]);
  });

  it('gives each id once, ties to the smaller id then the earlier group', () => {
    const previous = new Map<string, string | null>([
      ['i1', 'B'],
      ['i2', 'A'],
    ]);
    expect(keepClusterIds([['i1', 'i2']], previous)).toEqual(['A']);
    expect(keepClusterIds([['i1'], ['i1b', 'i2']], previous)).toEqual(['B', 'A']);
  });
});

describe('the sparse path', () => {
  /** Issues of the corpus generator with other seeds (8 topics, 30 conversations each per seed). */
  function synthetic(count: number): LabelledIssue[] {
    const { generate } = require('../../../test/fixtures/support-conversations/generate.js') as {
      generate: (seed: number) => LabelledCorpus['conversations'];
    };
    const out: LabelledIssue[] = [];
    for (let seed = 100; out.length < count; seed++) {
      out.push(...issuesOf(generate(seed) as unknown as Parameters<typeof issuesOf>[0]));
    }
    return out.slice(0, count);
  }

  it.each([
    ['the tuning corpus', () => corpusIssues(SUPPORT_CORPUS)],
    ['the held-out corpus', () => corpusIssues(HELD_OUT_CORPUS)],
    ['1,000 synthetic issues (seeds 100 on)', () => synthetic(1000)],
  ])('gives the same partition as the similarity matrix on %s', (_, issues) => {
    const items = tfIdfItems(issues());
    for (const threshold of [0.1, TFIDF_THRESHOLD, 0.3]) {
      const sparse = partition(items, threshold);
      expect(sparse).toEqual(partitionDense(items, threshold));
      expect(sparse.length).toBeGreaterThanOrEqual(8);
    }
  });

  it('gives the same partition as the matrix where ties and chains abound', () => {
    // Identical and near-identical issues over few terms: many equal similarities.
    const words = ['a', 'b', 'c', 'd', 'e'];
    const items: PartitionItem[] = [];
    for (let i = 0; i < 120; i++) {
      const entries: Record<string, number> = {};
      for (let k = 0; k < 3; k++)
        entries[words[(i * 7 + k * (i % 3)) % words.length]] = 1 + (k % 2);
      items.push({
        id: `i${i}`,
        key: `k${String(i).padStart(3, '0')}`,
        vector: normalize(new Map(Object.entries(entries))),
      });
    }
    for (const threshold of [0.2, 0.5, 0.8, 0.99]) {
      expect(partition(items, threshold)).toEqual(partitionDense(items, threshold));
    }
  });
});
