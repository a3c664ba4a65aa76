import type { ChatMessage } from '../platform/ai/chat-completions';

/** A source as the model reads it: a page's title, where it is, and its text. */
export interface PromptSource {
  title: string;
  /** Space title and the titles of the pages above it. */
  location: string[];
  text: string;
}

/** The line the model writes its follow-up questions after. */
export const FOLLOW_UP_MARKER = 'Follow-up questions:';
/** Follow-up questions kept from an answer. */
const MAX_FOLLOW_UPS = 3;

/**
 * The conversation that asks the model for an answer: the rules (answer only from the
 * sources, say so when they do not answer), the organization's agent instructions, then the
 * sources and the question.
 */
export function answerMessages(input: {
  siteTitle: string;
  instructions: string;
  sources: PromptSource[];
  question: string;
  goal?: string;
}): ChatMessage[] {
  const rules = [
    `You answer questions about the documentation "${input.siteTitle}" for its readers.`,
    'Answer only from the sources given with the question: never from what you know otherwise.',
    'When the sources do not answer the question, say that the documentation does not answer ' +
      'it, and do not guess.',
    'Answer in the language of the question, in Markdown, briefly. Do not number or name the ' +
      'sources in the answer; they are shown beside it.',
    `After the answer, write a line "${FOLLOW_UP_MARKER}" and under it up to ${MAX_FOLLOW_UPS} ` +
      'short questions the reader may ask next that the sources answer, one per line, each ' +
      'starting with "- ".',
  ];
  const system =
    input.instructions.trim() === ''
      ? rules.join('\n')
      : `${rules.join('\n')}\n\nInstructions from the documentation's owners:\n${input.instructions.trim()}`;
  const sources =
    input.sources.length === 0
      ? 'No source was found for this question.'
      : input.sources
          .map(
            (source, i) =>
              `### Source ${i + 1}: ${source.title}` +
              (source.location.length > 0 ? ` (in ${source.location.join(' › ')})` : '') +
              `\n\n${source.text.trim()}`,
          )
          .join('\n\n');
  const goal = input.goal?.trim() ? `\n\nThe reader's goal: ${input.goal.trim()}` : '';
  return [
    { role: 'system', content: system },
    {
      role: 'user',
      content: `Sources:\n\n${sources}\n\nQuestion: ${input.question.trim()}${goal}`,
    },
  ];
}

/** An answer as far as it has come: its text, and the follow-up questions after it. */
export interface AnswerSoFar {
  markdown: string;
  followupQuestions: string[];
}

const MARKER_LINE = /^[ \t]*(?:#+[ \t]*)?[*_]*follow-up questions:?[*_]*[ \t]*$/im;
const LIST_ITEM = /^[ \t]*(?:[-*+]|\d+[.)])[ \t]+(.+?)[ \t]*$/;

/**
 * Splits what the model has written so far into the answer and its follow-up questions. While
 * the reply is still coming (`final` false), a last line that may yet become the marker line
 * is held back, so the marker never shows in an answer, nor do questions half written.
 */
export function splitAnswer(text: string, final: boolean): AnswerSoFar {
  const marker = MARKER_LINE.exec(text);
  if (marker) {
    const after = text.slice(marker.index + marker[0].length).split(/\r\n|\r|\n/);
    if (!final) after.pop();
    const followupQuestions = after
      .map((line) => LIST_ITEM.exec(line)?.[1])
      .filter((question): question is string => question !== undefined && question !== '')
      .slice(0, MAX_FOLLOW_UPS);
    return { markdown: text.slice(0, marker.index).trimEnd(), followupQuestions };
  }
  if (final) return { markdown: text.trim(), followupQuestions: [] };
  const lastBreak = text.search(/[\r\n][^\r\n]*$/);
  const lastLine = (lastBreak === -1 ? text : text.slice(lastBreak + 1))
    .replace(/^[ \t]*#*[ \t]*[*_]*/, '')
    .toLowerCase();
  const mayBeMarker =
    lastLine !== '' && FOLLOW_UP_MARKER.toLowerCase().startsWith(lastLine.trimEnd());
  const shown = mayBeMarker ? text.slice(0, lastBreak === -1 ? 0 : lastBreak) : text;
  return { markdown: shown.trimEnd(), followupQuestions: [] };
}

/** The conversation that asks the model for questions a reader may ask of these pages. */
export function recommendedQuestionMessages(input: {
  siteTitle: string;
  instructions: string;
  titles: string[];
  count: number;
}): ChatMessage[] {
  const system = [
    `You suggest questions a reader of the documentation "${input.siteTitle}" may ask it.`,
    `Write ${input.count} short questions that its pages answer, one per line, with nothing ` +
      'else: no numbering, no introduction.',
    ...(input.instructions.trim() === ''
      ? []
      : [`\nInstructions from the documentation's owners:\n${input.instructions.trim()}`]),
  ].join('\n');
  return [
    { role: 'system', content: system },
    { role: 'user', content: `Its pages:\n${input.titles.map((t) => `- ${t}`).join('\n')}` },
  ];
}

/** A line of the model's list of questions as a question; undefined for anything else. */
export function questionOfLine(line: string): string | undefined {
  const question = line
    .replace(/^[ \t]*(?:[-*+]|\d+[.)])?[ \t]*/, '')
    .replace(/^["“]|["”]$/g, '')
    .trim();
  return question.length >= 5 && question.length <= 200 ? question : undefined;
}

/**
 * Questions from page titles, without a model: the first `count` pages, in the order the site
 * shows them, asked about in one plain form.
 */
export function questionsFromTitles(titles: string[], count: number): string[] {
  const seen = new Set<string>();
  const questions: string[] = [];
  for (const title of titles) {
    const clean = title.trim();
    if (clean === '' || seen.has(clean.toLowerCase())) continue;
    seen.add(clean.toLowerCase());
    questions.push(`What should I know about ${clean}?`);
    if (questions.length === count) break;
  }
  return questions;
}
