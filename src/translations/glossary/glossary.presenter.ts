import { Injectable } from '@nestjs/common';
import { UrlBuilder } from '../../platform/urls/url-builder';
import type { GlossaryEntryResponse } from './dto/glossary-entry.response';
import type { GlossaryEntry } from './entities/glossary-entry.entity';

@Injectable()
export class GlossaryPresenter {
  constructor(private readonly urls: UrlBuilder) {}

  /** GitBook's `GlossaryEntry`. */
  entry(entry: GlossaryEntry): GlossaryEntryResponse {
    return {
      object: 'glossary-entry',
      id: entry.id,
      translations: entry.translations as Record<string, string>,
      createdAt: entry.createdAt.toISOString(),
      updatedAt: entry.updatedAt.toISOString(),
      urls: {
        location: this.urls.api('orgs', entry.organizationId, 'translations-glossary', entry.id),
      },
    };
  }
}
