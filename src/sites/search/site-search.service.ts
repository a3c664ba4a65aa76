import { Injectable } from '@nestjs/common';
import { ContentReader } from '../../content-engine/reads/content-reader';
import type { Actor } from '../../platform/auth/actor';
import type { Page } from '../../platform/pagination/page';
import type { ScoredSearchSpaceResultResponse } from '../../spaces/search/dto/search-content.dto';
import { SearchService, type SearchRuns } from '../../spaces/search/search.service';
import type { VisitorClaims } from '../../platform/conditions/evaluate';
import type { Site } from '../entities/site.entity';
import { readerVisitor } from '../published/site-reader-access';
import { visibleStructure } from '../published/visible-structure';
import { SiteStructureService } from '../structure/site-structure.service';
import type { StructureSpaces } from '../structure/site-structure.store';
import { StructureModel } from '../structure/structure-model';
import type {
  SearchSiteContentDto,
  SearchSiteContentQueryDto,
} from './dto/search-site-content.dto';
import { scopeOfBody, type SiteSearchScope, siteSpacesInScope } from './site-search-scope';

/** A page of results, and the spaces searched (the answer's cache tags). */
export interface SiteSearchResult {
  page: Page<ScoredSearchSpaceResultResponse>;
  spaceIds: string[];
}

/** The spaces a site search covers for a caller: scopedSpaces' answer. */
export interface ScopedSpaces {
  spaceIds: string[];
  /** Space id → the pages of its primary content hidden from a site reader's visitor. */
  hidden: Map<string, string[]> | undefined;
  /** Space id → the id of its primary revision. */
  revisions: Map<string, string>;
}

/** retrieve's answer: the lists of pages found, and the revision of each space searched. */
export interface SiteSearchRuns {
  results: SearchRuns;
  /** Space id → the id of the primary revision searched (its index follows the primary). */
  revisions: Map<string, string>;
}

/**
 * Search over a site's spaces (`searchSiteContent`): the scope picks site spaces from the site
 * as the caller sees it, and their spaces are searched in one go. Members with a role see every
 * site space whose space is not in the trash; a site reader only those its visitor's claims
 * open (as its published profile shows them) and its token lists, and in them only the pages
 * its visitor sees (as its page reads show them).
 */
@Injectable()
export class SiteSearchService {
  constructor(
    private readonly structure: SiteStructureService,
    private readonly contentSearch: SearchService,
    private readonly reader: ContentReader,
  ) {}

  async searchSite(
    site: Site,
    caller: Actor,
    body: SearchSiteContentDto,
    query: SearchSiteContentQueryDto,
  ): Promise<SiteSearchResult> {
    const { spaceIds, hidden } = await this.scopedSpaces(site, caller, scopeOfBody(body));
    const page = await this.contentSearch.searchSpaces(
      site.organizationId,
      spaceIds,
      { query: body.query, page: query.page, limit: query.limit },
      hidden,
    );
    return { page, spaceIds };
  }

  /**
   * What an answer draws from (SearchService.retrieve: the pages matching the question's
   * telling `words`, and those nearest in meaning to `question`) over the site spaces `scope`
   * covers, as searchSite searches for the same caller (the same spaces, the same pages hidden
   * from a site reader's visitor), `limit` pages; and the primary revision of each space
   * searched.
   */
  async retrieve(
    site: Site,
    caller: Actor,
    scope: SiteSearchScope,
    question: string,
    words: string[],
    limit: number,
  ): Promise<SiteSearchRuns> {
    const { spaceIds, hidden, revisions } = await this.scopedSpaces(site, caller, scope);
    const results = await this.contentSearch.retrieve(
      site.organizationId,
      spaceIds,
      question,
      words,
      limit,
      hidden,
    );
    return { results, revisions };
  }

  /**
   * The spaces `scope` covers for `caller` (as searchSite searches them), the primary revision
   * of each, and the pages of them that a site reader's visitor does not see (none for members).
   */
  async scopedSpaces(site: Site, caller: Actor, scope: SiteSearchScope): Promise<ScopedSpaces> {
    const view = await this.view(site, caller);
    const siteSpaces = siteSpacesInScope(
      view.model,
      scope,
      (spaceId) => view.spaces.get(spaceId)?.space.language ?? null,
    );
    const spaceIds = [...new Set(siteSpaces.map((siteSpace) => siteSpace.spaceId))];
    const hidden =
      caller.kind === 'siteReader'
        ? await this.hiddenPages(view, spaceIds, readerVisitor(caller))
        : undefined;
    const revisions = new Map<string, string>();
    for (const spaceId of spaceIds) {
      const space = view.spaces.get(spaceId)?.space;
      if (space) revisions.set(spaceId, space.revisionId);
    }
    return { spaceIds, hidden, revisions };
  }

  /** The pages of the primary content of `spaceIds` that `visitor` does not see, by space. */
  private async hiddenPages(
    view: StructureSpaces,
    spaceIds: string[],
    visitor: VisitorClaims,
  ): Promise<Map<string, string[]>> {
    const hidden = new Map<string, string[]>();
    await Promise.all(
      spaceIds.map(async (spaceId) => {
        const space = view.spaces.get(spaceId)?.space;
        if (!space) return;
        const read = await this.reader.readRevision(spaceId, space.revisionId);
        hidden.set(spaceId, await this.reader.hiddenPageIds(read, visitor));
      }),
    );
    return hidden;
  }

  private view(site: Site, caller: Actor): Promise<StructureSpaces> {
    if (caller.kind === 'siteReader') {
      const visitor = readerVisitor(caller);
      return this.structure.publishedSpaces(site, (model, live) =>
        visibleStructure(
          model,
          visitor,
          new Set([...live].filter((spaceId) => caller.spaceIds.has(spaceId))),
        ),
      );
    }
    return this.structure.publishedSpaces(
      site,
      (model, live) =>
        new StructureModel(
          model.site,
          model.groups,
          model.sections,
          model.siteSpaces.filter((siteSpace) => live.has(siteSpace.spaceId)),
        ),
    );
  }
}
