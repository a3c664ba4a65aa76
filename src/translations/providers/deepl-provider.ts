import type { TranslationLanguage } from '../../spaces/languages';
import { postJson } from './http-provider-call';
import {
  expectStrings,
  type TranslationProvider,
  type TranslationRequest,
} from './translation-provider';

/** DeepL target codes where they differ from GitBook's upper-cased (DeepL wants a variant). */
const TARGETS: Partial<Record<TranslationLanguage, string>> = {
  en: 'EN-US',
  pt: 'PT-PT',
  'pt-br': 'PT-BR',
  no: 'NB',
};

/** DeepL source codes: the language without its variant. */
const SOURCES: Partial<Record<TranslationLanguage, string>> = { 'pt-br': 'PT', no: 'NB' };

export const deeplTarget = (language: TranslationLanguage): string =>
  TARGETS[language] ?? language.toUpperCase();

export const deeplSource = (language: TranslationLanguage): string =>
  SOURCES[language] ?? language.toUpperCase();

/**
 * DeepL (https://api.deepl.com or https://api-free.deepl.com): `POST {url}/v2/translate` with
 * `Authorization: DeepL-Auth-Key <key>` and the texts as the array `text` (at most 50).
 */
export class DeepLProvider implements TranslationProvider {
  readonly name = 'DeepL';
  readonly limits = { maxSegments: 50, maxChars: 30_000 };

  constructor(
    private readonly url: string,
    private readonly apiKey: string | undefined,
  ) {}

  async translate(request: TranslationRequest): Promise<string[]> {
    const reply = (await postJson(
      this.name,
      `${this.url.replace(/\/+$/, '')}/v2/translate`,
      {
        text: request.texts,
        source_lang: deeplSource(request.source),
        target_lang: deeplTarget(request.target),
      },
      this.apiKey ? { authorization: `DeepL-Auth-Key ${this.apiKey}` } : {},
    )) as { translations?: { text?: unknown }[] };
    const translations = Array.isArray(reply?.translations)
      ? reply.translations.map((t) => t?.text)
      : undefined;
    return expectStrings(this.name, translations, request.texts.length);
  }
}
