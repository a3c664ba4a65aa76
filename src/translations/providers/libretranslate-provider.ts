import type { TranslationLanguage } from '../../spaces/languages';
import { postJson } from './http-provider-call';
import {
  expectStrings,
  type TranslationProvider,
  type TranslationRequest,
} from './translation-provider';

/** LibreTranslate's codes where they differ from GitBook's. */
const CODES: Partial<Record<TranslationLanguage, string>> = { 'pt-br': 'pb', no: 'nb' };

export function libreTranslateCode(language: TranslationLanguage): string {
  return CODES[language] ?? language;
}

/**
 * LibreTranslate (https://libretranslate.com, or self-hosted): `POST {url}/translate` with the
 * texts as the array `q`, `format: "html"` (the placeholders are HTML elements it keeps) and the
 * API key when there is one. It has no glossaries: the run keeps glossary terms out of the text
 * as placeholders and puts their translations back.
 */
export class LibreTranslateProvider implements TranslationProvider {
  readonly name = 'LibreTranslate';
  readonly limits = { maxSegments: 50, maxChars: 5000 };
  readonly markup = 'html' as const;

  constructor(
    private readonly url: string,
    private readonly apiKey: string | undefined,
  ) {}

  async translate(request: TranslationRequest): Promise<string[]> {
    const reply = (await postJson(this.name, `${this.url.replace(/\/+$/, '')}/translate`, {
      q: request.texts,
      source: libreTranslateCode(request.source),
      target: libreTranslateCode(request.target),
      format: 'html',
      ...(this.apiKey ? { api_key: this.apiKey } : {}),
    })) as { translatedText?: unknown };
    return expectStrings(this.name, reply?.translatedText, request.texts.length);
  }
}
