import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '../../platform/config/app-config';
import { Clock } from '../../platform/clock/clock';
import { SiteInsightsService } from '../../sites/insights/site-insights.service';
import { notFound } from '../../platform/errors/domain-error';
import type { Page } from '../../platform/pagination/page';
import { pageOfList } from '../../platform/pagination/slice';
import type { SubmitAgentFeedbackDto, SubmitSiteAgentFeedbackDto } from './dto/agent-feedback.dto';
import type { QuestionSort } from './dto/site-question-queries.dto';
import type { SiteAgentFeedback } from './entities/site-agent-feedback.entity';
import type { SiteQuestionAnswer } from './entities/site-question-answer.entity';
import {
  type AnswerCounts,
  type AnswerFilter,
  type AskRecord,
  emptyCounts,
  type QuestionWithCounts,
  SiteQuestionsRepository,
} from './site-questions.repository';

const DAY_MS = 24 * 60 * 60 * 1000;

/** A page answers drew on, with its share of their sources. */
export interface SourceShare {
  space: string;
  page: string;
  revision: string;
  title: string;
  weight: number;
}

type PageQuery = { page?: string; limit?: number };

/**
 * What visitors asked a site's AI answers (GitBook's site questions): each ask recorded with its
 * answer, sources and feedback, read back as questions, answers and their counts, kept
 * AI_QUESTIONS_RETENTION_DAYS; and the feedback agents give a site.
 */
@Injectable()
export class SiteQuestionsService {
  constructor(
    private readonly repository: SiteQuestionsRepository,
    private readonly clock: Clock,
    @Inject(AppConfig) private readonly config: AppConfig,
    insights: SiteInsightsService,
  ) {
    // The renderer's thumbs up and down under an answer rate it (`ask_rate_response`).
    insights.onAnswerRated((manager, siteId, ratings) =>
      this.repository.rateAnswers(manager, siteId, ratings, this.clock.now()),
    );
  }

  /** Records an ask: its question (new, or asked again) and this answer. */
  record(ask: AskRecord): Promise<void> {
    return this.repository.insertAsk(ask, this.clock.now());
  }

  /** The site's questions with at least one answer the filter counts, each with its counts. */
  listQuestions(
    siteId: string,
    filter: AnswerFilter,
    query: PageQuery & { order?: 'asc' | 'desc'; sort?: QuestionSort },
  ): Promise<Page<QuestionWithCounts>> {
    return this.repository.listQuestions(siteId, filter, query, this.clock.now());
  }

  /** A question of the site (404 `Site question` otherwise), with the counts of its answers. */
  async getQuestion(siteId: string, id: string, filter: AnswerFilter): Promise<QuestionWithCounts> {
    const question = await this.question(siteId, id);
    const counts = await this.repository.countsByQuestion(siteId, filter, [id], this.clock.now());
    return { question, counts: counts.get(id) ?? emptyCounts() };
  }

  /** The counts of the site's answers the filter counts. */
  stats(siteId: string, filter: AnswerFilter): Promise<AnswerCounts> {
    return this.repository.stats(siteId, filter, this.clock.now());
  }

  /** The pages a question's answers drew on, by their share of those answers' sources. */
  async questionSources(
    siteId: string,
    id: string,
    filter: AnswerFilter,
    query: PageQuery,
  ): Promise<Page<SourceShare>> {
    await this.question(siteId, id);
    const answers = await this.repository.answersOf(siteId, { ...filter, question: id });
    return pageOfList(sharesOf(answers), query, `question-sources:${id}`);
  }

  /** The site's answers the filter counts, newest first. */
  listAnswers(
    siteId: string,
    filter: AnswerFilter,
    query: PageQuery,
  ): Promise<Page<SiteQuestionAnswer>> {
    return this.repository.listAnswers(siteId, filter, query);
  }

  /** An answer of the site; 404 `Site question answer` otherwise. */
  async answer(siteId: string, id: string): Promise<SiteQuestionAnswer> {
    const answer = await this.repository.findAnswer(siteId, id);
    if (!answer) throw notFound('Site question answer');
    return answer;
  }

  /** The pages an answer drew on, in the order the search ranked them. */
  async answerSources(siteId: string, id: string, query: PageQuery): Promise<Page<SourceShare>> {
    const answer = await this.answer(siteId, id);
    return pageOfList(sharesOf([answer], false), query, `answer-sources:${id}`);
  }

  /**
   * Records an agent's feedback (`submitAgentFeedbackToSite`). One that names an answer of the
   * site by its response id (`reportedBy.correlationId`, the ask's X-Request-Id) is linked to
   * it and rates it -1: an agent reports what went wrong.
   */
  submitAgentFeedback(
    siteId: string,
    body: SubmitAgentFeedbackDto,
  ): Promise<{ feedback: SiteAgentFeedback; answer: SiteQuestionAnswer | null }> {
    return this.repository.insertAgentFeedback(siteId, body, this.clock.now());
  }

  /** Records feedback on the site's content (the deprecated `submitSiteAgentFeedback`). */
  submitSiteContentFeedback(siteId: string, body: SubmitSiteAgentFeedbackDto): Promise<void> {
    return this.repository.insertSiteContentFeedback(siteId, body, this.clock.now());
  }

  /**
   * Deletes what is older than AI_QUESTIONS_RETENTION_DAYS: answers, agents' feedback, and the
   * questions left without an answer. Returns how many rows went.
   */
  purgeExpired(): Promise<number> {
    const days = this.config.AI_QUESTIONS_RETENTION_DAYS;
    return this.repository.purgeBefore(new Date(this.clock.now().getTime() - days * DAY_MS));
  }

  private async question(siteId: string, id: string) {
    const question = await this.repository.findQuestion(siteId, id);
    if (!question) throw notFound('Site question');
    return question;
  }
}

/**
 * The pages of the answers' sources, each with its share of them: every answer shares 1 among
 * its sources equally, and a page's weight is its part of the answers' total. Newest answers
 * first give a page its revision and title. `byWeight` false keeps the first answer's order.
 */
function sharesOf(answers: SiteQuestionAnswer[], byWeight = true): SourceShare[] {
  const shares = new Map<string, SourceShare>();
  const withSources = answers.filter((answer) => answer.sources.length > 0);
  for (const answer of withSources) {
    for (const source of answer.sources) {
      const key = `${source.space}/${source.page}`;
      const share = shares.get(key) ?? {
        space: source.space,
        page: source.page,
        revision: source.revision,
        title: source.title,
        weight: 0,
      };
      share.weight += 1 / answer.sources.length / withSources.length;
      shares.set(key, share);
    }
  }
  const list = [...shares.values()];
  return byWeight ? list.sort((a, b) => b.weight - a.weight) : list;
}
