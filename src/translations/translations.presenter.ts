import { Injectable } from '@nestjs/common';
import type { Role } from '../platform/policy/roles';
import { UrlBuilder } from '../platform/urls/url-builder';
import type { TranslationResponse } from './dto/translation.response';
import type { Translation } from './entities/translation.entity';
import { translationPermissions } from './translation-access';

@Injectable()
export class TranslationsPresenter {
  constructor(private readonly urls: UrlBuilder) {}

  /** GitBook's `Translation`, for a caller whose organization role is `role`. */
  translation(translation: Translation, role: Role | null): TranslationResponse {
    const result =
      translation.resultSpaceId !== null && translation.resultRevisionId !== null
        ? { result: { space: translation.resultSpaceId, revision: translation.resultRevisionId } }
        : {};
    return {
      object: 'translation',
      id: translation.id,
      status: translation.status,
      source: { space: translation.sourceSpaceId, language: translation.sourceLanguage },
      language: translation.language,
      instructions: translation.instructions,
      ...result,
      createdAt: translation.createdAt.toISOString(),
      updatedAt: translation.updatedAt.toISOString(),
      stats: {
        runs: translation.runs,
        totalWords: translation.totalWords,
        totalPages: translation.totalPages,
        totalDuration: translation.totalDuration,
        latestRunDuration: translation.latestRunDuration,
        latestPages: translation.latestPages,
        latestWords: translation.latestWords,
        latestSegments: translation.latestSegments,
        latestCachedSegments: translation.latestCachedSegments,
        latestCharacters: translation.latestCharacters,
        totalSegments: translation.totalSegments,
        totalCharacters: translation.totalCharacters,
        latestRunDurationMs: Math.round(translation.latestRunDurationMs),
        totalDurationMs: Math.round(translation.totalDurationMs),
      },
      permissions: translationPermissions(role),
      urls: {
        location: this.urls.api('orgs', translation.organizationId, 'translations', translation.id),
      },
      ...(translation.lastError !== null
        ? {
            lastRunError: {
              message: translation.lastError,
              failedAt: (translation.lastErrorAt ?? translation.updatedAt).toISOString(),
              ...(translation.lastErrorDetails ? { details: translation.lastErrorDetails } : {}),
            },
          }
        : {}),
    };
  }
}
