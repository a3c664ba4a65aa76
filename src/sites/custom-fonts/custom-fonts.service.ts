import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { fontFormatOf } from '../../orgs/storage/font-files';
import { StorageUploads } from '../../orgs/storage/storage-uploads';
import { BlobStore } from '../../platform/blob-store/blob-store';
import { Clock } from '../../platform/clock/clock';
import { DomainError, invalidInput, notFound } from '../../platform/errors/domain-error';
import { newId } from '../../platform/ids/ids';
import type { PageRequest } from '../../platform/pagination/keyset';
import type { Page } from '../../platform/pagination/page';
import { cacheTag } from '../../platform/revalidation/cache-tags';
import { Revalidation } from '../../platform/revalidation/revalidation.service';
import { SitesRepository } from '../sites.repository';
import { fontBlobKey, newFontFileName } from './custom-font-files';
import { CustomFontsRepository } from './custom-fonts.repository';
import type {
  CreateCustomFontDto,
  CustomFontFaceInputDto,
  UpdateCustomFontDto,
} from './dto/custom-font.dto';
import { CustomFont, CustomFontFace } from './entities/custom-font.entity';

/** The weight every font must have a face for: what GitBook's renderer preloads and falls to. */
export const REGULAR_WEIGHT = 400;

const fontNotFound = () => notFound('Custom font');
const regularRequired = () =>
  new DomainError(
    'precondition_failed',
    'RegularFontFaceRequired',
    `fontFaces: a font needs a regular face (weight ${REGULAR_WEIGHT}).`,
  );

/** A face whose file was written, and the upload it came from. */
interface TakenFace {
  face: CustomFontFace;
  storageKey: string;
}

/**
 * The organization's custom fonts. A font's files come from storage uploads
 * (`generateStorageUploadURL`), which it takes over: each is checked as a font again, copied
 * to a name of its own, and the upload removed. Files are written before the row that names
 * them and removed after the row that named them is gone, so a font never names a missing
 * file; a write that fails removes what it wrote. The sites whose customization names a font
 * are revalidated when it changes or goes (they then show the default font: see
 * CustomizationFonts).
 */
@Injectable()
export class CustomFontsService {
  private readonly logger = new Logger('CustomFonts');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly fonts: CustomFontsRepository,
    private readonly sites: SitesRepository,
    private readonly uploads: StorageUploads,
    private readonly blobs: BlobStore,
    private readonly revalidation: Revalidation,
    private readonly clock: Clock,
  ) {}

  list(organizationId: string, query: PageRequest): Promise<Page<CustomFont>> {
    return this.fonts.page(organizationId, query);
  }

  async get(organizationId: string, fontId: string): Promise<CustomFont> {
    const font = await this.fonts.find(organizationId, fontId);
    if (!font) throw fontNotFound();
    return font;
  }

  /** The organization's fonts among `ids`, by id (read with `manager`: in its transaction). */
  async byId(
    organizationId: string,
    ids: string[],
    manager?: EntityManager,
  ): Promise<Map<string, CustomFont>> {
    const fonts = await this.fonts.findMany(organizationId, [...new Set(ids)], manager);
    return new Map(fonts.map((font) => [font.id, font]));
  }

  async create(organizationId: string, body: CreateCustomFontDto): Promise<CustomFont> {
    assertDistinctWeights(body.fontFaces);
    if (!body.fontFaces.some((face) => face.weight === REGULAR_WEIGHT)) throw regularRequired();
    const id = newId();
    const taken = await this.take(organizationId, id, body.fontFaces);
    const now = this.clock.now();
    const font = Object.assign(new CustomFont(), {
      id,
      organizationId,
      fontFamily: body.fontFamily,
      fontFaces: byWeight(taken.map(({ face }) => face)),
      createdAt: now,
      updatedAt: now,
    });
    try {
      await this.dataSource.transaction((tx) => this.fonts.insert(font, tx));
    } catch (error) {
      await this.removeFiles(id, font.fontFaces);
      throw error;
    }
    await this.uploads.discard(taken.map(({ storageKey }) => storageKey));
    return font;
  }

  /**
   * Renames the font and sets or removes faces (`storageKey: null`); weights left out keep
   * their file. 412 when no regular face would be left.
   */
  async update(
    organizationId: string,
    fontId: string,
    body: UpdateCustomFontDto,
  ): Promise<CustomFont> {
    const changes = body.fontFaces ?? [];
    assertDistinctWeights(changes);
    // Checked before any file is written for it; checked again, locked, below.
    await this.get(organizationId, fontId);
    const additions = changes.flatMap((face, index) =>
      face.storageKey === null ? [] : [{ weight: face.weight, storageKey: face.storageKey, index }],
    );
    const taken = await this.take(organizationId, fontId, additions);
    let replaced: CustomFontFace[] = [];
    let font: CustomFont;
    try {
      font = await this.dataSource.transaction(async (tx) => {
        const current = await this.fonts.lock(organizationId, fontId, tx);
        if (!current) throw fontNotFound();
        const faces = new Map(current.fontFaces.map((face) => [face.weight, face]));
        for (const change of changes) {
          if (change.storageKey === null) faces.delete(change.weight);
        }
        for (const { face } of taken) faces.set(face.weight, face);
        if (!faces.has(REGULAR_WEIGHT)) throw regularRequired();
        const next = byWeight([...faces.values()]);
        const fontFamily = body.fontFamily ?? current.fontFamily;
        replaced = current.fontFaces.filter((face) => !next.includes(face));
        if (fontFamily === current.fontFamily && replaced.length === 0 && taken.length === 0) {
          return current;
        }
        Object.assign(current, { fontFamily, fontFaces: next, updatedAt: this.clock.now() });
        await this.fonts.save(current, tx);
        await this.revalidateSitesUsing(organizationId, fontId, tx);
        return current;
      });
    } catch (error) {
      await this.removeFiles(
        fontId,
        taken.map(({ face }) => face),
      );
      throw error;
    }
    await this.removeFiles(fontId, replaced);
    await this.uploads.discard(taken.map(({ storageKey }) => storageKey));
    return font;
  }

  /** Deletes the font and its files; false when the organization has no such font. */
  async delete(organizationId: string, fontId: string): Promise<boolean> {
    const deleted = await this.dataSource.transaction(async (tx) => {
      const font = await this.fonts.lock(organizationId, fontId, tx);
      if (!font) return null;
      await this.revalidateSitesUsing(organizationId, fontId, tx);
      await this.fonts.delete(organizationId, fontId, tx);
      return font;
    });
    if (!deleted) return false;
    await this.removeFiles(fontId, deleted.fontFaces);
    return true;
  }

  /**
   * Writes the file of each face from its upload; 400 naming the face whose key holds no font
   * of the organization. On failure, nothing written stays.
   */
  private async take(
    organizationId: string,
    fontId: string,
    faces: (Pick<CustomFontFaceInputDto, 'weight' | 'storageKey'> & { index?: number })[],
  ): Promise<TakenFace[]> {
    const taken: TakenFace[] = [];
    try {
      for (const [position, { weight, storageKey, index = position }] of faces.entries()) {
        const bytes = await this.uploads.uploaded(organizationId, 'customization_font', storageKey);
        if (bytes === null) {
          throw invalidInput(
            `fontFaces.${index}.storageKey: no file was uploaded under this key (ask ` +
              'generateStorageUploadURL with kind customization_font, then PUT the file to its url).',
          );
        }
        const format = fontFormatOf(bytes);
        if (format === null) {
          throw invalidInput(`fontFaces.${index}.storageKey: the file is not a font.`);
        }
        const face: CustomFontFace = {
          weight,
          file: newFontFileName(format),
          format,
          size: bytes.length,
        };
        await this.blobs.put(fontBlobKey(fontId, face.file), bytes);
        taken.push({ face, storageKey });
      }
    } catch (error) {
      await this.removeFiles(
        fontId,
        taken.map(({ face }) => face),
      );
      throw error;
    }
    return taken;
  }

  private async removeFiles(fontId: string, faces: CustomFontFace[]): Promise<void> {
    for (const face of faces) {
      // A file left behind costs only its space: no font names it any longer.
      await this.blobs.delete(fontBlobKey(fontId, face.file)).catch((error: unknown) => {
        this.logger.warn({ err: error, fontId, file: face.file }, 'Could not remove a font file');
      });
    }
  }

  private async revalidateSitesUsing(
    organizationId: string,
    fontId: string,
    tx: EntityManager,
  ): Promise<void> {
    const siteIds = await this.sites.idsUsingCustomFont(organizationId, fontId, tx);
    await this.revalidation.tags(siteIds.map(cacheTag.site), tx);
  }
}

function assertDistinctWeights(faces: { weight: number }[]): void {
  const seen = new Set<number>();
  for (const [index, { weight }] of faces.entries()) {
    if (seen.has(weight)) {
      throw invalidInput(`fontFaces.${index}.weight: weight ${weight} is given twice.`);
    }
    seen.add(weight);
  }
}

function byWeight(faces: CustomFontFace[]): CustomFontFace[] {
  return [...faces].sort((a, b) => a.weight - b.weight);
}
