import { Injectable } from '@nestjs/common';
import { ChatCompletions } from '../../platform/ai/chat-completions';
import { AppConfig } from '../../platform/config/app-config';
import { DomainError } from '../../platform/errors/domain-error';
import { AiTranslationProvider } from './ai-provider';
import { DeepLProvider } from './deepl-provider';
import { LibreTranslateProvider } from './libretranslate-provider';
import type { TranslationProvider } from './translation-provider';

/** What runTranslation answers (409) when no provider can be used. */
const notConfigured = (detail: string) =>
  new DomainError(
    'conflict',
    'TranslationProviderNotConfigured',
    `Translations cannot run: ${detail} Set TRANSLATION_PROVIDER to "ai" (with AI_API_URL and ` +
      'AI_MODEL, and AI_API_KEY if the endpoint needs one), "libretranslate" (with ' +
      'TRANSLATION_API_URL and, if needed, TRANSLATION_API_KEY) or "deepl" (with ' +
      'TRANSLATION_API_URL and TRANSLATION_API_KEY), then restart Bindery.',
  );

/** The provider chosen by TRANSLATION_PROVIDER, or why there is none. */
@Injectable()
export class TranslationProviders {
  constructor(
    private readonly config: AppConfig,
    private readonly chat: ChatCompletions,
  ) {}

  /** The configured provider; a 409 DomainError saying how to configure one when there is none. */
  current(): TranslationProvider {
    const { TRANSLATION_PROVIDER, TRANSLATION_API_URL, TRANSLATION_API_KEY } = this.config;
    switch (TRANSLATION_PROVIDER) {
      case undefined:
        throw notConfigured('no translation provider is configured.');
      case 'ai':
        if (!this.chat.configured) {
          throw notConfigured(
            'TRANSLATION_PROVIDER is "ai" but AI_API_URL or AI_MODEL is not set.',
          );
        }
        return new AiTranslationProvider(this.chat);
      case 'libretranslate':
        if (!TRANSLATION_API_URL) {
          throw notConfigured(
            'TRANSLATION_PROVIDER is "libretranslate" but TRANSLATION_API_URL is not set.',
          );
        }
        return new LibreTranslateProvider(TRANSLATION_API_URL, TRANSLATION_API_KEY);
      case 'deepl':
        if (!TRANSLATION_API_URL || !TRANSLATION_API_KEY) {
          throw notConfigured(
            'TRANSLATION_PROVIDER is "deepl" but TRANSLATION_API_URL or TRANSLATION_API_KEY is not set.',
          );
        }
        return new DeepLProvider(TRANSLATION_API_URL, TRANSLATION_API_KEY);
    }
  }
}
