import { Injectable } from '@nestjs/common';
import { excerpt, type HitMarking } from '../../content-engine/search/search-excerpt';
import { UrlBuilder } from '../../platform/urls/url-builder';
import type {
  SearchPageResultResponse,
  SearchSectionResultResponse,
} from './dto/search-content.dto';
import type { SearchQuery } from './search-query';
import type { SectionRow } from './search.repository';

/** The space a hit is in: for its links, and the language its excerpts fold in. */
export interface SpaceRef {
  id: string;
  organizationId: string;
  language: string | null;
}

/** Characters of a section's text shown in a hit (GitBook's renderer shows about three lines). */
export const EXCERPT_LENGTH = 300;
/** Context kept before the first hit of an excerpt, by marking. */
const CONTEXT_BEFORE: Record<HitMarking, number> = {
  // Members' clients read the marks.
  markdown: 60,
  // The site renderer highlights the query itself and, when it is not in the first 20
  // characters, cuts the text 10 before it: a hit near the start is shown as it is.
  none: 10,
};

/** Search results in GitBook's shapes, from the index's section rows. */
@Injectable()
export class SearchHits {
  constructor(private readonly urls: UrlBuilder) {}

  /** Matching sections grouped into page hits, in the order the rows first show each page. */
  pages(
    space: SpaceRef,
    rows: SectionRow[],
    q: SearchQuery,
    marking: HitMarking,
  ): SearchPageResultResponse[] {
    return this.group(
      rows,
      (row) => ({ ...this.pageHit(space, row), sections: [] }),
      (row) => this.section(space, row, q, marking),
    );
  }

  /** Rows grouped by page: `page` makes a page's hit from its first row, `section` each row's. */
  group<R extends SectionRow, P extends { sections?: S[] }, S>(
    rows: R[],
    page: (row: R) => P,
    section: (row: R) => S,
  ): P[] {
    const hits = new Map<string, P>();
    for (const row of rows) {
      let hit = hits.get(row.page_id);
      if (!hit) {
        hit = page(row);
        hits.set(row.page_id, hit);
      }
      (hit.sections ??= []).push(section(row));
    }
    return [...hits.values()];
  }

  pageHit(space: SpaceRef, row: SectionRow) {
    return {
      id: row.page_id,
      title: row.page_title,
      path: row.page_path,
      ancestors: row.ancestors,
      urls: { app: this.pageUrl(space, row.page_path) },
    };
  }

  /**
   * A section's hit: its `body` is the passage around its best hit (marked as `marking` says),
   * or its opening when only its title matched, or its title when it has no text.
   */
  section(
    space: SpaceRef,
    row: SectionRow,
    q: SearchQuery,
    marking: HitMarking,
  ): SearchSectionResultResponse {
    const body = excerpt(row.body, q.terms, q.corrections, {
      maxLength: EXCERPT_LENGTH,
      before: CONTEXT_BEFORE[marking],
      marking,
      language: space.language,
    });
    return this.sectionHit(space, row, body);
  }

  /** A section's hit for a search by meaning (no terms to show): its opening. */
  sectionOpening(space: SpaceRef, row: SectionRow): SearchSectionResultResponse {
    const body = excerpt(row.body, [], new Map(), {
      maxLength: EXCERPT_LENGTH,
      before: 0,
      marking: 'none',
      language: space.language,
    });
    return this.sectionHit(space, row, body);
  }

  private sectionHit(space: SpaceRef, row: SectionRow, body: string): SearchSectionResultResponse {
    const lead = row.section_id === '';
    const path = lead ? row.page_path : `${row.page_path}#${row.section_id}`;
    const pageUrl = this.pageUrl(space, row.page_path);
    return {
      id: lead ? row.page_id : row.section_id,
      title: row.section_title,
      path,
      body: body || row.section_title,
      urls: { app: lead ? pageUrl : `${pageUrl}#${encodeURIComponent(row.section_id)}` },
    };
  }

  private pageUrl(space: SpaceRef, path: string): string {
    return this.urls.app('o', space.organizationId, 's', space.id, ...path.split('/'));
  }
}
