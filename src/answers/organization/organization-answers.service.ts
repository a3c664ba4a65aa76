import { Injectable } from '@nestjs/common';
import type { Organization } from '../../orgs/entities/organization.entity';
import type { ContentViewer } from '../../platform/policy/content-access/granted-content';
import type { Role } from '../../platform/policy/roles';
import { SearchService } from '../../spaces/search/search.service';
import { AnswerWriter, assertOrganizationAiOn, SOURCE_PAGES } from '../answer-writer';
import type { AnswerFormat } from '../dto/ask-in-site.dto';
import type {
  SearchAIAnswerResponse,
  SearchAIAnswerStreamResponse,
  SearchAIRecommendedQuestionStreamResponse,
} from '../dto/search-ai-answer.response';
import { fusePages, RETRIEVED_PAGES, tellingWords } from '../retrieval';
import { AnswerLimits } from '../usage/answer-limits.service';
import { ReadableSpacesRepository } from './readable-spaces.repository';

/** A member asking: its organization, the user and its organization role (null: a guest). */
export interface OrganizationAsker {
  organization: Organization;
  userId: string;
  role: Role | null;
}

/** Spaces whose page titles recommended questions are chosen from. */
const RECOMMENDATION_SPACES = 20;

/**
 * Answers from an organization's content (GitBook's `askInOrganization`, its streamed form and
 * its recommended questions): the spaces the member may read, searched as
 * searchOrganizationContent searches them (their primary content: no change request's draft),
 * the answer written by AnswerWriter as the site's ask writes it.
 */
@Injectable()
export class OrganizationAnswersService {
  constructor(
    private readonly spaces: ReadableSpacesRepository,
    private readonly search: SearchService,
    private readonly writer: AnswerWriter,
    private readonly limits: AnswerLimits,
  ) {}

  /**
   * The events of an answer to `question` (AnswerWriter.answer); AI on and the member's limit
   * are checked before anything is answered.
   */
  async ask(
    asker: OrganizationAsker,
    question: string,
    format: AnswerFormat,
    signal: AbortSignal,
  ): Promise<AsyncIterable<SearchAIAnswerStreamResponse>> {
    const { organization } = asker;
    assertOrganizationAiOn(organization);
    await this.limits.admitOrganizationAsk(organization.id, asker.userId);
    const spaces = await this.spaces.list(viewerOf(asker));
    const spaceIds = spaces.map((space) => space.id);
    const results = await this.search.retrieve(
      organization.id,
      spaceIds,
      question,
      tellingWords(question),
      RETRIEVED_PAGES,
    );
    const revisions = new Map(spaces.map((space) => [space.id, space.revisionId]));
    const pages = await this.writer.readPages(
      fusePages(results, SOURCE_PAGES),
      revisions,
      undefined,
    );
    return this.writer.answer({
      organization,
      title: organization.title,
      pages,
      question,
      format,
      feature: 'organization-ask',
      signal,
    });
  }

  /** The answer of `ask` once whole: its last event's (the model failing: a 503). */
  async askWhole(
    asker: OrganizationAsker,
    question: string,
    format: AnswerFormat,
    signal: AbortSignal,
  ): Promise<{ answer?: SearchAIAnswerResponse }> {
    let last: SearchAIAnswerStreamResponse | undefined;
    for await (const event of await this.ask(asker, question, format, signal)) {
      last = event;
    }
    return last ? { answer: last.answer } : {};
  }

  /** The questions of `recommendedQuestions`, all of them. */
  async recommendedQuestionList(
    asker: OrganizationAsker,
    signal: AbortSignal,
  ): Promise<{ questions: string[] }> {
    const questions: string[] = [];
    for await (const event of await this.recommendedQuestions(asker, signal)) {
      questions.push(event.question);
    }
    return { questions };
  }

  /**
   * Questions the member may ask, from the titles of the pages of the spaces it may read (the
   * first RECOMMENDATION_SPACES by title), each as soon as the model has written it.
   */
  async recommendedQuestions(
    asker: OrganizationAsker,
    signal: AbortSignal,
  ): Promise<AsyncIterable<SearchAIRecommendedQuestionStreamResponse>> {
    const { organization } = asker;
    assertOrganizationAiOn(organization);
    const spaces = await this.spaces.list(viewerOf(asker));
    const titles: string[] = [];
    for (const space of spaces.slice(0, RECOMMENDATION_SPACES)) {
      titles.push(...(await this.writer.pageTitles(space.id, space.revisionId)));
    }
    const useModel = await this.limits.suggestForMember(organization.id, asker.userId);
    return this.writer.questions({
      organization,
      title: organization.title,
      titles,
      useModel,
      signal,
    });
  }
}

function viewerOf(asker: OrganizationAsker): ContentViewer {
  return { organizationId: asker.organization.id, userId: asker.userId, role: asker.role };
}
