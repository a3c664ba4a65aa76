import type { TermCounts } from '../entities/conversation-issue.entity';
import { truncate } from './issue-extraction';
import { surfaceForms } from './text-terms';
import { centroid, cosine, TfIdf, topTerms } from './tf-idf';

export interface DescribedIssue {
  title: string;
  summary: string;
  terms: TermCounts;
}

export interface ClusterDescription {
  label: string;
  summary: string;
  icon: string;
}

/** Icon for the first of a cluster's top terms found here (GitBook icon names). */
const ICONS: [RegExp, string][] = [
  [
    /^(password|login|log|sign|signin|sso|saml|auth|authent|2fa|mfa|otp|credential|session|locked)/,
    'lock',
  ],
  [
    /^(bill|invoic|payment|pay|paid|charg|refund|subscript|plan|pric|card|receipt|vat|tax)/,
    'credit-card',
  ],
  [/^(search|find|index)/, 'magnifying-glass'],
  [/^(export|pdf|download|print)/, 'file-export'],
  [/^(import|upload|migrat)/, 'file-import'],
  [/^(domain|dns|hostnam|ssl|certificat|url|redirect)/, 'globe'],
  [/^(publish|site|deploy)/, 'rocket'],
  [/^(git|github|gitlab|sync|branch|commit|merg|repositori|repo)/, 'code-branch'],
  [/^(api|token|webhook|integrat|endpoint)/, 'plug'],
  [/^(invit|member|team|user|seat|role|permission|access)/, 'users'],
  [/^(email|mail|notif)/, 'envelope'],
  [/^(imag|video|file|attach)/, 'image'],
  [/^(slow|perform|load|timeout|lag)/, 'gauge'],
  [/^(error|crash|bug|broken|fail)/, 'bug'],
];
export const DEFAULT_ICON = 'circle-question';

/**
 * Label, summary and icon of a cluster, without AI: the label is the title of its most
 * central issue (the one nearest the centroid, earliest on ties), the summary counts the issues
 * and names the terms they share, and the icon follows the heaviest terms.
 */
export function describeCluster(
  issues: DescribedIssue[],
  conversations: number,
): ClusterDescription {
  const tfidf = new TfIdf(issues.map((issue) => issue.terms));
  const vectors = issues.map((issue) => tfidf.vector(issue.terms));
  const center = centroid(vectors);
  let medoid = 0;
  vectors.forEach((vector, i) => {
    if (cosine(vector, center) > cosine(vectors[medoid], center)) medoid = i;
  });
  // IDF inside one cluster favours rare words; the shared vocabulary is what raw counts show.
  const shared = new Map<string, number>();
  for (const issue of issues) {
    for (const term of Object.keys(issue.terms)) shared.set(term, (shared.get(term) ?? 0) + 1);
  }
  const terms = topTerms(shared, 5);
  const forms = surfaceForms(issues.map((issue) => `${issue.title} ${issue.summary}`));
  const words = terms.map((term) => forms.get(term) ?? term);
  const count = `${issues.length} ${issues.length === 1 ? 'issue' : 'issues'} from ${conversations} ${conversations === 1 ? 'conversation' : 'conversations'}`;
  return {
    label: truncate(issues[medoid].title, 120),
    summary: truncate(
      `${count}, mostly about ${words.join(', ')}. For example: ${issues[medoid].summary}`,
      1000,
    ),
    icon: iconFor(terms),
  };
}

export function iconFor(terms: string[]): string {
  for (const term of terms) {
    const match = ICONS.find(([pattern]) => pattern.test(term));
    if (match) return match[1];
  }
  return DEFAULT_ICON;
}
