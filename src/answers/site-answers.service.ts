import { Injectable } from '@nestjs/common';
import type { Organization } from '../orgs/entities/organization.entity';
import type { Actor } from '../platform/auth/actor';
import { DomainError } from '../platform/errors/domain-error';
import {
  siteCustomization,
  siteSpaceCustomization,
} from '../sites/customization/customization.service';
import type { Site } from '../sites/entities/site.entity';
import { readerVisitor } from '../sites/published/site-reader-access';
import type { SearchSiteContentDto } from '../sites/search/dto/search-site-content.dto';
import { scopeOfBody, type SiteSearchScope } from '../sites/search/site-search-scope';
import { SiteSearchService } from '../sites/search/site-search.service';
import type { SiteTarget } from '../sites/site-access.policy';
import { AnswerWriter, assertOrganizationAiOn, SOURCE_PAGES } from './answer-writer';
import type {
  AnswerFormat,
  AskInSiteDto,
  RecommendedQuestionsQueryDto,
} from './dto/ask-in-site.dto';
import type {
  SearchAIAnswerStreamResponse,
  SearchAIRecommendedQuestionStreamResponse,
} from './dto/search-ai-answer.response';
import { fusePages, RETRIEVED_PAGES, tellingWords } from './retrieval';
import { AnswerLimits } from './usage/answer-limits.service';

export { NO_MODEL_ANSWER } from './answer-writer';

/**
 * Answers from a site's content (GitBook's `streamAskInSite` and
 * `streamRecommendedQuestionsInSite`): the site search finds what the caller may read (for a
 * site's token, only what its visitor sees), the model configured with AI_API_URL writes the
 * answer from those pages only (AnswerWriter). The controller has each ask recorded once its
 * stream ends (questions/ask-recorder.ts).
 */
@Injectable()
export class SiteAnswersService {
  constructor(
    private readonly search: SiteSearchService,
    private readonly writer: AnswerWriter,
    private readonly limits: AnswerLimits,
  ) {}

  /**
   * The events of an answer (AnswerWriter.answer). Checks (AI on, the limits, the scope) are
   * made before anything is answered.
   */
  async ask(
    target: SiteTarget,
    caller: Actor,
    body: AskInSiteDto,
    format: AnswerFormat,
    signal: AbortSignal,
  ): Promise<AsyncIterable<SearchAIAnswerStreamResponse>> {
    const { site, organization } = target;
    assertAiOn(organization, site, body.context?.siteSpaceId ?? body.scope.currentSiteSpace);
    const scope = scopeOfBody({ query: body.question, scope: body.scope } as SearchSiteContentDto);
    await this.limits.admitSiteAsk(site.id, caller, body.session?.visitorId);
    const runs = await this.search.retrieve(
      site,
      caller,
      scope,
      body.question,
      tellingWords(body.question),
      RETRIEVED_PAGES,
    );
    const visitor = caller.kind === 'siteReader' ? readerVisitor(caller) : undefined;
    const pages = await this.writer.readPages(
      fusePages(runs.results, SOURCE_PAGES),
      runs.revisions,
      visitor,
    );
    return this.writer.answer({
      organization,
      title: site.title,
      pages,
      question: body.question,
      goal: body.context?.goal,
      format,
      feature: 'site-ask',
      signal,
    });
  }

  /**
   * Questions a reader may ask of the site (of one site space with `siteSpaceId`): asked of
   * the model from the titles of the pages the caller sees, each event as soon as the model has
   * written it; without a model, from those titles in the site's order.
   */
  async recommendedQuestions(
    target: SiteTarget,
    caller: Actor,
    query: RecommendedQuestionsQueryDto,
    signal: AbortSignal,
  ): Promise<AsyncIterable<SearchAIRecommendedQuestionStreamResponse>> {
    const { site, organization } = target;
    const { siteSpaceId, spaceId } = query;
    assertAiOn(organization, site, siteSpaceId);
    // The deprecated spaceId: that space's site spaces, among all of them.
    const scope: SiteSearchScope =
      siteSpaceId !== undefined
        ? {
            mode: 'default',
            currentSiteSpace: siteSpaceId,
            restrictTo: 'currentSiteSpace',
            field: 'siteSpaceId',
          }
        : spaceId !== undefined
          ? { mode: 'all' }
          : { mode: 'default', field: 'siteSpaceId' };
    const titles = await this.visibleTitles(site, caller, scope, spaceId);
    const useModel = await this.limits.suggestForSite(site.id, caller);
    return this.writer.questions({ organization, title: site.title, titles, useModel, signal });
  }

  /**
   * The titles of the pages with content of the scope's spaces (`onlySpace` alone, when given
   * and in it) that the caller sees, in the site's order.
   */
  private async visibleTitles(
    site: Site,
    caller: Actor,
    scope: SiteSearchScope,
    onlySpace?: string,
  ): Promise<string[]> {
    const { spaceIds, hidden, revisions } = await this.search.scopedSpaces(site, caller, scope);
    const titles: string[] = [];
    for (const spaceId of spaceIds) {
      if (onlySpace !== undefined && spaceId !== onlySpace) continue;
      const revisionId = revisions.get(spaceId);
      if (!revisionId) continue;
      titles.push(
        ...(await this.writer.pageTitles(spaceId, revisionId, new Set(hidden?.get(spaceId)))),
      );
    }
    return titles;
  }
}

/**
 * AI answers are on when the organization's `ai` is and the site's `ai.mode` (as the site
 * space asked from shows it, when named) is `search` or `assistant`; otherwise 403, as an
 * operation the caller may not use on this site.
 */
export function assertAiOn(
  organization: Organization,
  site: Site,
  siteSpaceId: string | undefined,
) {
  assertOrganizationAiOn(organization);
  const customization =
    siteSpaceId === undefined ? siteCustomization(site) : siteSpaceCustomization(site, siteSpaceId);
  const mode = (customization.ai as { mode?: string } | undefined)?.mode;
  if (mode !== 'search' && mode !== 'assistant') {
    throw new DomainError(
      'forbidden',
      'AIAnswersOff',
      'AI answers are turned off for this site (its customization’s `ai.mode` is `none`).',
    );
  }
}
