import type { TermCounts } from '../entities/conversation-issue.entity';
import { keyPhrases } from './key-phrases';
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

/** Key phrases named in a summary. */
const SUMMARY_PHRASES = 4;
/** A second phrase joins the label when at least this share of the issues says it. */
const SECOND_PHRASE_SHARE = 0.4;
const LABEL_MAX = 120;
const SUMMARY_MAX = 1000;

/**
 * Label, summary and icon of a cluster, without AI, from its issues alone (so the same issues
 * always get the same words): the label is the cluster's key phrase ("Password reset email"),
 * with a second one that most issues share and that adds other words ("Custom domain, DNS");
 * the summary counts the issues, names the key phrases and quotes the most central issue (the
 * one nearest the centroid). Whole words as the users wrote them, never stems, never cut.
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
  const phrases = keyPhrases(
    issues.map((issue) => textOf(issue)),
    SUMMARY_PHRASES,
  );
  const count = `${issues.length} ${issues.length === 1 ? 'issue' : 'issues'} from ${conversations} ${conversations === 1 ? 'conversation' : 'conversations'}`;
  const example = issues[medoid].title;
  let label = example;
  if (phrases.length > 0) {
    const [first, ...others] = phrases;
    const firstWords = new Set(first.text.toLowerCase().split(' '));
    const second = others.find(
      (phrase) =>
        phrase.count >= SECOND_PHRASE_SHARE * issues.length &&
        phrase.text
          .toLowerCase()
          .split(' ')
          .every((word) => !firstWords.has(word)),
    );
    label = capitalize(second ? `${first.text}, ${second.text}` : first.text);
  }
  const about =
    phrases.length > 0 ? `, mostly about ${phrases.map((phrase) => phrase.text).join(', ')}` : '';
  const summary = `${count}${about}. For example: ${example}`;
  // Shared stems pick the icon: raw counts show the shared vocabulary.
  const shared = new Map<string, number>();
  for (const issue of issues) {
    for (const term of Object.keys(issue.terms)) shared.set(term, (shared.get(term) ?? 0) + 1);
  }
  return {
    label:
      label.length <= LABEL_MAX
        ? label
        : capitalize(phrases[0]?.text ?? example.slice(0, LABEL_MAX)),
    summary: summary.length <= SUMMARY_MAX ? summary : `${count}${about}.`,
    icon: iconFor(topTerms(shared, 5)),
  };
}

/** An issue's text once: its title is usually its summary's first sentence. */
function textOf(issue: DescribedIssue): string {
  return issue.summary.startsWith(issue.title) ? issue.summary : `${issue.title}. ${issue.summary}`;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function iconFor(terms: string[]): string {
  for (const term of terms) {
    const match = ICONS.find(([pattern]) => pattern.test(term));
    if (match) return match[1];
  }
  return DEFAULT_ICON;
}
