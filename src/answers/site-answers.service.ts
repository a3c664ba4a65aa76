import { Injectable, Logger } from '@nestjs/common';
import { markdownToDocument } from '../content-engine/documents/markdown';
import { ContentReader, type PageTree } from '../content-engine/reads/content-reader';
import type { Organization } from '../orgs/entities/organization.entity';
import { AgentInstructionsService } from '../orgs/agent-instructions/agent-instructions.service';
import { ChatCompletions } from '../platform/ai/chat-completions';
import type { Actor } from '../platform/auth/actor';
import type { VisitorClaims } from '../platform/conditions/evaluate';
import { DomainError } from '../platform/errors/domain-error';
import { documentToMarkdown } from '../content-engine/documents/markdown';
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
import {
  answerMessages,
  questionOfLine,
  questionsFromTitles,
  recommendedQuestionMessages,
  splitAnswer,
} from './answer-prompt';
import type {
  AnswerFormat,
  AskInSiteDto,
  RecommendedQuestionsQueryDto,
} from './dto/ask-in-site.dto';
import type {
  SearchAIAnswerResponse,
  SearchAIAnswerSourcePageResponse,
  SearchAIAnswerStreamResponse,
  SearchAIRecommendedQuestionStreamResponse,
} from './dto/search-ai-answer.response';
import { fusePages, type RetrievedPage, searchesFor } from './retrieval';

/** Pages whose text goes to the model. */
const SOURCE_PAGES = 5;
/** Spaces each search answers (each with its best pages). */
const SEARCH_SPACES = 10;
/** Characters of a page's text given to the model. */
const PAGE_CHARS = 6000;
/** Recommended questions answered. */
const RECOMMENDED_QUESTIONS = 5;
/** Page titles the model chooses recommended questions from. */
const RECOMMENDATION_TITLES = 80;
/** A JSON-document answer is converted again at most this often while it streams. */
const DOCUMENT_EVERY_MS = 100;

export const NO_MODEL_ANSWER =
  'No model is configured to write answers on this server (AI_API_URL and AI_MODEL), so here ' +
  'are the pages that match the question.';

/**
 * Answers from a site's content (GitBook's `streamAskInSite` and
 * `streamRecommendedQuestionsInSite`): the site search finds what the caller may read (for a
 * site's token, only what its visitor sees), the model configured with AI_API_URL writes the
 * answer from those pages only. Nothing is stored.
 */
@Injectable()
export class SiteAnswersService {
  private readonly logger = new Logger('SiteAnswers');

  constructor(
    private readonly search: SiteSearchService,
    private readonly reader: ContentReader,
    private readonly chat: ChatCompletions,
    private readonly instructions: AgentInstructionsService,
  ) {}

  /**
   * The events of an answer: first the sources with no answer yet, then the answer as far as
   * the model has written it, each time it writes more, the last with its follow-up questions.
   * Checks (AI on, the scope) are made before anything is answered; a model that fails fails
   * the iteration, after the first event.
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
    const runs = await this.search.searchEach(
      site,
      caller,
      scope,
      searchesFor(body.question),
      SEARCH_SPACES,
    );
    const visitor = caller.kind === 'siteReader' ? readerVisitor(caller) : undefined;
    const pages = await this.readPages(
      fusePages(runs.results, SOURCE_PAGES),
      runs.revisions,
      visitor,
    );
    const sources: SearchAIAnswerSourcePageResponse[] = pages.map(({ page, revisionId }) => ({
      type: 'page',
      page: page.pageId,
      revision: revisionId,
      space: page.spaceId,
      sections: page.sections.map((section) => section.id),
    }));
    const event = async (
      markdown: string | undefined,
      followupQuestions: string[],
    ): Promise<SearchAIAnswerStreamResponse> => {
      const answer: SearchAIAnswerResponse = { followupQuestions, sources };
      if (markdown !== undefined && markdown !== '') {
        answer.answer =
          format === 'markdown' ? { markdown } : { document: await markdownToDocument(markdown) };
      } else {
        answer.answer = {};
      }
      return { type: 'answer', answer };
    };
    if (!this.chat.configured) {
      return (async function* () {
        yield await event(NO_MODEL_ANSWER, []);
      })();
    }
    const messages = answerMessages({
      siteTitle: site.title,
      instructions: await this.instructionsOf(organization),
      sources: pages.map(({ page, text }) => ({
        title: page.title,
        location: [page.spaceTitle, ...page.ancestors],
        text,
      })),
      question: body.question,
      goal: body.context?.goal,
    });
    const chat = this.chat;
    const logger = this.logger;
    return (async function* () {
      yield await event(undefined, []);
      let text = '';
      let sent = '';
      let sentAt = 0;
      try {
        for await (const piece of chat.stream(messages, { signal })) {
          text += piece;
          const { markdown } = splitAnswer(text, false);
          if (markdown === sent) continue;
          // A document is parsed anew each time: while it streams, not for every token.
          if (format === 'document' && Date.now() - sentAt < DOCUMENT_EVERY_MS) continue;
          sent = markdown;
          sentAt = Date.now();
          yield await event(markdown, []);
        }
      } catch (error) {
        if (signal.aborted) return;
        logger.warn({ err: error }, 'The model failed to answer a question');
        throw new DomainError(
          'unavailable',
          'AnswerModelFailed',
          `The model could not answer: ${(error as Error).message}`,
        );
      }
      const final = splitAnswer(text, true);
      yield await event(final.markdown, final.followupQuestions);
    })();
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
    if (!this.chat.configured || titles.length === 0) {
      const questions = questionsFromTitles(titles, RECOMMENDED_QUESTIONS);
      return (async function* () {
        for (const question of questions) yield { question };
      })();
    }
    const messages = recommendedQuestionMessages({
      siteTitle: site.title,
      instructions: await this.instructionsOf(organization),
      titles: titles.slice(0, RECOMMENDATION_TITLES),
      count: RECOMMENDED_QUESTIONS,
    });
    const chat = this.chat;
    const logger = this.logger;
    return (async function* () {
      let pending = '';
      let count = 0;
      try {
        for await (const piece of chat.stream(messages, { signal, temperature: 0.3 })) {
          pending += piece;
          const lines = pending.split(/\r\n|\r|\n/);
          pending = lines.pop()!;
          for (const line of lines) {
            const question = questionOfLine(line);
            if (question === undefined || count >= RECOMMENDED_QUESTIONS) continue;
            count++;
            yield { question };
          }
        }
      } catch (error) {
        if (signal.aborted) return;
        logger.warn({ err: error }, 'The model failed to recommend questions');
        throw new DomainError(
          'unavailable',
          'AnswerModelFailed',
          `The model could not suggest questions: ${(error as Error).message}`,
        );
      }
      const last = questionOfLine(pending);
      if (last !== undefined && count < RECOMMENDED_QUESTIONS) yield { question: last };
    })();
  }

  /**
   * The text of each page found, as its reader may read it (a site reader's visitor: without
   * what it does not see), cut to PAGE_CHARS; a page the visitor does not see is left out, and
   * a page that cannot be read as text is given as the passages the search found.
   */
  private async readPages(
    found: RetrievedPage[],
    revisions: Map<string, string>,
    visitor: VisitorClaims | undefined,
  ): Promise<{ page: RetrievedPage; revisionId: string; text: string }[]> {
    const read = await Promise.all(
      found.map(async (page) => {
        const revisionId = revisions.get(page.spaceId);
        if (!revisionId) return null;
        const revision = await this.reader.readRevision(page.spaceId, revisionId);
        if (!(await this.reader.hasPage(revision, page.pageId, visitor))) return null;
        const passages = page.sections
          .map((section) => `${section.title}\n${section.body}`)
          .join('\n\n');
        let text = passages;
        try {
          const { body } = await this.reader.getPage(revision, page.pageId, 'markdown', {
            visitor,
          });
          if ('markdown' in body && body.markdown.trim() !== '') text = body.markdown;
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
        }
        return { page, revisionId, text: cut(text, PAGE_CHARS) };
      }),
    );
    return read.filter((entry) => entry !== null);
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
      const revision = await this.reader.readRevision(spaceId, revisionId);
      const unseen = new Set(hidden?.get(spaceId) ?? []);
      const visit = (trees: PageTree[]) => {
        for (const tree of trees) {
          if (unseen.has(tree.node.id)) continue;
          // An empty page (a new space's first) answers no question.
          if (tree.node.type === 'document' && tree.node.document && tree.node.meta.title) {
            titles.push(tree.node.meta.title);
          }
          visit(tree.pages);
        }
      };
      visit(await this.reader.listPages(revision));
    }
    return titles;
  }

  /** The organization's agent instructions, as Markdown ('' when it has none). */
  private async instructionsOf(organization: Organization): Promise<string> {
    const { instructions } = await this.instructions.get(organization);
    return instructions.nodes.length === 0 ? '' : documentToMarkdown(instructions);
  }
}

/**
 * AI answers are on when the organization's `ai` is and the site's `ai.mode` (as the site
 * space asked from shows it, when named) is `search` or `assistant`; otherwise 403, as an
 * operation the caller may not use on this site.
 */
function assertAiOn(organization: Organization, site: Site, siteSpaceId: string | undefined) {
  if (!organization.ai) {
    throw new DomainError(
      'forbidden',
      'AIAnswersOff',
      'AI answers are turned off for this organization (its `ai` setting is false).',
    );
  }
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

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
