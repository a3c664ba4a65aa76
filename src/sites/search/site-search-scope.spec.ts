import type { Site } from '../entities/site.entity';
import type { SiteSection } from '../structure/entities/site-section.entity';
import type { SiteSpace } from '../structure/entities/site-space.entity';
import { StructureModel } from '../structure/structure-model';
import type { SearchSiteContentDto } from './dto/search-site-content.dto';
import { scopeOfBody, siteSpacesInScope, type SiteSearchScope } from './site-search-scope';

const at = new Date('2024-01-01T00:00:00Z');

function siteSpace(id: string, sectionId: string | null, position: number): SiteSpace {
  return {
    id,
    siteId: 'site',
    sectionId,
    spaceId: `space-${id}`,
    path: id,
    condition: null,
    position,
    createdAt: at,
  } as SiteSpace;
}

function section(id: string, defaultSiteSpaceId: string | null, position: number): SiteSection {
  return {
    id,
    siteId: 'site',
    sectionGroupId: null,
    title: id,
    path: id,
    description: null,
    icon: null,
    condition: null,
    defaultSiteSpaceId,
    position,
    createdAt: at,
  } as SiteSection;
}

const site = (defaultSiteSpaceId: string | null = null) =>
  ({ id: 'site', defaultSiteSpaceId, defaultSiteSectionId: null }) as Site;

/** Two sections, each with an English default and a French variant; guides' default is `en`. */
const sections = new StructureModel(
  site(),
  [],
  [section('guides', 'guides-en', 0), section('api', 'api-en', 1)],
  [
    siteSpace('guides-en', 'guides', 0),
    siteSpace('guides-fr', 'guides', 1),
    siteSpace('api-en', 'api', 0),
    siteSpace('api-fr', 'api', 1),
  ],
);
const LANGUAGES: Record<string, string | null> = {
  'space-guides-en': 'en',
  'space-guides-fr': 'fr',
  'space-api-en': 'en',
  'space-api-fr': 'fr',
};
const languageOf = (spaceId: string) => LANGUAGES[spaceId] ?? null;

/** No sections: two site spaces at the root, `one` the default. */
const flat = new StructureModel(
  site('one'),
  [],
  [],
  [siteSpace('one', null, 0), siteSpace('two', null, 1)],
);

const ids = (model: StructureModel, scope: SiteSearchScope) =>
  siteSpacesInScope(model, scope, languageOf)
    .map((s) => s.id)
    .sort();

const body = (fields: Partial<SearchSiteContentDto>) =>
  ({ query: 'x', ...fields }) as SearchSiteContentDto;

describe('scopeOfBody', () => {
  it('reads the deprecated forms', () => {
    expect(scopeOfBody(body({ mode: 'all' }))).toEqual({ mode: 'all' });
    expect(scopeOfBody(body({ mode: 'current', siteSpaceId: 'a' }))).toEqual({
      mode: 'default',
      currentSiteSpace: 'a',
      field: 'siteSpaceId',
    });
    for (const mode of ['specific', undefined] as const) {
      expect(scopeOfBody(body({ mode, siteSpaceIds: ['a'] }))).toEqual({
        mode: 'specific',
        siteSpaceIds: ['a'],
        field: 'siteSpaceIds',
      });
    }
  });

  it('reads scope', () => {
    expect(scopeOfBody(body({ scope: { mode: 'all' } }))).toEqual({ mode: 'all' });
    expect(scopeOfBody(body({ scope: { mode: 'specific', siteSpaceIds: ['a'] } }))).toEqual({
      mode: 'specific',
      siteSpaceIds: ['a'],
      field: 'scope.siteSpaceIds',
    });
    expect(
      scopeOfBody(
        body({
          scope: { mode: 'default', currentSiteSpace: 'a', restrictTo: 'otherSiteSpaces' },
          // Not one of the deprecated form's fields that would make the body match two forms.
          siteSpaceId: 'b',
        }),
      ),
    ).toEqual({
      mode: 'default',
      currentSiteSpace: 'a',
      restrictTo: 'otherSiteSpaces',
      field: 'scope.currentSiteSpace',
    });
  });

  it('refuses a body with no scope, two scopes, or restrictTo without currentSiteSpace', () => {
    expect(() => scopeOfBody(body({}))).toThrow('scope is required');
    expect(() => scopeOfBody(body({ scope: { mode: 'all' }, mode: 'all' }))).toThrow('not both');
    expect(() => scopeOfBody(body({ scope: { mode: 'all' }, siteSpaceIds: ['a'] }))).toThrow(
      'not both',
    );
    expect(() =>
      scopeOfBody(body({ scope: { mode: 'default', restrictTo: 'currentSiteSpace' } })),
    ).toThrow('scope.restrictTo needs scope.currentSiteSpace');
  });
});

describe('siteSpacesInScope', () => {
  const specific = (siteSpaceIds: string[]): SiteSearchScope => ({
    mode: 'specific',
    siteSpaceIds,
    field: 'siteSpaceIds',
  });
  const byDefault = (
    currentSiteSpace?: string,
    restrictTo?: 'currentSiteSpace' | 'otherSiteSpaces',
  ): SiteSearchScope => ({ mode: 'default', currentSiteSpace, restrictTo, field: 'current' });

  it('all: every site space; specific: those named', () => {
    expect(ids(sections, { mode: 'all' })).toEqual(['api-en', 'api-fr', 'guides-en', 'guides-fr']);
    expect(ids(sections, specific(['api-fr', 'guides-en']))).toEqual(['api-fr', 'guides-en']);
  });

  it('default: each section’s default, the current variant in its section, the same language elsewhere', () => {
    expect(ids(sections, byDefault())).toEqual(['api-en', 'guides-en']);
    expect(ids(sections, byDefault('guides-en'))).toEqual(['api-en', 'guides-en']);
    expect(ids(sections, byDefault('guides-fr'))).toEqual(['api-fr', 'guides-fr']);
    expect(ids(sections, byDefault('guides-fr', 'currentSiteSpace'))).toEqual(['guides-fr']);
    expect(ids(sections, byDefault('guides-fr', 'otherSiteSpaces'))).toEqual(['api-fr']);
  });

  it('default without sections: the current site space alone, or the root default', () => {
    expect(ids(flat, byDefault('two'))).toEqual(['two']);
    expect(ids(flat, byDefault('two', 'otherSiteSpaces'))).toEqual([]);
    expect(ids(flat, byDefault())).toEqual(['one']);
  });

  it('refuses a site space that is not in the model, naming the field', () => {
    expect(() => ids(sections, specific(['api-en', 'nope']))).toThrow(
      'siteSpaceIds: no site space nope in this site.',
    );
    expect(() => ids(flat, byDefault('api-en'))).toThrow('current: no site space api-en');
  });
});
