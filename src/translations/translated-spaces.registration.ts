import { Injectable, OnModuleInit } from '@nestjs/common';
import { TranslatedSpaces } from '../spaces/content/translated-spaces';
import { TranslationsRepository } from './translations.repository';

/** Tells space content which spaces hold a space's pages in other languages (page meta links). */
@Injectable()
export class TranslatedSpacesRegistration implements OnModuleInit {
  constructor(
    private readonly translatedSpaces: TranslatedSpaces,
    private readonly translations: TranslationsRepository,
  ) {}

  onModuleInit(): void {
    this.translatedSpaces.register((spaceId) => this.translations.relatedSpaceIds(spaceId));
  }
}
