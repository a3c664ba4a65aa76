import { Injectable } from '@nestjs/common';
import type { Actor } from '../../platform/auth/actor';
import type { Page } from '../../platform/pagination/page';
import type { ScoredSearchSpaceResultResponse } from '../../spaces/search/dto/search-content.dto';
import { SearchService } from '../../spaces/search/search.service';
import type { VisitorClaims } from '../../platform/conditions/evaluate';
import type { Site } from '../entities/site.entity';
import { visibleStructure } from '../published/visible-structure';
import { SiteStructureService } from '../structure/site-structure.service';
import type { StructureView } from '../structure/site-structure.store';
import { StructureModel } from '../structure/structure-model';
import type {
  SearchSiteContentDto,
  SearchSiteContentQueryDto,
} from './dto/search-site-content.dto';
import { scopeOfBody, siteSpacesInScope } from './site-search-scope';

/** A page of results, and the spaces searched (the answer's cache tags). */
export interface SiteSearchResult {
  page: Page<ScoredSearchSpaceResultResponse>;
  spaceIds: string[];
}

/**
 * Search over a site's spaces (`searchSiteContent`): the scope picks site spaces from the site
 * as the caller sees it, and their spaces are searched in one go. Members with a role see every
 * site space whose space is not in the trash; a site reader only those its visitor's claims
 * open (as its published profile shows them) and its token lists.
 */
@Injectable()
export class SiteSearchService {
  constructor(
    private readonly structure: SiteStructureService,
    private readonly contentSearch: SearchService,
  ) {}

  async searchSite(
    site: Site,
    caller: Actor,
    body: SearchSiteContentDto,
    query: SearchSiteContentQueryDto,
  ): Promise<SiteSearchResult> {
    const scope = scopeOfBody(body);
    const view = await this.view(site, caller);
    const siteSpaces = siteSpacesInScope(
      view.model,
      scope,
      (spaceId) => view.spaces.get(spaceId)?.space.language ?? null,
    );
    const spaceIds = [...new Set(siteSpaces.map((siteSpace) => siteSpace.spaceId))];
    const page = await this.contentSearch.searchSpaces(site.organizationId, spaceIds, {
      query: body.query,
      page: query.page,
      limit: query.limit,
    });
    return { page, spaceIds };
  }

  private view(site: Site, caller: Actor): Promise<StructureView> {
    if (caller.kind === 'siteReader') {
      const visitor = { claims: caller.claims } as VisitorClaims;
      return this.structure.publishedView(site, (model, live) =>
        visibleStructure(
          model,
          visitor,
          new Set([...live].filter((spaceId) => caller.spaceIds.has(spaceId))),
        ),
      );
    }
    return this.structure.publishedView(
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
