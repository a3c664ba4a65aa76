import {
  courtesyConversations,
  PROBLEMS,
  problemConversations,
} from '../../../test/fixtures/conversations';
import { describeCluster } from './cluster-description';
import { agglomerate, clusterIssues, type ClusterMembers, type IssueTerms } from './clustering';
import { extractIssues } from './issue-extraction';
import { termCounts } from './text-terms';
import { normalize } from './tf-idf';

interface LabelledIssue extends IssueTerms {
  problem: string;
  title: string;
  summary: string;
}

function issuesOf(prefix: string): LabelledIssue[] {
  return problemConversations(prefix).flatMap(({ problem, conversation }, c) =>
    extractIssues({ subject: conversation.subject ?? null, parts: conversation.parts }).map(
      (issue, i) => ({
        id: `${prefix}-${String(c).padStart(2, '0')}-${i}`,
        problem,
        ...issue,
        terms: termCounts(`${issue.title} ${issue.summary} ${conversation.subject ?? ''}`),
      }),
    ),
  );
}

/** Problems of each cluster, as `problem×count`. */
function shape(clusters: { issues: LabelledIssue[] }[]): string[] {
  return clusters
    .map((cluster) => {
      const kinds = [...new Set(cluster.issues.map((issue) => issue.problem))];
      return `${kinds.join('+')}×${cluster.issues.length}`;
    })
    .sort();
}

describe('conversation analysis on synthetic conversations', () => {
  it('finds one issue per problem conversation and none in thanks', () => {
    expect(issuesOf('a')).toHaveLength(60);
    for (const conversation of courtesyConversations()) {
      expect(
        extractIssues({ subject: conversation.subject ?? null, parts: conversation.parts }),
      ).toEqual([]);
    }
  });

  it('groups 60 issues about 5 problems into 5 clusters labelled by their problem', () => {
    const issues = issuesOf('a');
    const byId = new Map(issues.map((issue) => [issue.id, issue]));
    const { joined, created } = clusterIssues([], issues);
    expect(joined.size).toBe(0);
    const clusters = created.map((ids) => ({ issues: ids.map((id) => byId.get(id)!) }));
    expect(shape(clusters)).toEqual([
      'billing×12',
      'custom-domain×12',
      'password-reset×12',
      'pdf-export×12',
      'sso×12',
    ]);
    for (const { issues: members } of clusters) {
      const { label, icon } = describeCluster(members, members.length);
      const words = PROBLEMS.find((p) => p.key === members[0].problem)!.labelWords;
      expect(words.some((word) => label.toLowerCase().includes(word))).toBe(true);
      expect(icon).toMatch(/^[a-z-]{1,50}$/);
    }
  });

  it('gives the same clusters for the same input, whatever the order of arrival', () => {
    const issues = issuesOf('a');
    expect(clusterIssues([], issues)).toEqual(clusterIssues([], issues));
  });

  it('builds the same 5 clusters when issues arrive a few at a time', () => {
    // Problems interleaved, as a support inbox receives them.
    const arrivals = [...issuesOf('s')].sort(
      (a, b) => (Number(a.id.split('-')[1]) % 12) - (Number(b.id.split('-')[1]) % 12),
    );
    const clusters: (ClusterMembers & { issues: LabelledIssue[] })[] = [];
    let pool: LabelledIssue[] = [];
    for (let i = 0; i < arrivals.length; i += 3) {
      pool.push(...arrivals.slice(i, i + 3));
      const { joined, created } = clusterIssues(clusters, pool);
      const byId = new Map(pool.map((issue) => [issue.id, issue]));
      for (const [issueId, clusterId] of joined) {
        clusters.find((c) => c.id === clusterId)!.issues.push(byId.get(issueId)!);
      }
      created.forEach((ids, g) =>
        clusters.push({ id: `c${i}-${g}`, issues: ids.map((id) => byId.get(id)!) }),
      );
      const placed = new Set([...joined.keys(), ...created.flat()]);
      pool = pool.filter((issue) => !placed.has(issue.id));
    }
    expect(pool).toEqual([]);
    expect(shape(clusters)).toEqual([
      'billing×12',
      'custom-domain×12',
      'password-reset×12',
      'pdf-export×12',
      'sso×12',
    ]);
  });

  it('adds new issues to existing clusters rather than making new ones', () => {
    const first = issuesOf('a');
    const { created } = clusterIssues([], first);
    const clusters = created.map((ids, i) => ({
      id: `cluster-${i}`,
      issues: ids.map((id) => first.find((issue) => issue.id === id)!),
    }));
    const second = issuesOf('b');
    const result = clusterIssues(clusters, second);
    expect(result.created).toEqual([]);
    expect(result.joined.size).toBe(60);
    for (const issue of second) {
      const cluster = clusters.find((c) => c.id === result.joined.get(issue.id))!;
      expect(cluster.issues[0].problem).toBe(issue.problem);
    }
  });

  it('leaves an issue unlike any other unclustered', () => {
    const issues = issuesOf('a').slice(0, 12);
    const odd = { id: 'odd', terms: termCounts('The dark mode colours look strange on tablets') };
    const { joined, created } = clusterIssues([], [...issues, odd]);
    expect(joined.size).toBe(0);
    expect(created.flat()).not.toContain('odd');
  });
});

describe('agglomerate', () => {
  const v = (entries: Record<string, number>) => normalize(new Map(Object.entries(entries)));

  it('merges by average similarity down to the threshold', () => {
    const groups = agglomerate(
      [
        { id: 'a', vector: v({ x: 1 }) },
        { id: 'b', vector: v({ x: 1, y: 0.2 }) },
        { id: 'c', vector: v({ z: 1 }) },
        { id: 'd', vector: v({ z: 1, w: 0.1 }) },
        { id: 'e', vector: v({ q: 1 }) },
      ],
      0.5,
    );
    expect(groups).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
  });
});
