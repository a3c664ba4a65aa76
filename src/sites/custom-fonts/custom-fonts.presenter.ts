import { Injectable } from '@nestjs/common';
import type { Role } from '../../platform/policy/roles';
import { UrlBuilder } from '../../platform/urls/url-builder';
import type { CustomFontDefinition, CustomFontResponse } from './dto/custom-font.response';
import type { CustomFont, CustomFontFace } from './entities/custom-font.entity';

/** The path of a font's files under the API (`getCustomFontFile`). */
export const CUSTOM_FONT_FILES = 'custom-fonts';

@Injectable()
export class CustomFontsPresenter {
  constructor(private readonly urls: UrlBuilder) {}

  /** GitBook's `CustomizationFontDefinition`, as the caller (of `role`) sees it. */
  present(font: CustomFont, role: Role | null): CustomFontResponse {
    return { ...this.definition(font), permissions: { edit: role === 'admin' } };
  }

  /**
   * GitBook's `CustomizationFontDefinitionInput`: what a site's customization holds in
   * `styling.font`, and what GitBook's renderer turns into `@font-face` rules.
   */
  definition(font: CustomFont): CustomFontDefinition {
    return {
      id: font.id,
      custom: true,
      fontFamily: font.fontFamily,
      fontFaces: [...font.fontFaces]
        .sort((a, b) => a.weight - b.weight)
        .map((face) => ({
          weight: face.weight,
          sources: [
            {
              url: this.fileUrl(font.id, face),
              // GitBook's FontSource names these two formats; browsers sniff the others.
              ...(face.format === 'woff2' || face.format === 'woff' ? { format: face.format } : {}),
            },
          ],
        })),
    };
  }

  fileUrl(fontId: string, face: Pick<CustomFontFace, 'file'>): string {
    return this.urls.api(CUSTOM_FONT_FILES, fontId, face.file);
  }
}
