import type { TranslationLanguage } from '../../spaces/languages';
import type { GlossaryTerm, Markup } from '../job/segment';
import type { BatchLimits } from './batches';

/** One request: texts to translate, in order, and what guides the translation. */
export interface TranslationRequest {
  /** Segments in the provider's `markup`, placeholders included (job/segment.ts). */
  texts: string[];
  source: TranslationLanguage;
  target: TranslationLanguage;
  /** The translation's and the organization's instructions, as plain text ('' when none). */
  instructions: string;
  /** The organization's glossary for this pair of languages (empty when none). */
  glossary: GlossaryTerm[];
}

/**
 * A translation service: answers the translations of `texts`, in the same order, with the
 * placeholders of each text kept (checked by the run, not here).
 */
export interface TranslationProvider {
  readonly name: string;
  readonly limits: BatchLimits;
  /** How placeholders are written for this provider. */
  readonly markup: Markup;
  /**
   * Gets ready to apply `glossary` itself (a DeepL glossary, a prompt); answers false when it
   * cannot, and the run then keeps the terms out of the text and puts their translations back.
   * Absent: the provider has no glossaries.
   */
  useGlossary?(
    glossary: GlossaryTerm[],
    source: TranslationLanguage,
    target: TranslationLanguage,
  ): Promise<boolean>;
  translate(request: TranslationRequest): Promise<string[]>;
  /** Frees what the run made at the provider (a DeepL glossary). */
  close?(): Promise<void>;
}

/** A provider's answer no retry will fix; its message is recorded on the translation. */
export class TranslationProviderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TranslationProviderError';
  }
}

/** Timeout of one request to LibreTranslate or DeepL. */
export const TRANSLATION_API_TIMEOUT_MS = 60_000;

/** English names of the languages, for prompts. */
export const LANGUAGE_NAMES: Record<TranslationLanguage, string> = {
  en: 'English',
  fr: 'French',
  de: 'German',
  es: 'Spanish',
  it: 'Italian',
  pt: 'Portuguese (Portugal)',
  'pt-br': 'Portuguese (Brazil)',
  ru: 'Russian',
  ja: 'Japanese',
  zh: 'Chinese (Simplified)',
  yue: 'Cantonese',
  ko: 'Korean',
  ar: 'Arabic',
  hi: 'Hindi',
  nl: 'Dutch',
  pl: 'Polish',
  tr: 'Turkish',
  sv: 'Swedish',
  no: 'Norwegian (Bokmål)',
  da: 'Danish',
  fi: 'Finnish',
  el: 'Greek',
  cs: 'Czech',
  hu: 'Hungarian',
  ro: 'Romanian',
  th: 'Thai',
  vi: 'Vietnamese',
  id: 'Indonesian',
  ms: 'Malay',
  he: 'Hebrew',
  uk: 'Ukrainian',
  sk: 'Slovak',
  bg: 'Bulgarian',
  hr: 'Croatian',
  lt: 'Lithuanian',
  lv: 'Latvian',
  et: 'Estonian',
  sl: 'Slovenian',
};

/** A provider's JSON answer, or a TranslationProviderError naming the provider. */
export function parseJson(provider: string, text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new TranslationProviderError(`${provider} answered something other than JSON.`);
  }
}

/** Checks that a provider answered one string per text. */
export function expectStrings(provider: string, value: unknown, count: number): string[] {
  if (!Array.isArray(value) || value.length !== count || value.some((v) => typeof v !== 'string')) {
    throw new TranslationProviderError(
      `${provider} answered ${Array.isArray(value) ? value.length : 'no'} translations for ${count} texts.`,
    );
  }
  return value as string[];
}
