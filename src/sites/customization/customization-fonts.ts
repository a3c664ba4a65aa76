import type { EntityManager } from 'typeorm';
import { Injectable } from '@nestjs/common';
import { invalidInput } from '../../platform/errors/domain-error';
import { CustomFontsPresenter } from '../custom-fonts/custom-fonts.presenter';
import { CustomFontsService } from '../custom-fonts/custom-fonts.service';
import type { CustomFontDefinition } from '../custom-fonts/dto/custom-font.response';
import type { Site } from '../entities/site.entity';
import type { Customization } from './customization';

/** The settings of `styling` that name a font, which may be one of the organization's. */
const FONT_SETTINGS = ['font', 'monospaceFont'] as const;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The custom font a setting's value names (`{custom: true, id}`), if it names one. */
function customFontId(value: unknown): string | undefined {
  return isRecord(value) && value.custom === true && typeof value.id === 'string'
    ? value.id
    : undefined;
}

/** The custom fonts `customization` (whole, or a part of one) names, by setting. */
function namedFonts(customization: unknown): { setting: string; id: string }[] {
  if (!isRecord(customization) || !isRecord(customization.styling)) return [];
  const styling = customization.styling;
  return FONT_SETTINGS.flatMap((setting) => {
    const id = customFontId(styling[setting]);
    return id === undefined ? [] : [{ setting, id }];
  });
}

/**
 * `customization` with each custom font it names as `definitions` has it; one they lack is
 * left out (the setting then takes what is below it: the site's, or the default). The same
 * object when it names none.
 */
function withFonts<T>(customization: T, definitions: Map<string, CustomFontDefinition>): T {
  const named = namedFonts(customization);
  if (named.length === 0) return customization;
  const written = customization as Record<string, unknown>;
  const styling = { ...(written.styling as Record<string, unknown>) };
  for (const { setting, id } of named) {
    const definition = definitions.get(id);
    if (definition) styling[setting] = definition;
    else delete styling[setting];
  }
  return { ...written, styling } as T;
}

/**
 * Custom fonts in site customizations (GitBook's `CustomizationFontDefinitionInput` with
 * `custom: true` in `styling.font` or `styling.monospaceFont`). A customization names the
 * font by its `id`; Bindery keeps the font's definition there as it was when written, and
 * answers it as the font is now (its family and the URLs of its files), which is what GitBook's
 * renderer needs to load it. A font since deleted falls back: a site's setting to the default
 * font, a site space's override to the site's setting.
 */
@Injectable()
export class CustomizationFonts {
  constructor(
    private readonly fonts: CustomFontsService,
    private readonly presenter: CustomFontsPresenter,
  ) {}

  /**
   * A customization (or a site space's overrides) about to be written, with the definition of
   * each custom font it names; 400 for a font the organization does not have. Only `id` and
   * `custom` are read: the rest of what was sent is replaced.
   */
  async written(organizationId: string, customization: Customization): Promise<Customization> {
    const named = namedFonts(customization);
    if (named.length === 0) return customization;
    const definitions = await this.definitions(
      organizationId,
      named.map(({ id }) => id),
    );
    const unknown = named.find(({ id }) => !definitions.has(id));
    if (unknown) {
      throw invalidInput(
        `styling.${unknown.setting}: the organization has no custom font ${JSON.stringify(unknown.id)}.`,
      );
    }
    return withFonts(customization, definitions);
  }

  /**
   * The site as its customizations are now: each custom font named by its customization or a
   * site space's overrides as the font now is, or left out when it is gone. The same site when
   * they name none (no query). In a transaction, read with its `manager` (the embedded database
   * has one connection: a read outside it would wait for it forever).
   */
  async current(site: Site, manager?: EntityManager): Promise<Site> {
    const overrides = Object.values(site.siteSpaceCustomizations ?? {});
    const ids = [site.customization, ...overrides].flatMap((customization) =>
      namedFonts(customization).map(({ id }) => id),
    );
    if (ids.length === 0) return site;
    const definitions = await this.definitions(site.organizationId, ids, manager);
    return Object.assign(Object.create(Object.getPrototypeOf(site) as object) as Site, site, {
      customization: withFonts(site.customization, definitions),
      siteSpaceCustomizations: Object.fromEntries(
        Object.entries(site.siteSpaceCustomizations).map(([siteSpaceId, override]) => [
          siteSpaceId,
          withFonts(override, definitions),
        ]),
      ),
    });
  }

  private async definitions(
    organizationId: string,
    ids: string[],
    manager?: EntityManager,
  ): Promise<Map<string, CustomFontDefinition>> {
    const fonts = await this.fonts.byId(organizationId, ids, manager);
    return new Map([...fonts].map(([id, font]) => [id, this.presenter.definition(font)]));
  }
}
