import type { DocumentSection } from './document-sections';
import type { IndexedPage } from './index-diff';
import { indexText } from './search-terms';

/** Longest body stored per section; a section longer than this is searchable by its start only. */
export const MAX_BODY = 100_000;

/**
 * Sections of whole pages, column by column (the same index in every array is one section):
 * what `SearchIndexRepository.insertPages` writes. A page's sections are all in one batch.
 */
export interface SectionColumns {
  pageIds: string[];
  sectionIds: string[];
  documentHashes: (string | null)[];
  pageTitles: string[];
  /** The page title on its lead section, '' on the others, analysed (`indexText`). */
  leadTerms: string[];
  paths: string[];
  sectionTitles: string[];
  /** The section titles, analysed. */
  titleTerms: string[];
  bodies: string[];
  /** The bodies, analysed. */
  bodyTerms: string[];
  /** Each section's page's ancestors, as JSON. */
  ancestors: string[];
  positions: number[];
}

export function emptyColumns(): SectionColumns {
  return {
    pageIds: [],
    sectionIds: [],
    documentHashes: [],
    pageTitles: [],
    leadTerms: [],
    paths: [],
    sectionTitles: [],
    titleTerms: [],
    bodies: [],
    bodyTerms: [],
    ancestors: [],
    positions: [],
  };
}

/** Appends `page`'s sections to `columns`, their text analysed for `language`. */
export function addPageSections(
  columns: SectionColumns,
  page: Pick<IndexedPage, 'id' | 'title' | 'path' | 'documentHash' | 'ancestors'>,
  sections: DocumentSection[],
  language: string | null,
): void {
  const ancestors = JSON.stringify(page.ancestors);
  for (const [position, section] of sections.entries()) {
    const title = section.title || page.title;
    const body = section.body.slice(0, MAX_BODY);
    columns.pageIds.push(page.id);
    columns.sectionIds.push(section.id);
    columns.documentHashes.push(page.documentHash);
    columns.pageTitles.push(page.title);
    // The page title counts for the lead section only, so a title match is one hit.
    columns.leadTerms.push(position === 0 ? indexText(page.title, language) : '');
    columns.paths.push(page.path);
    columns.sectionTitles.push(title);
    columns.titleTerms.push(indexText(title, language));
    columns.bodies.push(body);
    columns.bodyTerms.push(indexText(body, language));
    columns.ancestors.push(ancestors);
    columns.positions.push(position);
  }
}
