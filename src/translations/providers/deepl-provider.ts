import type { TranslationLanguage } from '../../spaces/languages';
import type { GlossaryTerm } from '../job/segment';
import { postJson, requestJson } from './http-provider-call';
import {
  expectStrings,
  TranslationProviderError,
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
 * `Authorization: DeepL-Auth-Key <key>`, the texts as the array `text` (at most 50) and
 * `tag_handling: "xml"`, so the placeholders are XML elements DeepL keeps while it reorders the
 * words around them. A glossary is a DeepL glossary (`POST /v2/glossaries`, TSV entries) made
 * for the run and deleted after it; a language pair DeepL has no glossaries for is refused
 * there, and the run falls back on keeping the terms itself.
 */
export class DeepLProvider implements TranslationProvider {
  readonly name = 'DeepL';
  readonly limits = { maxSegments: 50, maxChars: 30_000 };
  readonly markup = 'xml' as const;
  private glossaryId: string | null = null;

  constructor(
    private readonly url: string,
    private readonly apiKey: string | undefined,
  ) {}

  private endpoint(path: string): string {
    return `${this.url.replace(/\/+$/, '')}${path}`;
  }

  private get headers(): Record<string, string> {
    return this.apiKey ? { authorization: `DeepL-Auth-Key ${this.apiKey}` } : {};
  }

  async useGlossary(
    glossary: GlossaryTerm[],
    source: TranslationLanguage,
    target: TranslationLanguage,
  ): Promise<boolean> {
    const seen = new Set<string>();
    const entries = glossary
      .map((term) => [term.source, term.target].map((text) => text.replace(/\t/g, ' ').trim()))
      .filter(([from, to]) => from !== '' && to !== '' && !seen.has(from) && seen.add(from));
    if (entries.length === 0) return true;
    try {
      const reply = (await requestJson(
        this.name,
        'POST',
        this.endpoint('/v2/glossaries'),
        {
          name: `bindery-${source}-${target}`,
          source_lang: deeplSource(source),
          // Glossaries take the language without its variant (EN, PT).
          target_lang: deeplSource(target),
          entries: entries.map((entry) => entry.join('\t')).join('\n'),
          entries_format: 'tsv',
        },
        this.headers,
      )) as { glossary_id?: unknown } | null;
      if (typeof reply?.glossary_id !== 'string') return false;
      this.glossaryId = reply.glossary_id;
      return true;
    } catch (error) {
      if (error instanceof TranslationProviderError) return false;
      throw error;
    }
  }

  async translate(request: TranslationRequest): Promise<string[]> {
    const reply = (await postJson(
      this.name,
      this.endpoint('/v2/translate'),
      {
        text: request.texts,
        source_lang: deeplSource(request.source),
        target_lang: deeplTarget(request.target),
        tag_handling: 'xml',
        ...(this.glossaryId ? { glossary_id: this.glossaryId } : {}),
      },
      this.headers,
    )) as { translations?: { text?: unknown }[] };
    const translations = Array.isArray(reply?.translations)
      ? reply.translations.map((t) => t?.text)
      : undefined;
    return expectStrings(this.name, translations, request.texts.length);
  }

  async close(): Promise<void> {
    if (!this.glossaryId) return;
    const id = this.glossaryId;
    this.glossaryId = null;
    await requestJson(
      this.name,
      'DELETE',
      this.endpoint(`/v2/glossaries/${id}`),
      null,
      this.headers,
    );
  }
}
