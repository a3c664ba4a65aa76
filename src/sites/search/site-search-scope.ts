import { invalidInput } from '../../platform/errors/domain-error';
import type { SiteSpace } from '../structure/entities/site-space.entity';
import type { StructureModel } from '../structure/structure-model';
import { RESTRICT_TO, type SearchSiteContentDto } from './dto/search-site-content.dto';

/**
 * What a site search covers, from either form of the body: `field` names the part of the body
 * that names site spaces, for the 400 when one is not in the site.
 */
export type SiteSearchScope =
  | { mode: 'all' }
  | { mode: 'specific'; siteSpaceIds: string[]; field: string }
  | {
      mode: 'default';
      currentSiteSpace?: string;
      restrictTo?: (typeof RESTRICT_TO)[number];
      field: string;
    };

/**
 * The scope a valid body asks for. `scope` and the deprecated top-level form are GitBook's
 * alternatives (`oneOf`): a body with `scope` and also `mode` or `siteSpaceIds` matches two of
 * them, and one with neither matches none; both are 400. The deprecated `current` mode is the
 * default scope from `siteSpaceId`.
 */
export function scopeOfBody(body: SearchSiteContentDto): SiteSearchScope {
  const { scope } = body;
  if (scope) {
    if (body.mode !== undefined || body.siteSpaceIds !== undefined) {
      throw invalidInput('scope: give scope, or the deprecated mode and siteSpaceIds, not both.');
    }
    switch (scope.mode) {
      case 'all':
        return { mode: 'all' };
      case 'specific':
        return { mode: 'specific', siteSpaceIds: scope.siteSpaceIds!, field: 'scope.siteSpaceIds' };
      case 'default':
        if (scope.restrictTo !== undefined && scope.currentSiteSpace === undefined) {
          throw invalidInput('scope.restrictTo needs scope.currentSiteSpace.');
        }
        return {
          mode: 'default',
          currentSiteSpace: scope.currentSiteSpace,
          restrictTo: scope.restrictTo,
          field: 'scope.currentSiteSpace',
        };
    }
  }
  switch (body.mode) {
    case 'all':
      return { mode: 'all' };
    case 'current':
      return { mode: 'default', currentSiteSpace: body.siteSpaceId!, field: 'siteSpaceId' };
    default:
      if (body.siteSpaceIds !== undefined) {
        return { mode: 'specific', siteSpaceIds: body.siteSpaceIds, field: 'siteSpaceIds' };
      }
      throw invalidInput('scope is required (or the deprecated mode).');
  }
}

/**
 * The site spaces of `model` (the site as the caller sees it) that `scope` covers. A site space
 * the scope names that is not in `model` (unknown, of another site, or hidden from the caller)
 * is 400, the same for all three. `languageOf` gives the language of a site space's space.
 */
export function siteSpacesInScope(
  model: StructureModel,
  scope: SiteSearchScope,
  languageOf: (spaceId: string) => string | null,
): SiteSpace[] {
  const named = (id: string, field: string): SiteSpace => {
    const siteSpace = model.siteSpace(id);
    if (!siteSpace) throw invalidInput(`${field}: no site space ${id} in this site.`);
    return siteSpace;
  };
  switch (scope.mode) {
    case 'all':
      return model.siteSpaces;
    case 'specific':
      return scope.siteSpaceIds.map((id) => named(id, scope.field));
    case 'default': {
      const current =
        scope.currentSiteSpace === undefined ? null : named(scope.currentSiteSpace, scope.field);
      if (scope.restrictTo === 'currentSiteSpace') return [current!];
      const scoped = defaultScope(model, current, languageOf);
      return scope.restrictTo === 'otherSiteSpaces'
        ? scoped.filter((siteSpace) => siteSpace !== current)
        : scoped;
    }
  }
}

/**
 * GitBook's default scope, wide and shallow: one site space per section (the root's site spaces
 * on a site without sections), `current` for its own section, elsewhere the variant in the
 * language of `current`'s space when the default is not in it and another is, else the default.
 * `current` is always in it.
 */
function defaultScope(
  model: StructureModel,
  current: SiteSpace | null,
  languageOf: (spaceId: string) => string | null,
): SiteSpace[] {
  const language = current ? languageOf(current.spaceId) : null;
  const parents = model.hasSections() ? model.sections.map((section) => section.id) : [null];
  const scoped: SiteSpace[] = [];
  for (const sectionId of parents) {
    if (current && current.sectionId === sectionId) {
      scoped.push(current);
      continue;
    }
    const variants = model.siteSpacesOf(sectionId);
    const fallback = variants.find((variant) => variant.id === model.defaultSiteSpaceId(sectionId));
    const inLanguage =
      language === null || (fallback && languageOf(fallback.spaceId) === language)
        ? undefined
        : variants.find((variant) => languageOf(variant.spaceId) === language);
    const chosen = inLanguage ?? fallback;
    if (chosen) scoped.push(chosen);
  }
  if (current && !scoped.includes(current)) scoped.push(current);
  return scoped;
}
