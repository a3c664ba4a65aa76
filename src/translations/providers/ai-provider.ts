import { ChatCompletions, type ChatMessage } from '../../platform/ai/chat-completions';
import { RetryableError, withRetries } from '../../platform/ai/retry';
import type { GlossaryTerm } from '../job/segment';
import {
  LANGUAGE_NAMES,
  type TranslationProvider,
  type TranslationRequest,
} from './translation-provider';

const RULES = [
  'You translate technical documentation.',
  'The user message is a JSON object mapping segment ids to texts. Answer with one JSON object',
  'that maps every one of those ids to the translation of its text, and nothing else.',
  'Each segment is a whole paragraph, heading, list item, table cell, caption or label:',
  'translate it as a whole, in natural word order, and do not merge or split segments.',
  'Formatting is written as tags: <g1>…</g1> wraps formatted or linked words, <x2/> stands for',
  'something kept as it is (code, a variable, an image). Return every tag exactly once, with the',
  'same number, around the words that translate the words it wrapped; move tags with their',
  'words when the word order changes, never drop, add, renumber or nest them differently.',
  'Keep product names, code, commands, file names, URLs and variables as they are.',
].join(' ');

/** The system prompt: languages, rules, then the instructions of the organization and translation. */
export function translationPrompt(
  request: Omit<TranslationRequest, 'texts' | 'glossary'> & { glossary?: GlossaryTerm[] },
): string {
  const from = `${LANGUAGE_NAMES[request.source]} (${request.source})`;
  const to = `${LANGUAGE_NAMES[request.target]} (${request.target})`;
  const parts = [`${RULES}\nTranslate from ${from} to ${to}.`];
  if (request.glossary && request.glossary.length > 0) {
    const lines = request.glossary.map(
      (term) => `${JSON.stringify(term.source)} → ${JSON.stringify(term.target)}`,
    );
    parts.push(
      `Glossary: translate these terms exactly so (adapting case and grammar only where the ` +
        `language requires it):\n${lines.join('\n')}`,
    );
  }
  if (request.instructions.trim() !== '') {
    parts.push(`Follow these instructions:\n${request.instructions.trim()}`);
  }
  return parts.join('\n\n');
}

/**
 * Translation by an OpenAI-compatible chat model (AI_API_URL, AI_MODEL): each batch is one chat
 * completion in JSON mode, segments keyed by their position, formatting as numbered tags in
 * the strings (a structure models keep well), the glossary in the prompt. An answer that is not such a JSON
 * object, or misses a segment, is asked for once more before the run fails.
 */
export class AiTranslationProvider implements TranslationProvider {
  readonly name = 'AI';
  readonly limits = { maxSegments: 40, maxChars: 6000 };
  readonly markup = 'tags' as const;

  constructor(private readonly chat: ChatCompletions) {}

  /** The glossary goes into the prompt (translationPrompt). */
  useGlossary(): Promise<boolean> {
    return Promise.resolve(true);
  }

  translate(request: TranslationRequest): Promise<string[]> {
    const segments = Object.fromEntries(request.texts.map((text, index) => [String(index), text]));
    const messages: ChatMessage[] = [
      { role: 'system', content: translationPrompt(request) },
      { role: 'user', content: JSON.stringify(segments) },
    ];
    return withRetries(
      async () => {
        const reply = await this.chat.complete(messages, { json: true, temperature: 0 });
        return readReply(reply, request.texts.length);
      },
      { attempts: 2, baseDelayMs: 200 },
    );
  }
}

function readReply(reply: string, count: number): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(stripFence(reply));
  } catch {
    throw new RetryableError('The AI answered something other than a JSON object.');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new RetryableError('The AI answered something other than a JSON object.');
  }
  let map = parsed as Record<string, unknown>;
  // Some models wrap the answer in one key of their own.
  const values = Object.values(map);
  if (values.length === 1 && typeof values[0] === 'object' && values[0] !== null && count > 1) {
    map = values[0] as Record<string, unknown>;
  }
  const translations: string[] = [];
  for (let index = 0; index < count; index++) {
    const value = map[String(index)];
    if (typeof value !== 'string') {
      throw new RetryableError(`The AI answer has no translation for segment ${index}.`);
    }
    translations.push(value);
  }
  return translations;
}

/** Models asked for JSON sometimes still fence it as a markdown code block. */
function stripFence(reply: string): string {
  const fenced = /^\s*```(?:json)?\s*([\s\S]*?)\s*```\s*$/.exec(reply);
  return fenced ? fenced[1] : reply;
}
