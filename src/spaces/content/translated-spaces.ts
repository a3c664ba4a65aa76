import { Injectable } from '@nestjs/common';

/**
 * The spaces holding a space's pages in other languages, as the translations module knows them
 * (it sits above space content): for a translated space, the translations' result spaces; for a
 * result space, its source and the source's other results. A translation keeps the ids of the
 * pages it translates, so a page has the same id in each of them.
 */
export type TranslatedSpacesFinder = (spaceId: string) => Promise<string[]>;

/**
 * The port through which space content hears of translations. The translations module
 * registers the finder when it starts; without one, a space has no translations.
 */
@Injectable()
export class TranslatedSpaces {
  private finder?: TranslatedSpacesFinder;

  register(finder: TranslatedSpacesFinder): void {
    if (this.finder) throw new Error('A translated spaces finder is already registered');
    this.finder = finder;
  }

  /** The ids of the other spaces with `spaceId`'s pages in another language (not `spaceId`). */
  async of(spaceId: string): Promise<string[]> {
    if (!this.finder) return [];
    return (await this.finder(spaceId)).filter((id) => id !== spaceId);
  }
}
